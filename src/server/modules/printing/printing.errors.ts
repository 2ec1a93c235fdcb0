import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The printing area's own error codes; their texts are `errors.<CODE>` of locales/printing. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    GS1_PREFIX_INVALID: true;
    SSCC_SERIAL_EXHAUSTED: true;
    PRINTER_NOT_FOUND: true;
    PRINT_RENDER_FAILED: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const printingErrors = {
  GS1_PREFIX_INVALID: 409,
  SSCC_SERIAL_EXHAUSTED: 409,
  PRINTER_NOT_FOUND: 404,
  PRINT_RENDER_FAILED: 409,
} as const satisfies AreaErrorStatuses;
