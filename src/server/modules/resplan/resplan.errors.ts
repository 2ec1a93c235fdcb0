import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The resource planning area's own error codes; their texts are `errors.<CODE>` of locales/resplan. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    RESPLAN_PLAN_UNKNOWN: true;
    RESPLAN_SHIFT_UNKNOWN: true;
    RESPLAN_RATE_UNKNOWN: true;
    RESPLAN_SHIFT_INACTIVE: true;
    RESPLAN_SHIFT_NOT_ON_DAY: true;
    RESPLAN_SHIFT_TIMES: true;
    RESPLAN_PLAN_CONFIRMED: true;
    RESPLAN_NOT_CALCULATED: true;
    RESPLAN_RATE_MISSING: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const resplanErrors = {
  RESPLAN_PLAN_UNKNOWN: 404,
  RESPLAN_SHIFT_UNKNOWN: 404,
  RESPLAN_RATE_UNKNOWN: 404,
  RESPLAN_SHIFT_INACTIVE: 409,
  RESPLAN_SHIFT_NOT_ON_DAY: 409,
  RESPLAN_SHIFT_TIMES: 400,
  RESPLAN_PLAN_CONFIRMED: 409,
  RESPLAN_NOT_CALCULATED: 409,
  RESPLAN_RATE_MISSING: 409,
} as const satisfies AreaErrorStatuses;
