import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The template area's own error codes; their texts are `errors.<CODE>` of locales/template. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    TEMPLATE_NOT_FOUND: true;
    TEMPLATE_NOT_PUBLISHED: true;
    TEMPLATE_CODE_TAKEN: true;
    TEMPLATE_INVALID: true;
    TEMPLATE_RENDER_FAILED: true;
    JRXML_NOT_FOUND: true;
    JRXML_INVALID: true;
    JRXML_TOO_LARGE: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const templateErrors = {
  TEMPLATE_NOT_FOUND: 404,
  TEMPLATE_NOT_PUBLISHED: 409,
  TEMPLATE_CODE_TAKEN: 409,
  TEMPLATE_INVALID: 400,
  TEMPLATE_RENDER_FAILED: 400,
  JRXML_NOT_FOUND: 404,
  JRXML_INVALID: 400,
  JRXML_TOO_LARGE: 413,
} as const satisfies AreaErrorStatuses;
