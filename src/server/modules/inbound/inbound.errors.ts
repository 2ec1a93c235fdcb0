import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The inbound area's own error codes; their texts are `errors.<CODE>` of locales/inbound. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    OVER_RECEIVE: true;
    LOCATION_REQUIRED: true;
    QUERY_TEXT_TOO_SHORT: true;
    LPN_MISMATCH: true;
    PUTAWAY_REASON_REQUIRED: true;
    PUTAWAY_QTY_ABOVE_TASK: true;
    CONTAINER_NOT_FOUND_OR_RECEIVED: true;
    CARTON_ID_PATTERN: true;
    EPC_REQUIRED: true;
    CARTON_TYPE_REQUIRED: true;
    ANTI_COUNTERFEIT_REQUIRED: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const inboundErrors = {
  OVER_RECEIVE: 409,
  LOCATION_REQUIRED: 400,
  QUERY_TEXT_TOO_SHORT: 400,
  LPN_MISMATCH: 409,
  PUTAWAY_REASON_REQUIRED: 400,
  PUTAWAY_QTY_ABOVE_TASK: 400,
  CONTAINER_NOT_FOUND_OR_RECEIVED: 409,
  CARTON_ID_PATTERN: 400,
  EPC_REQUIRED: 400,
  CARTON_TYPE_REQUIRED: 400,
  ANTI_COUNTERFEIT_REQUIRED: 400,
} as const satisfies AreaErrorStatuses;
