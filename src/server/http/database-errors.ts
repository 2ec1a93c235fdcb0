import { AppError, type FieldError } from '../../common/errors.js';

/**
 * What the database's own refusals mean to the caller, in one place for every route. The checks of
 * each route catch bad input before any SQL runs; the constraints of the database have the last
 * word, and what still reaches them (a concurrent change, a task gone stale, a value a check missed)
 * is the caller's problem to fix or retry, never a server failure. node-postgres and PGlite both
 * give the SQLSTATE as `code`, with `column`, `constraint` and `detail` where PostgreSQL has them.
 *
 * Answers the AppError for a database error, or undefined for anything else (left to the caller).
 * The constraint's name and the values in PostgreSQL's detail stay in the log, not in the answer.
 */
export function databaseErrorAnswer(error: unknown): AppError | undefined {
  if (error === null || typeof error !== 'object' || error instanceof AppError) return undefined;
  const { code, column, detail } = error as { code?: unknown; column?: unknown; detail?: unknown };
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return undefined;
  const columns = typeof column === 'string' ? [column] : keyColumns(detail);
  const fields = (fieldCode: string): FieldError[] | undefined => (columns.length ? columns.map((name) => ({ field: name, code: fieldCode })) : undefined);
  switch (code) {
    case '23505': // unique_violation
      return new AppError('DUPLICATE_VALUE', {}, fields('DUPLICATE_VALUE'));
    case '23503': // foreign_key_violation: a referenced record is gone, or a record is still referenced
      return typeof detail === 'string' && /is still referenced/.test(detail) ? new AppError('RECORD_IN_USE') : new AppError('REFERENCE_NOT_FOUND', {}, fields('FIELD_FOREIGN'));
    case '23502': // not_null_violation
      return new AppError('VALUE_REQUIRED', {}, fields('FIELD_REQUIRED'));
    case '23514': // check_violation: the stored data's rules (nothing negative, allocated within on-hand...)
    case '23P01': // exclusion_violation
    case '23000': // integrity_constraint_violation
    case '23001': // restrict_violation
      return new AppError('DATA_RULE_VIOLATED');
    case '22003': // numeric_value_out_of_range
      return new AppError('NUMBER_OUT_OF_RANGE');
    case '22001': // string_data_right_truncation
      return new AppError('VALUE_TOO_LONG');
    case '40001': // serialization_failure, still failing once inTransaction gave up retrying
    case '40P01': // deadlock_detected, likewise
    case '55P03': // lock_not_available
      return new AppError('STALE_UPDATE');
    case '57014': // query_canceled (a statement timeout)
      return new AppError('SQL_TIMEOUT');
    default:
      break;
  }
  // Any other data exception (invalid text for a type, a date out of range, division by zero...).
  if (code.startsWith('22')) return new AppError('VALUE_INVALID');
  // Any other integrity constraint.
  if (code.startsWith('23')) return new AppError('DATA_RULE_VIOLATED');
  // The connection or the server went away, or the server is short of resources.
  if (code.startsWith('08') || code.startsWith('53') || code === '57P01' || code === '57P02' || code === '57P03') return new AppError('DATABASE_UNAVAILABLE');
  return undefined;
}

/** The columns of PostgreSQL's key detail, `Key (owner_id, code)=(1, A) already exists.` */
function keyColumns(detail: unknown): string[] {
  if (typeof detail !== 'string') return [];
  const columns = /^Key \(([^)]*)\)=/.exec(detail)?.[1];
  return columns ? columns.split(',').map((name) => name.trim().replace(/^"|"$/g, '')) : [];
}
