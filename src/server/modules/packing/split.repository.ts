import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { CartonRow } from './packing.repository.js';
import './packing.tables.js';

/** The split scan's own SQL: a carton found by the number on its label. */

/** The carton of the scope's project and warehouse with this number, or undefined. */
export async function findCartonByNo(db: Kysely<DB> | Transaction<DB>, scope: { projectId: number; warehouseId: number }, cartonNo: string): Promise<CartonRow | undefined> {
  return db.selectFrom('carton').selectAll().where('carton_no', '=', cartonNo).where('project_id', '=', scope.projectId).where('warehouse_id', '=', scope.warehouseId).executeTakeFirst();
}

/** The lots of these ids with their numbers. */
export async function lotNumbers(db: Kysely<DB> | Transaction<DB>, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('lot').select(['id', 'lot_no']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [Number(r.id), r.lot_no]));
}
