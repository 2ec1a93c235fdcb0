import { sql, type Kysely } from 'kysely';
import type { PagedAnswer, StandardBalanceRow, TransactionLogRow as SharedTransactionLogRow } from '../../../common/inventory-api.js';
import { joinSkuLotLocation, skuLotLocationJoins } from '../../db/item-joins.js';
import type { DB } from '../../db/schema.js';
import { whereInScope } from '../../db/scoped-rows.js';

/** Read-only SQL of the inventory queries: transaction log and the standard balance as of a date. */

export interface TransactionLogFilter {
  projectId: number;
  warehouseId: number;
  /** A trans type, or 'all'. */
  transType: string;
  from: Date;
  to: Date;
  skuCode?: string;
  locationCode?: string;
  orderNo?: string;
  ownerCode?: string;
  lotNo?: string;
  lpn?: string;
}

/** A ledger row as the transaction log lists it; its time a Date until it is sent. */
export type TransactionLogRow = SharedTransactionLogRow<Date>;

function transactionLogQuery(db: Kysely<DB>, f: TransactionLogFilter) {
  let query = db
    .selectFrom('inventory_transaction as t')
    .innerJoin('owner as o', 'o.id', 't.owner_id')
    .$call((q) => joinSkuLotLocation(q, 't'))
    .select([
      't.id',
      't.trans_type',
      't.trans_status',
      't.order_no',
      't.reference_line',
      't.trans_time',
      't.operator',
      'o.code as owner_code',
      's.code as sku_code',
      's.description as sku_description',
      'l.lot_no',
      't.trace_id',
      'loc.code as location_code',
      't.lpn',
      't.qty',
      't.held_change',
      't.before_qty',
      't.after_qty',
      sql<string | null>`coalesce(t.uom, s.base_uom)`.as('uom'),
      't.reason',
      't.description',
    ])
    .$call((q) => whereInScope(q, 't', f))
    .where('t.trans_time', '>=', f.from)
    .where('t.trans_time', '<', f.to);
  if (f.transType !== 'all') query = query.where('t.trans_type', '=', f.transType);
  if (f.skuCode) query = query.where('s.code', '=', f.skuCode);
  if (f.locationCode) query = query.where('loc.code', '=', f.locationCode);
  if (f.orderNo) query = query.where('t.order_no', '=', f.orderNo);
  if (f.ownerCode) query = query.where('o.code', '=', f.ownerCode);
  if (f.lotNo) query = query.where('l.lot_no', '=', f.lotNo);
  if (f.lpn) query = query.where('t.lpn', '=', f.lpn);
  return query;
}

export async function transactionLogPage(db: Kysely<DB>, f: TransactionLogFilter, page: number, pageSize: number): Promise<PagedAnswer<TransactionLogRow>> {
  const rows = await transactionLogQuery(db, f)
    .orderBy('t.trans_time')
    .orderBy('t.id')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const total = await transactionLogQuery(db, f)
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows: rows.map((r) => ({ ...r, id: Number(r.id) })), total: Number(total.n) };
}

/** Every matching ledger row, batch by batch (keyset paging on id), for the streamed export. */
export async function* transactionLogBatches(db: Kysely<DB>, f: TransactionLogFilter, batchSize = 1000): AsyncGenerator<TransactionLogRow[]> {
  let after = 0;
  for (;;) {
    const rows = await transactionLogQuery(db, f).where('t.id', '>', after).orderBy('t.id').limit(batchSize).execute();
    if (rows.length === 0) return;
    yield rows.map((r) => ({ ...r, id: Number(r.id) }));
    after = Number(rows[rows.length - 1].id);
    if (rows.length < batchSize) return;
  }
}

/** A system parameter: the organization's value, else the global one. */
export async function systemParam(db: Kysely<DB>, organizationId: number | null, code: string): Promise<string | null> {
  const rows = await db
    .selectFrom('sys_param')
    .select(['organization_id', 'param_value'])
    .where('param_code', '=', code)
    .where((eb) => (organizationId === null ? eb('organization_id', 'is', null) : eb.or([eb('organization_id', 'is', null), eb('organization_id', '=', organizationId)])))
    .execute();
  const own = rows.find((r) => r.organization_id !== null);
  return (own ?? rows[0])?.param_value ?? null;
}

export async function warehouseTimeZone(db: Kysely<DB>, warehouseId: number): Promise<string> {
  return (await db.selectFrom('warehouse').select('time_zone').where('id', '=', warehouseId).executeTakeFirst())?.time_zone ?? 'UTC';
}

export interface StandardBalanceFilter {
  projectId: number;
  warehouseId: number;
  /** The end of the day asked for: ledger rows after it are taken back off today's balance. */
  asOf: Date;
  skuCode?: string;
  ownerCode?: string;
  locationCode?: string;
}

/**
 * The standard balance as of a past moment, computed from the ledger: each balance key's on-hand
 * (and held) today less the ledger rows written after that moment. Keys with nothing then are left out.
 */
export async function standardBalance(db: Kysely<DB>, f: StandardBalanceFilter, limit: number, offset: number): Promise<PagedAnswer<StandardBalanceRow>> {
  const filters = sql.join(
    [
      sql`b.project_id = ${f.projectId}`,
      sql`b.warehouse_id = ${f.warehouseId}`,
      ...(f.skuCode ? [sql`s.code = ${f.skuCode}`] : []),
      ...(f.ownerCode ? [sql`o.code = ${f.ownerCode}`] : []),
      ...(f.locationCode ? [sql`loc.code = ${f.locationCode}`] : []),
    ],
    sql` and `,
  );
  const base = sql`
    with later as (
      select balance_id, sum(qty) as qty, sum(held_change) as held
      from inventory_transaction
      where project_id = ${f.projectId} and warehouse_id = ${f.warehouseId} and trans_time > ${f.asOf}
      group by balance_id
    )
    select o.code as owner_code, s.code as sku_code, s.description as sku_description, s.base_uom as uom,
           l.lot_no, loc.code as location_code, b.lpn,
           (b.on_hand_qty - coalesce(later.qty, 0))::text as qty,
           (b.held_qty - coalesce(later.held, 0))::text as held_qty
    from inventory_balance b
    left join later on later.balance_id = b.id
    join owner o on o.id = b.owner_id
    ${skuLotLocationJoins('b')}
    where ${filters} and b.on_hand_qty - coalesce(later.qty, 0) <> 0`;
  const rows = await sql<StandardBalanceRow>`${base} order by o.code, s.code, loc.code, l.lot_no, b.lpn limit ${limit} offset ${offset}`.execute(db);
  const total = await sql<{ n: string }>`select count(*) as n from (${base}) x`.execute(db);
  return { rows: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
}

/** The moment a calendar day ends in a time zone (the start of the next day there). */
export async function endOfDay(db: Kysely<DB>, date: string, timeZone: string): Promise<Date> {
  const result = await sql<{ at: Date }>`select ((${date}::date + 1)::timestamp at time zone ${timeZone}) as at`.execute(db);
  return new Date(result.rows[0].at);
}

/** The moment a calendar day starts in a time zone. */
export async function startOfDay(db: Kysely<DB>, date: string, timeZone: string): Promise<Date> {
  const result = await sql<{ at: Date }>`select (${date}::date::timestamp at time zone ${timeZone}) as at`.execute(db);
  return new Date(result.rows[0].at);
}
