import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The CFS area's own error codes; their texts are `errors.<CODE>` of locales/cfs. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    CFS_ORDER_UNKNOWN: true;
    CFS_ORDER_CANCELLED: true;
    CFS_ORDER_NOT_OPEN: true;
    CFS_ORDER_LOADED: true;
    CFS_CARTON_ALREADY_IN: true;
    CFS_CARTON_UNKNOWN: true;
    CFS_CARTON_ON_PALLET: true;
    CFS_CARTON_LOADED: true;
    CFS_PALLET_UNKNOWN: true;
    CFS_PALLET_LOADED: true;
    CFS_PALLET_EMPTY: true;
    CFS_CONTAINER_UNKNOWN: true;
    CFS_CONTAINER_CLOSED: true;
    CFS_REASON_UNKNOWN: true;
    CFS_SHIPMENT_UNKNOWN: true;
    CFS_BATCH_REJECTED: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const cfsErrors = {
  CFS_ORDER_UNKNOWN: 404,
  CFS_ORDER_CANCELLED: 409,
  CFS_ORDER_NOT_OPEN: 409,
  CFS_ORDER_LOADED: 409,
  CFS_CARTON_ALREADY_IN: 409,
  CFS_CARTON_UNKNOWN: 404,
  CFS_CARTON_ON_PALLET: 409,
  CFS_CARTON_LOADED: 409,
  CFS_PALLET_UNKNOWN: 404,
  CFS_PALLET_LOADED: 409,
  CFS_PALLET_EMPTY: 409,
  CFS_CONTAINER_UNKNOWN: 404,
  CFS_CONTAINER_CLOSED: 409,
  CFS_REASON_UNKNOWN: 400,
  CFS_SHIPMENT_UNKNOWN: 404,
  CFS_BATCH_REJECTED: 400,
} as const satisfies AreaErrorStatuses;
