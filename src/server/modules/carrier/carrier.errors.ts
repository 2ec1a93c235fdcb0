import type { AreaErrorStatuses } from '../../../common/errors.js';

/** The carrier area's own error codes; their texts are `errors.<CODE>` of locales/carrier. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    /** The carrier answered with an error (or something that is not its API's answer). */
    CARRIER_FAILED: true;
    /** The carrier did not answer within the account's time-out, or could not be reached. */
    CARRIER_TIMEOUT: true;
    /** The shipment's carrier account is inactive or has no credential. */
    CARRIER_NOT_CONFIGURED: true;
    /** The shipment is not (or no longer) in the state the action needs. */
    CARRIER_SHIPMENT_STATE: true;
    /** A parcel (carton) named for an order belongs to another order. */
    PARCEL_NOT_OF_ORDER: true;
    /** An order has no closed carton to send as a parcel. */
    PARCEL_NONE: true;
  }
}

/** Their HTTP status (the manifest's `errors`). */
export const carrierErrors = {
  CARRIER_FAILED: 502,
  CARRIER_TIMEOUT: 504,
  CARRIER_NOT_CONFIGURED: 409,
  CARRIER_SHIPMENT_STATE: 409,
  PARCEL_NOT_OF_ORDER: 409,
  PARCEL_NONE: 409,
} as const satisfies AreaErrorStatuses;
