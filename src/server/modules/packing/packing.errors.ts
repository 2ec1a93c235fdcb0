import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The packing area's own error codes; their texts are `errors.<CODE>` of locales/packing. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    PACK_ITEM_NOT_ON_ORDER: true;
    CARTON_EMPTY: true;
    PACK_NOTHING_PICKED: true;
    PACK_NOTHING_PACKED: true;
    CARTON_OPEN: true;
    PACK_CANCEL_CHECK_COMPLETE_FIRST: true;
    CARTON_ON_PALLET: true;
    CARTON_NOT_ON_PALLET: true;
    PALLET_CLOSED: true;
    PALLET_EMPTY: true;
    PALLET_OPEN: true;
    PACK_CARTON_EMPTY: true;
    PACK_ANTI_COUNTERFEIT_REQUIRED: true;
    PACK_ANTI_COUNTERFEIT_USED: true;
    PACK_COLLAR_REQUIRED: true;
    PACK_COLLAR_MISMATCH: true;
    PACK_CARTON_KEY_UNKNOWN: true;
    PACK_NOT_ALL_PACKED: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const packingErrors = {
  PACK_ITEM_NOT_ON_ORDER: 409,
  CARTON_EMPTY: 409,
  PACK_NOTHING_PICKED: 409,
  PACK_NOTHING_PACKED: 409,
  CARTON_OPEN: 409,
  PACK_CANCEL_CHECK_COMPLETE_FIRST: 409,
  CARTON_ON_PALLET: 409,
  CARTON_NOT_ON_PALLET: 409,
  PALLET_CLOSED: 409,
  PALLET_EMPTY: 409,
  PALLET_OPEN: 409,
  PACK_CARTON_EMPTY: 409,
  PACK_ANTI_COUNTERFEIT_REQUIRED: 400,
  PACK_ANTI_COUNTERFEIT_USED: 409,
  PACK_COLLAR_REQUIRED: 400,
  PACK_COLLAR_MISMATCH: 400,
  PACK_CARTON_KEY_UNKNOWN: 409,
  PACK_NOT_ALL_PACKED: 409,
} as const satisfies AreaErrorStatuses;
