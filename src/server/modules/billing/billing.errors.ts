import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The billing area's own error codes; their texts are `errors.<CODE>` of locales/billing. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    BILL_ID_REQUIRED: true;
    BILL_PERIOD_INVALID: true;
    BILL_CUTOFF_INVALID: true;
    BILL_ID_TAKEN: true;
    BILL_NO_CONTRACT: true;
    BILL_NOT_DRAFT: true;
    BILL_NOT_CONFIRMED: true;
    BILL_POSTED_READ_ONLY: true;
    BILL_EVENTS_ALREADY_BILLED: true;
    BILL_CURRENCY_UNKNOWN: true;
    TARIFF_INVALID: true;
    BILL_MADE_BY_RUN: true;
    BILL_RATE_MISSING: true;
    BILL_RUN_RUNNING: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const billingErrors = {
  BILL_ID_REQUIRED: 400,
  BILL_PERIOD_INVALID: 400,
  BILL_CUTOFF_INVALID: 400,
  BILL_ID_TAKEN: 409,
  BILL_NO_CONTRACT: 409,
  BILL_NOT_DRAFT: 409,
  BILL_NOT_CONFIRMED: 409,
  BILL_POSTED_READ_ONLY: 409,
  BILL_EVENTS_ALREADY_BILLED: 409,
  BILL_CURRENCY_UNKNOWN: 409,
  TARIFF_INVALID: 400,
  BILL_MADE_BY_RUN: 409,
  BILL_RATE_MISSING: 409,
  BILL_RUN_RUNNING: 409,
} as const satisfies AreaErrorStatuses;
