import { sql, type Kysely, type RawBuilder } from 'kysely';
import { AppError } from '../../../../common/errors.js';
import type { DB } from '../../../db/schema.js';

/** The caller's project and warehouse, which a foreign value a route accepts must lie in. */
export interface ForeignScope {
  projectId: number | null;
  warehouseId: number | null;
}

/**
 * The master data a hand-written route takes by id or code, with the scope columns each table
 * carries: the same rule as the engine's dropdowns and writes (a table with project_id keeps to the
 * session's project, one with warehouse_id to its warehouse).
 */
const SCOPE_COLUMNS = {
  owner: ['project_id'],
  sku: ['project_id'],
  partner: ['project_id'],
  location: ['warehouse_id'],
} as const satisfies Record<string, ReadonlyArray<'project_id' | 'warehouse_id'>>;

export type ForeignMaster = keyof typeof SCOPE_COLUMNS;

/** An owner, SKU, partner or location of the caller's scope by id or code; undefined when it is not one. */
export async function findForeignInScope(
  db: Kysely<DB>,
  scope: ForeignScope,
  master: ForeignMaster,
  by: { id: number } | { code: string },
): Promise<{ id: number; code: string } | undefined> {
  const where: RawBuilder<unknown>[] = ['id' in by ? sql`id = ${by.id}` : sql`code = ${by.code}`];
  for (const column of SCOPE_COLUMNS[master]) {
    const value = column === 'project_id' ? scope.projectId : scope.warehouseId;
    if (value === null) return undefined;
    where.push(sql`${sql.ref(column)} = ${value}`);
  }
  const { rows } = await sql<{ id: number | string; code: string }>`
    select id, code from ${sql.table(master)} where ${sql.join(where, sql` and `)} limit 1
  `.execute(db);
  return rows[0] ? { id: Number(rows[0].id), code: rows[0].code } : undefined;
}

/**
 * The one check of a foreign value a hand-written route accepts: the owner, SKU, partner or
 * location of the caller's scope, else the field error FIELD_FOREIGN on `field` (400), so that a
 * value of another project or warehouse is refused before anything is written.
 */
export async function requireForeignInScope(
  db: Kysely<DB>,
  scope: ForeignScope,
  master: ForeignMaster,
  by: { id: number } | { code: string },
  field: string,
): Promise<{ id: number; code: string }> {
  const found = await findForeignInScope(db, scope, master, by);
  if (!found) throw new AppError('VALIDATION_FAILED', {}, [{ field, code: 'FIELD_FOREIGN' }]);
  return found;
}
