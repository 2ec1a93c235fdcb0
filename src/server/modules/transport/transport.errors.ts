import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The transport area's own error codes; their texts are `errors.<CODE>` of locales/transport. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    TMS_ROUTE_CONFIRMED: true;
    TMS_ROUTE_NOT_CONFIRMED: true;
    TMS_ROUTE_EMPTY: true;
    TMS_DO_NOT_UNPLANNED: true;
    TMS_DO_LOCKED: true;
    TMS_DO_NOT_ON_ROUTE: true;
    TMS_STOPS_MISMATCH: true;
    TMS_SPLIT_AT_FIRST: true;
    TMS_MERGE_SAME: true;
    TMS_IMPORT_REJECTED: true;
    TMS_ROW_REQUIRED: true;
    TMS_ROW_INVALID: true;
    TMS_ROW_DUPLICATE: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const transportErrors = {
  TMS_ROUTE_CONFIRMED: 409,
  TMS_ROUTE_NOT_CONFIRMED: 409,
  TMS_ROUTE_EMPTY: 409,
  TMS_DO_NOT_UNPLANNED: 409,
  TMS_DO_LOCKED: 409,
  TMS_DO_NOT_ON_ROUTE: 409,
  TMS_STOPS_MISMATCH: 409,
  TMS_SPLIT_AT_FIRST: 409,
  TMS_MERGE_SAME: 409,
  TMS_IMPORT_REJECTED: 400,
  TMS_ROW_REQUIRED: 400,
  TMS_ROW_INVALID: 400,
  TMS_ROW_DUPLICATE: 400,
} as const satisfies AreaErrorStatuses;
