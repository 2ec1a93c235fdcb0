/**
 * The platform's error codes: those of the kernel and of the areas that were here before areas
 * brought their own. Each has a text in every language under `errors.<CODE>` in
 * locales/core/<lang>.json, which a test checks in both directions. A new area does not add to
 * this list: it declares its codes in its manifest (`errors`, with their HTTP status), adds them
 * to `AreaErrorCodes` below and keeps their texts in its own locale folder
 * (src/server/modules/README.md).
 */
export const ERRORS = {
  // Sign-in and account
  AUTH_BAD_CREDENTIALS: 401,
  USER_NOT_FOUND: 404,
  USER_EXISTS: 409,
  CODE_INVALID: 400,
  EMAIL_INVALID: 400,
  AUTH_FAILED: 401,
  OLD_PASSWORD_WRONG: 400,
  TOTP_SECRET_WRONG: 400,
  NO_RIGHTS_CONTACT_ADMIN: 403,
  ACCOUNT_LOCKED: 423,
  PASSWORD_POLICY: 400,
  PASSWORD_SAME_AS_OLD: 400,
  PASSWORD_MISMATCH: 400,
  ACCOUNT_DISABLED: 403,
  // Password policy, one code per rule, as `details` of PASSWORD_POLICY
  PASSWORD_TOO_SHORT: 400,
  PASSWORD_TOO_LONG: 400,
  PASSWORD_NO_LOWERCASE: 400,
  PASSWORD_NO_UPPERCASE: 400,
  PASSWORD_NO_DIGIT: 400,
  PASSWORD_NO_SYMBOL: 400,
  TWO_STEP_METHOD_UNAVAILABLE: 400,
  NOT_WHILE_SIMULATING: 403,
  // Orders
  DELETE_CANCEL_NOT_ALLOWED: 409,
  SPLIT_NOT_ALLOWED: 409,
  PRINT_NOT_ALLOWED: 409,
  ORDER_STATUS_ERROR: 409,
  WAVE_ID_EXISTS: 409,
  SCAN_BY_WAVE: 400,
  // Picking (waves and pick tasks)
  OVER_PICK: 409,
  PICK_WRONG_LOCATION: 400,
  // A pick task that is not open any more, or no longer covered by its line's allocation record
  PICK_TASK_CLOSED: 409,
  PICK_TASK_STALE: 409,
  SELECTION_CAP: 400,
  // Ship-to address rule, as `details` of VALIDATION_FAILED
  ADDRESS_ENGLISH_ONLY: 400,
  ADDRESS_CHINESE_ONLY: 400,
  ADDRESS_CHINESE_REQUIRED: 400,
  // Inventory: there must be enough of it
  INSUFFICIENT_INVENTORY: 409,
  QTY_NOT_POSITIVE: 400,
  APPROVAL_BY_REQUESTER: 403,
  APPROVAL_REQUIRED: 409,
  DOCUMENT_NO_LINES: 409,
  TRANS_LOG_PERIOD_TOO_LONG: 400,
  COUNT_NOT_COMPLETE: 409,
  // Scanning
  INVALID_SKU: 400,
  OVERPACK_NOT_ALLOWED: 409,
  CARTON_CLOSED: 409,
  NOT_ENOUGH_TO_REMOVE: 409,
  BARCODE_FORMAT: 400,
  SSCC_MIXED_PACK: 409,
  NO_PICKED_STOCK: 409,
  CARD_REPLACE: 409,
  // General
  PRINTER_UNAVAILABLE: 503,
  NO_RECORD: 404,
  DATA_NOT_CHANGED: 409,
  NOT_SAVED: 409,
  UPLOAD_TOO_LARGE: 413,
  // Attachments and the download center (a record's attachments total at most 500M)
  ATTACHMENT_TOTAL_TOO_LARGE: 413,
  ATTACHMENTS_NOT_ENABLED: 409,
  DOWNLOAD_NOT_READY: 409,
  SYSTEM_CONFIG: 500,
  // HTTP and platform
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  OUT_OF_SCOPE: 403,
  ROUTE_NOT_FOUND: 404,
  BAD_JSON: 400,
  BAD_REQUEST: 400,
  // Input refused at the edge for every route
  INPUT_NUL: 400,
  INPUT_TOO_DEEP: 400,
  NUMBER_OUT_OF_RANGE: 400,
  EXPORT_INCOMPLETE: 500,
  VALIDATION_FAILED: 400,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  STALE_UPDATE: 409,
  DUPLICATE_VALUE: 409,
  // An Idempotency-Key header (docs/handheld.md): malformed, or sent again with another request
  IDEMPOTENCY_KEY_INVALID: 400,
  IDEMPOTENCY_KEY_REUSED: 409,
  // Refusals of the database itself that no check before it caught (http/database-errors.ts)
  DATA_RULE_VIOLATED: 409,
  REFERENCE_NOT_FOUND: 409,
  RECORD_IN_USE: 409,
  VALUE_REQUIRED: 400,
  VALUE_TOO_LONG: 400,
  VALUE_INVALID: 400,
  INTERNAL: 500,
  DATABASE_UNAVAILABLE: 503,
  MODULE_NOT_FOUND: 404,
  // Master data
  ID_RULE_NOT_FOUND: 404,
  ID_SEQUENCE_EXHAUSTED: 409,
  LOCATION_RANGE_INVALID: 400,
  LOCATION_RANGE_TOO_LARGE: 400,
  // Generic-page designer and its publish rules
  GENERIC_ALREADY_PUBLISHED: 409,
  GENERIC_DELETE_PUBLISHED: 409,
  GENERIC_STARTUP_EXISTS: 409,
  GENERIC_PAGE_EXISTS: 409,
  GENERIC_MENU_CONFLICT: 409,
  GENERIC_SQL_NOT_READ: 400,
  GENERIC_SQL_INVALID: 400,
  // Page-definition engine: field rules, query conditions, import, behaviours
  FIELD_REQUIRED: 400,
  FIELD_TOO_LONG: 400,
  FIELD_TYPE: 400,
  FIELD_DECIMALS: 400,
  FIELD_RANGE: 400,
  FIELD_NOT_UNIQUE: 400,
  FIELD_VALIDATION_SQL: 400,
  FIELD_FOREIGN: 400,
  FIELD_UNKNOWN: 400,
  QUERY_INVALID: 400,
  QUERY_FIELD: 400,
  QUERY_OPERATOR: 400,
  IMPORT_REJECTED: 400,
  IMPORT_FILE_INVALID: 400,
  IMPORT_COLUMN_MISSING: 400,
  // Import templates
  IMPORT_TARGET_UNKNOWN: 400,
  IMPORT_TARGET_FIELD: 400,
  IMPORT_DELIMITER_INVALID: 400,
  IMPORT_DATE_FORMAT: 400,
  BEHAVIOUR_UNKNOWN: 404,
  BEHAVIOUR_SELECTION: 400,
  BEHAVIOUR_NOT_ENABLED: 409,
  // `preview: true` on a behaviour whose action computes no preview
  BEHAVIOUR_NO_PREVIEW: 400,
  SQL_TIMEOUT: 503,
  // Configurator SQL refused by the parser or by the database role it runs as
  SQL_REFUSED: 400,
  SQL_NOT_PERMITTED: 403,
  PAGE_READ_ONLY: 409,
  // Jobs and timers
  JOB_DELETE_ACTIVE: 409,
  CRON_INVALID: 400,
  JOB_HANDLER_UNKNOWN: 400,
  JOB_SYSTEM_ONLY: 400,
  // Grants of organizations, projects, warehouses and roles to users (the /user screen's tabs)
  GRANT_EXISTS: 409,
  GRANT_WAREHOUSE_OUTSIDE_PROJECTS: 400,
  GRANT_ROLE_BEYOND_REACH: 403,
  // Locations and splitting, shared by inbound, inventory and outbound
  LOCATION_NOT_FOUND: 404,
  SPLIT_VALUE_REQUIRED: 400,
  SPLIT_DUPLICATE_FIELD: 400,
  // Support tickets
  SUPPORT_TICKET_CLOSED: 409,
  SUPPORT_TICKET_NOT_CLOSED: 409,
  SUPPORT_NOT_PENDING_REQUEST: 409,
  SUPPORT_SELF_APPROVAL: 403,
  SUPPORT_REOPEN_UNAVAILABLE: 409,
  SUPPORT_DOCUMENT_NOT_FOUND: 404,
  SUPPORT_DOCUMENT_NOT_CLOSED: 409,
  // Outbound order entry: the allocation qty must be entered
  ALLOCATION_QTY_REQUIRED: 400,
  ORDER_UNDER_MAINTENANCE: 409,
} as const satisfies Record<string, number>;

export type PlatformErrorCode = keyof typeof ERRORS;

/**
 * The error codes the areas bring. An area adds its own to this interface where it declares
 * them, as its tables are added to `DB`:
 *
 *   declare module '../../../common/errors.js' {
 *     interface AreaErrorCodes { LPN_MISMATCH: true }
 *   }
 *
 * and gives each its HTTP status in its manifest's `errors`.
 */
// oxlint-disable-next-line typescript/no-empty-object-type -- filled by declaration merging
export interface AreaErrorCodes {}

export type ErrorCode = PlatformErrorCode | keyof AreaErrorCodes;

/** The HTTP status of each of an area's codes (its manifest's `errors`). */
export type AreaErrorStatuses = { readonly [Code in keyof AreaErrorCodes]?: number };

/** The platform's codes (an area's are in its manifest). */
export const ERROR_CODES = Object.keys(ERRORS) as PlatformErrorCode[];

/** Whether the value is one of the platform's codes. */
export function isErrorCode(value: unknown): value is PlatformErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}

/** One field's problem inside a 400 answer: which field, which code, the text, its parameters. */
export interface FieldError {
  field: string;
  code: string;
  message?: string;
  params?: Record<string, string | number>;
}

/** The body of every failed API call. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: FieldError[];
  params?: Record<string, string | number>;
}

/** A domain error: thrown anywhere on the server, answered by the one error handler. */
export class AppError extends Error {
  /** The status of a platform code; an area's code has its status in the area's manifest, which the error handler reads. */
  readonly status: number | undefined;
  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    readonly details: FieldError[] | undefined = undefined,
  ) {
    super(code);
    this.name = 'AppError';
    this.status = isErrorCode(code) ? ERRORS[code] : undefined;
  }
}
