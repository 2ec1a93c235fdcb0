import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { PoLineTable, PoStatus, PoTable } from './inbound.tables.js';

/** SQL of purchase orders and their lines (the header is locked, and line quantities added to, through document.repository.ts). */

export type PoRow = Selectable<PoTable>;
export type PoLineRow = Selectable<PoLineTable>;

export async function poLines(db: Kysely<DB>, poId: number): Promise<PoLineRow[]> {
  return db.selectFrom('po_line').selectAll().where('po_id', '=', poId).orderBy('line_no').execute();
}

export async function insertPo(trx: Transaction<DB>, values: Insertable<PoTable>): Promise<PoRow> {
  return trx.insertInto('po').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertPoLines(trx: Transaction<DB>, values: Insertable<PoLineTable>[]): Promise<void> {
  if (values.length > 0) await trx.insertInto('po_line').values(values).execute();
}

export async function setPoStatus(trx: Transaction<DB>, id: number, status: PoStatus, by: string): Promise<void> {
  await trx.updateTable('po').set({ status, updated_at: new Date(), updated_by: by }).where('id', '=', id).execute();
}
