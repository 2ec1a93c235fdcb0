import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import './outbound.tables.js';

/** What billing reads of the outbound area, read only: an owner's orders entered in a time range. */

export interface BillableOrder {
  id: number;
  orderNo: string;
  status: string;
  createdAt: Date;
  lineCount: number;
  qty: string;
}

/** The owner's sales orders of the project entered in [from, until), leaving out cancelled and deleted ones; oldest first. */
export async function billableOrders(db: Kysely<DB>, input: { projectId: number; ownerId: number; from: Date; until: Date }): Promise<BillableOrder[]> {
  const rows = await db
    .selectFrom('so_header as h')
    .leftJoin('so_line as l', 'l.so_id', 'h.id')
    .select(['h.id', 'h.order_no', 'h.status', 'h.created_at'])
    .select([sql<string>`count(l.id)::text`.as('line_count'), sql<string>`coalesce(sum(l.qty), 0)::text`.as('qty')])
    .where('h.project_id', '=', input.projectId)
    .where('h.owner_id', '=', input.ownerId)
    .where('h.status', 'not in', ['cancelled', 'deleted'])
    .where('h.created_at', '>=', input.from)
    .where('h.created_at', '<', input.until)
    .groupBy(['h.id', 'h.order_no', 'h.status', 'h.created_at'])
    .orderBy('h.id')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), orderNo: r.order_no, status: r.status, createdAt: r.created_at, lineCount: Number(r.line_count), qty: r.qty }));
}
