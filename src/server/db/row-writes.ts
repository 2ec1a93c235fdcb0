import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { Place } from './row-stamps.js';
import type { Audit, DB } from './schema.js';

/**
 * The two writes most repositories repeat: a new row of the author's project and warehouse with who
 * created it, and a change of one row by id stamped with when (and by whom) it changed. Each still
 * runs in the caller's transaction (docs/architecture.md, "Writes: one transaction each").
 */

/** Tables whose rows have an id and the audit columns. */
export type AuditedTable = {
  [Name in keyof DB]: DB[Name] extends { id: unknown } & Audit ? Name : never;
}[keyof DB];

/** Tables whose rows also belong to one project and warehouse. */
export type PlacedTable = {
  [Name in keyof DB]: DB[Name] extends { id: unknown; project_id: unknown; warehouse_id: unknown } & Audit ? Name : never;
}[keyof DB];

/** What a new row of a placed table is given: every column but its place and creator. */
export type PlacedValues<Name extends PlacedTable> = Omit<Insertable<DB[Name]>, 'project_id' | 'warehouse_id' | 'created_by' | 'updated_by'>;

// The table name is a type parameter, which Kysely's builder cannot follow: the statement is built
// on an untyped handle and its row typed by the table again on the way out.
type Untyped = Kysely<Record<string, Record<string, unknown>>>;

function insertQuery(trx: Transaction<DB>, table: string, place: Place, values: object, by: string) {
  return (trx as unknown as Untyped)
    .insertInto(table)
    .values({ ...values, project_id: place.projectId, warehouse_id: place.warehouseId, created_by: by, updated_by: by });
}

/** Adds a row of `table` in the place, created by `by`; answers its id. */
export async function insertPlacedRow<Name extends PlacedTable>(trx: Transaction<DB>, table: Name, place: Place, values: PlacedValues<Name>, by: string): Promise<number> {
  const row = await insertQuery(trx, table, place, values, by).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Adds a row of `table` in the place, created by `by`; answers the row as stored. */
export async function insertPlacedRowReturning<Name extends PlacedTable>(trx: Transaction<DB>, table: Name, place: Place, values: PlacedValues<Name>, by: string): Promise<Selectable<DB[Name]>> {
  const row = await insertQuery(trx, table, place, values, by).returningAll().executeTakeFirstOrThrow();
  return row as Selectable<DB[Name]>;
}

function updateQuery(trx: Transaction<DB>, table: string, id: number, values: object, by: string | undefined) {
  return (trx as unknown as Untyped)
    .updateTable(table)
    .set({ ...values, updated_at: sql`now()`, ...(by === undefined ? {} : { updated_by: by }) })
    .where('id', '=', id);
}

/** Changes the row of `table` with this id, stamped as changed now (and by `by`, when given). */
export async function updateRowById<Name extends AuditedTable>(trx: Transaction<DB>, table: Name, id: number, values: Updateable<DB[Name]>, by?: string): Promise<void> {
  await updateQuery(trx, table, id, values, by).execute();
}

/** The same change, answering the row as changed. */
export async function updateRowByIdReturning<Name extends AuditedTable>(trx: Transaction<DB>, table: Name, id: number, values: Updateable<DB[Name]>, by?: string): Promise<Selectable<DB[Name]>> {
  const row = await updateQuery(trx, table, id, values, by).returningAll().executeTakeFirstOrThrow();
  return row as Selectable<DB[Name]>;
}

/** A document published in numbered versions: the table of its versions, the column there naming the document and the one holding a version's content. */
export interface VersionTable {
  table: AuditedTable;
  documentColumn: string;
  contentColumn: string;
}

/**
 * Stores a published version of the document with this id in `document` and makes it the one in
 * use (`published_version`); answers its number, one past every earlier version.
 */
export async function publishNextVersion(trx: Transaction<DB>, document: AuditedTable, id: number, versions: VersionTable, content: unknown, by: string): Promise<number> {
  const untyped = trx as unknown as Untyped;
  const last = await untyped.selectFrom(versions.table).select(sql<number>`coalesce(max(version), 0)`.as('max')).where(versions.documentColumn, '=', id).executeTakeFirstOrThrow();
  const version = Number(last.max) + 1;
  await untyped
    .insertInto(versions.table)
    .values({ [versions.documentColumn]: id, version, [versions.contentColumn]: JSON.stringify(content), created_by: by, updated_by: by })
    .execute();
  await updateRowById(trx, document, id, { published_version: version } as Updateable<DB[AuditedTable]>, by);
  return version;
}
