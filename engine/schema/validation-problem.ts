/** One problem of a page definition: where (a JSON pointer into the document), what, and a readable text. */
export interface ValidationProblem {
  /** JSON pointer, e.g. `/fields/2/name`; `` is the document itself. */
  path: string;
  /** A stable code: the JSON Schema keyword (`required`, `pattern`, ...) or a semantic check (`duplicate`, `unknownReference`, ...). */
  code: string;
  message: string;
}

export type ValidationResult<T> = { ok: true; value: T; problems: [] } | { ok: false; problems: ValidationProblem[] };
