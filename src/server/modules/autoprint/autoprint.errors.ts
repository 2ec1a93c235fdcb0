import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The auto print area's own error codes; their texts are `errors.<CODE>` of locales/autoprint. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    AUTO_PRINT_RULE_NOT_FOUND: true;
    AUTO_PRINT_TEMPLATE_KIND: true;
    AUTO_PRINT_REPORT_REQUIRED: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const autoPrintErrors = {
  AUTO_PRINT_RULE_NOT_FOUND: 404,
  AUTO_PRINT_TEMPLATE_KIND: 400,
  AUTO_PRINT_REPORT_REQUIRED: 400,
} as const satisfies AreaErrorStatuses;
