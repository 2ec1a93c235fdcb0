import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The laundry area's own error codes; their texts are `errors.<CODE>` of locales/laundry. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    LAUNDRY_DEVICE_KEY_MISSING: true;
    LAUNDRY_DEVICE_UNKNOWN: true;
    LAUNDRY_DEVICE_REVOKED: true;
    LAUNDRY_CUSTOMER_NOT_FOUND: true;
    LAUNDRY_GARMENT_NOT_FOUND: true;
    LAUNDRY_GARMENT_OTHER_CUSTOMER: true;
    LAUNDRY_TAG_IN_PROCESS: true;
    LAUNDRY_WRONG_STATUS: true;
    LAUNDRY_BATCH_NOT_OPEN: true;
    LAUNDRY_BATCH_EMPTY: true;
    LAUNDRY_TOO_MANY_FROM_DEVICE: true;
    LAUNDRY_TOO_MANY_FROM_ADDRESS: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const laundryErrors = {
  LAUNDRY_DEVICE_KEY_MISSING: 401,
  LAUNDRY_DEVICE_UNKNOWN: 401,
  LAUNDRY_DEVICE_REVOKED: 401,
  LAUNDRY_CUSTOMER_NOT_FOUND: 404,
  LAUNDRY_GARMENT_NOT_FOUND: 404,
  LAUNDRY_GARMENT_OTHER_CUSTOMER: 403,
  LAUNDRY_TAG_IN_PROCESS: 409,
  LAUNDRY_WRONG_STATUS: 409,
  LAUNDRY_BATCH_NOT_OPEN: 409,
  LAUNDRY_BATCH_EMPTY: 409,
  LAUNDRY_TOO_MANY_FROM_DEVICE: 429,
  LAUNDRY_TOO_MANY_FROM_ADDRESS: 429,
} as const satisfies AreaErrorStatuses;
