/** The handheld area's own error codes; their texts are `errors.<CODE>` of locales/handheld. */
declare module '../../../common/errors.js' {
  interface AreaErrorCodes {
    HH_ACTION_UNKNOWN: true;
    HH_TARGET_UNKNOWN: true;
    HH_CODE_TAKEN: true;
    HH_SESSION_ENDED: true;
    HH_SCAN_UNKNOWN: true;
  }
}

/** Their HTTP status (the manifest's `errors`). The first two name a field of a refused publish. */
export const handheldErrors = {
  HH_ACTION_UNKNOWN: 400,
  HH_TARGET_UNKNOWN: 400,
  HH_CODE_TAKEN: 409,
  HH_SESSION_ENDED: 409,
  HH_SCAN_UNKNOWN: 404,
} as const;
