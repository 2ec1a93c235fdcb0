import { EngineError } from './engine-error.js';

/**
 * Turns a constraint or data error of a write into an answer instead of a 500: the checks before
 * the write catch nearly everything, but the database's own constraints (and a concurrent writer)
 * have the last word. Anything else is rethrown as it is.
 */
export function databaseWriteError(error: unknown): unknown {
  const { code, column, constraint } = (error ?? {}) as { code?: unknown; column?: unknown; constraint?: unknown };
  if (typeof code !== 'string') return error;
  const field = typeof column === 'string' ? column : typeof constraint === 'string' ? constraint : '(record)';
  switch (code) {
    case '23505': {
      // The key's columns are named in PostgreSQL's detail, "Key (owner_id, code)=(1, A) already
      // exists.": each of them gets the problem, so the form shows it on its fields.
      const detail = (error as { detail?: unknown }).detail;
      const columns = typeof detail === 'string' ? /^Key \(([^)]*)\)=/.exec(detail)?.[1] : undefined;
      const fields = columns ? columns.split(',').map((name) => name.trim().replace(/^"|"$/g, '')) : [];
      return new EngineError(
        'DUPLICATE_VALUE',
        typeof constraint === 'string' ? { constraint } : {},
        fields.length ? fields.map((name) => ({ field: name, code: 'DUPLICATE_VALUE' })) : undefined,
      );
    }
    case '23502':
      return new EngineError('VALIDATION_FAILED', {}, [{ field, code: 'FIELD_REQUIRED' }]);
    case '23503':
      return new EngineError('VALIDATION_FAILED', {}, [{ field, code: 'FIELD_FOREIGN' }]);
    case '23514':
    case '22003':
      return new EngineError('VALIDATION_FAILED', {}, [{ field, code: 'FIELD_RANGE' }]);
    case '22001':
      return new EngineError('VALIDATION_FAILED', {}, [{ field, code: 'FIELD_TOO_LONG' }]);
    case '22P02':
    case '22007':
    case '22008':
      return new EngineError('VALIDATION_FAILED', {}, [{ field, code: 'FIELD_TYPE' }]);
    default:
      return error;
  }
}
