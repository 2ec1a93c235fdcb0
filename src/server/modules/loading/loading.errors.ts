import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The loading area's own error codes; their texts are `errors.<CODE>` of locales/loading. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    CARTON_ON_LOAD: true;
    LOAD_ORDER_CANCELLED: true;
    LOAD_NOT_OPEN: true;
    LOAD_ORDER_NOT_LOADED: true;
    LOAD_EMPTY: true;
    LOAD_NOT_ON_WAVE: true;
    LOAD_IMPORT_REJECTED: true;
    LOAD_ORDER_NOT_SHIPPED: true;
    LOAD_PALLET_EMPTY: true;
    LOAD_PALLET_OPEN: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const loadingErrors = {
  CARTON_ON_LOAD: 409,
  LOAD_ORDER_CANCELLED: 409,
  LOAD_NOT_OPEN: 409,
  LOAD_ORDER_NOT_LOADED: 409,
  LOAD_EMPTY: 409,
  LOAD_NOT_ON_WAVE: 409,
  LOAD_IMPORT_REJECTED: 400,
  LOAD_ORDER_NOT_SHIPPED: 409,
  LOAD_PALLET_EMPTY: 409,
  LOAD_PALLET_OPEN: 409,
} as const satisfies AreaErrorStatuses;
