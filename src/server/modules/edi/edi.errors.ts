import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The EDI area's own error codes; their texts are `errors.<CODE>` of locales/edi. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    EDI_NOTICE_INVALID: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const ediErrors = {
  EDI_NOTICE_INVALID: 409,
} as const satisfies AreaErrorStatuses;
