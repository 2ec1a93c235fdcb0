import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import { findInScope, lockInScope } from '../../db/scoped-rows.js';
import type { DB } from '../../db/schema.js';
import type { Scope } from './inbound.common.js';
import type { AsnLineTable, AsnTable } from './inbound.tables.js';

/** SQL of ASN headers and lines. Every read is limited to the caller's project (and warehouse). */

export type AsnRow = Selectable<AsnTable>;
export type AsnLineRow = Selectable<AsnLineTable>;

type Db = Kysely<DB>;

export interface AsnListFilter {
  status?: string;
  text?: string;
  limit: number;
  offset: number;
}

export async function listAsns(db: Db, scope: Scope, filter: AsnListFilter) {
  let query = db
    .selectFrom('asn')
    .innerJoin('owner', 'owner.id', 'asn.owner_id')
    .where('asn.project_id', '=', scope.projectId)
    .where('asn.warehouse_id', '=', scope.warehouseId);
  if (filter.status) query = query.where('asn.status', '=', filter.status);
  if (filter.text) query = query.where((eb) => eb.or([eb('asn.asn_no', 'ilike', `%${filter.text}%`), eb('asn.supplier_code', 'ilike', `%${filter.text}%`)]));
  const total = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .select(['asn.id', 'asn.asn_no', 'asn.status', 'asn.supplier_code', 'asn.expected_date', 'asn.po_id', 'asn.remark', 'asn.updated_at', 'owner.code as owner_code'])
    .orderBy('asn.id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return { total: Number(total.n), rows };
}

export async function findAsn(db: Db, scope: Scope, id: number): Promise<AsnRow | undefined> {
  return findInScope(db, 'asn', scope, id);
}

/** Locks the ASN header: every change of an ASN's lines or status queues behind it. */
export async function lockAsn(trx: Transaction<DB>, scope: Scope, id: number): Promise<AsnRow | undefined> {
  return lockInScope(trx, 'asn', scope, id);
}

/** Locks an ASN of the project by its number (a support request names it so). */
export async function lockAsnByNo(trx: Transaction<DB>, projectId: number, asnNo: string): Promise<AsnRow | undefined> {
  return lockInScope(trx, 'asn', { projectId }, { column: 'asn_no', value: asnNo });
}

export async function insertAsn(trx: Transaction<DB>, values: Insertable<AsnTable>): Promise<AsnRow> {
  return trx.insertInto('asn').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateAsn(trx: Transaction<DB>, id: number, values: Updateable<AsnTable>): Promise<void> {
  await trx.updateTable('asn').set(values).where('id', '=', id).execute();
}

export async function asnLines(db: Db, asnId: number) {
  return db
    .selectFrom('asn_line')
    .innerJoin('sku', 'sku.id', 'asn_line.sku_id')
    .selectAll('asn_line')
    .select(['sku.code as sku_code', 'sku.description as sku_description'])
    .where('asn_line.asn_id', '=', asnId)
    .orderBy('asn_line.line_no')
    .execute();
}

export async function lockAsnLines(trx: Transaction<DB>, asnId: number, ids: readonly number[]): Promise<AsnLineRow[]> {
  if (ids.length === 0) return [];
  return trx.selectFrom('asn_line').selectAll().where('asn_id', '=', asnId).where(sql<boolean>`id = any(${[...ids]}::bigint[])`).orderBy('id').forUpdate().execute();
}

export async function findAsnLine(db: Db, projectId: number, id: number): Promise<AsnLineRow | undefined> {
  return findInScope(db, 'asn_line', { projectId }, id);
}

export async function insertAsnLines(trx: Transaction<DB>, values: Insertable<AsnLineTable>[]): Promise<AsnLineRow[]> {
  if (values.length === 0) return [];
  return trx.insertInto('asn_line').values(values).returningAll().execute();
}

export async function updateAsnLine(trx: Transaction<DB>, id: number, values: Updateable<AsnLineTable>): Promise<void> {
  await trx.updateTable('asn_line').set(values).where('id', '=', id).execute();
}

export async function deleteAsnLines(trx: Transaction<DB>, asnId: number, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await trx.deleteFrom('asn_line').where('asn_id', '=', asnId).where('id', 'in', [...ids]).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Adds received quantities to ASN lines in one statement. */
export async function addReceivedQtys(trx: Transaction<DB>, qtyByLine: ReadonlyMap<number, string>, by: string): Promise<void> {
  if (qtyByLine.size === 0) return;
  const ids = [...qtyByLine.keys()];
  const qtys = ids.map((id) => qtyByLine.get(id)!);
  await sql`update asn_line set received_qty = received_qty + v.qty, updated_at = now(), updated_by = ${by}
    from (select unnest(${ids}::bigint[]) as id, unnest(${qtys}::numeric[]) as qty) v
    where asn_line.id = v.id`.execute(trx);
}

export async function asnTotals(db: Db, asnId: number): Promise<{ expected: string; received: string; putaway: string; lines: number }> {
  const row = await db
    .selectFrom('asn_line')
    .select([
      sql<string>`coalesce(sum(expected_qty), 0)`.as('expected'),
      sql<string>`coalesce(sum(received_qty), 0)`.as('received'),
      sql<string>`coalesce(sum(putaway_qty), 0)`.as('putaway'),
      sql<string>`count(*)`.as('lines'),
    ])
    .where('asn_id', '=', asnId)
    .executeTakeFirstOrThrow();
  return { expected: row.expected, received: row.received, putaway: row.putaway, lines: Number(row.lines) };
}

export async function countAsnsByStatus(db: Db, scope: Scope) {
  return db
    .selectFrom('asn')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('project_id', '=', scope.projectId)
    .where('warehouse_id', '=', scope.warehouseId)
    .groupBy('status')
    .execute();
}
