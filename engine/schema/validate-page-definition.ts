import type { ErrorObject } from 'ajv';
import { ACTION_PATTERN, CODE_PATTERN, IDENTIFIER_PATTERN, TEXT_CODE_PATTERN, type PageDefinition } from './page-definition.schema.js';
import { validate as checkGenerated } from './generated/page-definition.validate.js';
import { checkPageSemantics } from './check-page-semantics.js';
import { upgradePageDefinition } from './upgrade-page-definition.js';
import type { ValidationProblem, ValidationResult } from './validation-problem.js';

// The schema's check is generated code (npm run generate), never compiled at run time: compiling
// uses `new Function`, which the app's Content-Security-Policy forbids.
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
    return { ok: false, problems: [...schemaProblems(checkGenerated.errors ?? [], document), ...semanticsOfMalformed(document)] };
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

function schemaProblems(errors: ErrorObject[], document: unknown): ValidationProblem[] {
  const seen = new Set<string>();
  const problems: ValidationProblem[] = [];
  for (const error of errors) {
    const path =
      error.keyword === 'required'
        ? `${error.instancePath}/${String((error.params as { missingProperty: string }).missingProperty)}`
        : error.keyword === 'additionalProperties'
          ? `${error.instancePath}/${String((error.params as { additionalProperty: string }).additionalProperty)}`
          : error.instancePath;
    const message =
      error.keyword === 'pattern'
        ? patternMessage(String((error.params as { pattern: string }).pattern), valueAt(document, error.instancePath))
        : `${error.message ?? error.keyword}${error.keyword === 'enum' ? `: ${JSON.stringify((error.params as { allowedValues: unknown }).allowedValues)}` : ''}`;
    const key = `${path}|${error.keyword}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ path, code: error.keyword, message });
  }
  return problems;
}

/** What a value refused by a pattern should look like, in words a configurator acts on (not the regular expression). */
const PATTERN_MESSAGES: Record<string, string> = {
  [TEXT_CODE_PATTERN]:
    'is the code of a text, not the text itself: letters, digits and _ in parts joined by dots, for example inb.field.poNo or SKU_TITLE; write the words themselves in the page\'s texts under that code',
  [CODE_PATTERN]: 'is a code: a letter first, then letters, digits, _ or -, at most 64 characters, no spaces',
  [IDENTIFIER_PATTERN]: 'is a table or column name: lower-case letters, digits and _, a letter or _ first, at most 63 characters',
  [ACTION_PATTERN]: 'is an action: a registered one such as masterdata.location.generate, or sql: and the name of one of the page\'s SQL statements',
};

/** The value at a JSON pointer of the document (`/fields/0/labelCode`). */
function valueAt(document: unknown, pointer: string): unknown {
  let value = document;
  for (const part of pointer.split('/').slice(1)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return value;
}

function patternMessage(pattern: string, value: unknown): string {
  const what = PATTERN_MESSAGES[pattern] ?? 'has characters that are not allowed here';
  return typeof value === 'string' ? `"${value}" ${what}` : `the value ${what}`;
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
