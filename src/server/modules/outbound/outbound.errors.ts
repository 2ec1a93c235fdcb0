import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The outbound area's own error codes (those it brought after the platform list); texts `errors.<CODE>` of locales/outbound. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    /** An order going on a consignment ships to another consignee. */
    CONSIGNEE_MISMATCH: true;
  }
}

export const outboundErrors = {
  CONSIGNEE_MISMATCH: 409,
} as const satisfies AreaErrorStatuses;
