import { validatePageDefinition, type ValidationProblem } from '../../../engine/schema/index.js';

/** The validator's problems of a document, by JSON pointer (problems as data). */
export function validateDocument(document: unknown): ValidationProblem[] {
  const result = validatePageDefinition(document);
  return result.ok ? [] : result.problems;
}

/** The problems at a path or under it, for a property or a whole item. */
export function problemsUnder(problems: ValidationProblem[], path: string): ValidationProblem[] {
  return problems.filter((p) => p.path === path || p.path.startsWith(`${path}/`));
}

export function problemsAt(problems: ValidationProblem[], path: string): ValidationProblem[] {
  return problems.filter((p) => p.path === path);
}
