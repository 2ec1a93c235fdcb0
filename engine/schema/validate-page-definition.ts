import type { ErrorObject } from 'ajv';
import type { PageDefinition } from './page-definition.schema.js';
import { validate as checkGenerated } from './generated/page-definition.validate.js';
import { checkPageSemantics } from './check-page-semantics.js';
import { upgradePageDefinition } from './upgrade-page-definition.js';
import type { ValidationProblem, ValidationResult } from './validation-problem.js';

// The schema's check is generated code (npm run generate), never compiled at run time: compiling
// uses `new Function`, which the app's Content-Security-Policy forbids (issue 9, item 8).
function checkSchema(document: unknown): document is PageDefinition {
  return checkGenerated(document);
}

/**
 * Validates a page definition of the current schema version and reports every problem with its
 * JSON path (rjsf habit: problems as data, all at once): first the JSON Schema (allErrors), then,
 * when the shape is right, the semantic checks.
 */
export function validatePageDefinition(document: unknown): ValidationResult<PageDefinition> {
  if (!checkSchema(document)) {
    return { ok: false, problems: [...schemaProblems(checkGenerated.errors ?? []), ...semanticsOfMalformed(document)] };
  }
  const problems = checkPageSemantics(document);
  return problems.length ? { ok: false, problems } : { ok: true, value: document, problems: [] };
}

/** Upgrades a document of any older schemaVersion, then validates it. */
export function loadPageDefinition(document: unknown): ValidationResult<PageDefinition> {
  const upgraded = upgradePageDefinition(document);
  if (upgraded.problem) return { ok: false, problems: [upgraded.problem] };
  return validatePageDefinition(upgraded.document);
}

function schemaProblems(errors: ErrorObject[]): ValidationProblem[] {
  const seen = new Set<string>();
  const problems: ValidationProblem[] = [];
  for (const error of errors) {
    const path =
      error.keyword === 'required'
        ? `${error.instancePath}/${String((error.params as { missingProperty: string }).missingProperty)}`
        : error.keyword === 'additionalProperties'
          ? `${error.instancePath}/${String((error.params as { additionalProperty: string }).additionalProperty)}`
          : error.instancePath;
    const message = `${error.message ?? error.keyword}${error.keyword === 'enum' ? `: ${JSON.stringify((error.params as { allowedValues: unknown }).allowedValues)}` : ''}`;
    const key = `${path}|${error.keyword}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ path, code: error.keyword, message });
  }
  return problems;
}

/**
 * The semantic checks also run on a document the schema refused, so that one save reports every
 * problem (a wrong enum and a dangling reference at once). They assume the shape, so on a document
 * too broken for them they report nothing rather than fail.
 */
function semanticsOfMalformed(document: unknown): ValidationProblem[] {
  if (typeof document !== 'object' || document === null || !Array.isArray((document as { fields?: unknown }).fields)) return [];
  try {
    return checkPageSemantics(document as PageDefinition);
  } catch {
    return [];
  }
}
