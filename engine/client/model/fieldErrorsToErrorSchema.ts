import type { ErrorSchema } from '@rjsf/utils';
import type { EngineFieldError } from '../services.js';

/**
 * The server's field problems (`details`, docs/architecture.md "Errors") as an rjsf error schema, so each
 * text shows under its own field. Problems that name no field of the form are answered apart, to
 * be shown in the message popup instead of being lost.
 */
export function fieldErrorsToErrorSchema(
  details: readonly EngineFieldError[],
  formFields: ReadonlySet<string>,
): { errorSchema: ErrorSchema; unplaced: EngineFieldError[] } {
  const errorSchema: Record<string, { __errors: string[] }> = {};
  const unplaced: EngineFieldError[] = [];
  for (const detail of details) {
    if (!formFields.has(detail.field)) {
      unplaced.push(detail);
      continue;
    }
    (errorSchema[detail.field] ??= { __errors: [] }).__errors.push(detail.message ?? detail.code);
  }
  return { errorSchema: errorSchema as ErrorSchema, unplaced };
}
