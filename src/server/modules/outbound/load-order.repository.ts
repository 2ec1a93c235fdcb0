import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { whereInScope } from '../../db/scoped-rows.js';
import { ordersOfPlace } from './so-documents.repository.js';
import './outbound.tables.js';

/** The SQL of what loading reads of orders: the orders of a wave, and order numbers and statuses. */

type Db = Kysely<DB> | Transaction<DB>;

export async function orderIdsOfWave(db: Db, scope: { projectId: number; warehouseId: number }, waveNo: string): Promise<number[]> {
  const rows = await db
    .selectFrom('so_header')
    .select('id')
    .$call((q) => whereInScope(q, 'so_header', scope))
    .where('wave_id', '=', waveNo)
    .orderBy('id')
    .execute();
  return rows.map((r) => Number(r.id));
}

export async function orderNosOf(db: Db, scope: { projectId: number; warehouseId: number }, soIds: readonly number[]): Promise<Map<number, { orderNo: string; status: string }>> {
  const rows = await ordersOfPlace(db, scope, { ids: soIds });
  return new Map(rows.map((r) => [r.id, { orderNo: r.order_no, status: r.status }]));
}
