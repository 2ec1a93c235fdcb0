import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The split scan's error codes; their texts are `errors.<CODE>` of locales/packing. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    SPLIT_OTHER_ORDER: true;
    SPLIT_SAME_CARTON: true;
  }
}

export const splitErrors = {
  SPLIT_OTHER_ORDER: 409,
  SPLIT_SAME_CARTON: 409,
} as const satisfies AreaErrorStatuses;
