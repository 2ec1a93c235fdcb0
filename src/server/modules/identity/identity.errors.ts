import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The identity area's own error codes; their texts are `errors.<CODE>` of locales/identity. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    USER_SELF_DISABLE: true;
    USER_SELF_SIGN_OUT: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const identityErrors = {
  USER_SELF_DISABLE: 409,
  USER_SELF_SIGN_OUT: 409,
} as const satisfies AreaErrorStatuses;
