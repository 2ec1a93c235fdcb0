/** One field's problem, as the API answers it in `details`. */
export interface EngineFieldError {
  field: string;
  code: string;
  params?: Record<string, string | number>;
}

/**
 * A refusal of the engine. `code` is a code of the application's error registry (the engine cannot
 * import it: engine/ never imports src/); the generic module turns it into an AppError.
 */
export class EngineError extends Error {
  constructor(
    readonly code: string,
    readonly params: Record<string, string | number> = {},
    readonly details: EngineFieldError[] | undefined = undefined,
  ) {
    super(code);
    this.name = 'EngineError';
  }
}

/** Throws VALIDATION_FAILED with every collected field error at once, if there is any. */
export function throwIfFieldErrors(errors: EngineFieldError[], code = 'VALIDATION_FAILED'): void {
  if (errors.length) throw new EngineError(code, {}, errors);
}
