import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { isStored, type PageDefinition } from '../../../engine/schema/index.js';
import { readTableColumns, scopeColumnOf } from '../../../engine/server/index.js';
import type { DB } from '../db/schema.js';
import { createIndexIfMissing, listIndexColumns } from './definition-index.repository.js';

/** PostgreSQL's longest identifier. */
const MAX_IDENTIFIER = 63;

/** `<table>_<column>_idx`, shortened with a hash of the full name where it would pass 63 characters. */
export function declaredIndexName(table: string, column: string): string {
  const name = `${table}_${column}_idx`;
  if (name.length <= MAX_IDENTIFIER) return name;
  const hash = crypto.createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_IDENTIFIER - hash.length - 5)}_${hash}_idx`;
}

export interface DeclaredIndex {
  name: string;
  table: string;
  columns: string[];
}

/**
 * The indexes the pages declare with `indexed` fields (engine/schema/README.md): on (scope column,
 * field) when the table has the page's scope column, which every list of the page filters by, else
 * on (field). One per table and columns, whichever page declares it.
 */
export async function declaredIndexes(db: Kysely<DB>, pages: readonly PageDefinition[]): Promise<DeclaredIndex[]> {
  const wanted = pages.filter((page) => page.fields.some((field) => field.indexed === true && isStored(field)));
  if (!wanted.length) return [];
  const catalog = await readTableColumns(db, wanted.map((page) => page.table.name));
  const indexes = new Map<string, DeclaredIndex>();
  for (const page of wanted) {
    const table = page.table.name;
    const columns = catalog.get(table);
    if (!columns) continue;
    const scopeColumn = scopeColumnOf(page.scope ?? 'none');
    const leading = scopeColumn !== null && columns.has(scopeColumn) ? [scopeColumn] : [];
    for (const field of page.fields) {
      if (field.indexed !== true || !isStored(field) || !columns.has(field.name) || leading.includes(field.name)) continue;
      const index = { name: declaredIndexName(table, field.name), table, columns: [...leading, field.name] };
      indexes.set(`${table}(${index.columns.join(',')})`, index);
    }
  }
  return [...indexes.values()];
}

/**
 * Creates the declared indexes that are missing (run by the shipped-definition sync at start). An
 * index is left out when one of the table's indexes already leads with the same columns (a unique
 * constraint on (project_id, code), say). Answers the names of the indexes created.
 */
export async function ensureDeclaredIndexes(trx: Transaction<DB>, pages: readonly PageDefinition[]): Promise<string[]> {
  const created: string[] = [];
  const existingOf = new Map<string, string[][]>();
  for (const index of await declaredIndexes(trx, pages)) {
    let existing = existingOf.get(index.table);
    if (!existing) {
      existing = await listIndexColumns(trx, index.table);
      existingOf.set(index.table, existing);
    }
    if (existing.some((columns) => index.columns.every((column, i) => columns[i] === column))) continue;
    await createIndexIfMissing(trx, index.name, index.table, index.columns);
    existing.push(index.columns);
    created.push(index.name);
  }
  return created;
}
