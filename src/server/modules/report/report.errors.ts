import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The report area's own error codes; their texts are `errors.<CODE>` of locales/report. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    REPORT_NOT_FOUND: true;
    REPORT_NOT_PUBLISHED: true;
    REPORT_CODE_TAKEN: true;
    REPORT_SPEC_INVALID: true;
    REPORT_SQL_FAILED: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const reportErrors = {
  REPORT_NOT_FOUND: 404,
  REPORT_NOT_PUBLISHED: 409,
  REPORT_CODE_TAKEN: 409,
  REPORT_SPEC_INVALID: 400,
  REPORT_SQL_FAILED: 400,
} as const satisfies AreaErrorStatuses;
