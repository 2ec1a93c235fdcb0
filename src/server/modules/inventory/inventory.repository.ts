import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { AvailableBalance } from '../../../common/inventory-api.js';
import { DEFERRED } from '../../db/pipeline.js';
import type { DB } from '../../db/schema.js';
import type { InventoryBalanceTable, InventoryTransactionTable, LotTable } from './inventory.tables.js';

/** The inventory area's SQL: the only queries that touch lots, balances and the ledger. */

export type BalanceRow = Selectable<InventoryBalanceTable>;
export type LotRow = Selectable<LotTable>;

/** The key of a balance row within its project: warehouse, owner, SKU, lot, location and LPN ('' for loose stock). */
export interface BalanceKeyColumns {
  warehouse_id: number;
  owner_id: number;
  sku_id: number;
  lot_id: number;
  location_id: number;
  lpn: string;
}

export interface BalanceKeyRow extends BalanceKeyColumns {
  project_id: number;
}

/** A balance row's key and quantities. */
export interface BalanceQuantityRow extends BalanceKeyColumns {
  id: number;
  on_hand_qty: string;
  allocated_qty: string;
  picked_qty: string;
  held_qty: string;
}

const CHUNK = 1000;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The keys as one array per column, for `unnest`: one statement whatever the number of keys. */
function keyArrays(keys: readonly BalanceKeyRow[]) {
  return sql`unnest(
    ${keys.map((k) => k.project_id)}::bigint[], ${keys.map((k) => k.warehouse_id)}::bigint[], ${keys.map((k) => k.owner_id)}::bigint[],
    ${keys.map((k) => k.sku_id)}::bigint[], ${keys.map((k) => k.lot_id)}::bigint[], ${keys.map((k) => k.location_id)}::bigint[],
    ${keys.map((k) => k.lpn)}::text[])`;
}

/** Creates the balance rows that do not exist yet (zero quantities), keys in the order given. */
export async function insertMissingBalances(trx: Transaction<DB>, keys: readonly BalanceKeyRow[]): Promise<void> {
  for (const part of chunks(keys, 5000)) {
    await sql`
      insert into inventory_balance (project_id, warehouse_id, owner_id, sku_id, lot_id, location_id, lpn)
      select * from ${keyArrays(part)}
      on conflict on constraint inventory_balance_key do nothing`.execute(trx);
  }
}

/**
 * Locks the balance rows of these keys, in one deterministic order (warehouse, owner, SKU, lot,
 * location, LPN): two transactions touching the same rows always queue instead of deadlocking.
 * The keys come sorted in that order, so chunks lock in that order too.
 */
export async function lockBalances(trx: Transaction<DB>, keys: readonly BalanceKeyRow[]): Promise<BalanceRow[]> {
  const rows: BalanceRow[] = [];
  for (const part of chunks(keys, 5000)) {
    const result = await sql<BalanceRow>`
      select b.* from inventory_balance b
      join ${keyArrays(part)} as k(project_id, warehouse_id, owner_id, sku_id, lot_id, location_id, lpn)
        on b.warehouse_id = k.warehouse_id and b.owner_id = k.owner_id and b.sku_id = k.sku_id
       and b.lot_id = k.lot_id and b.location_id = k.location_id and b.lpn = k.lpn
      order by b.warehouse_id, b.owner_id, b.sku_id, b.lot_id, b.location_id, b.lpn
      for update of b`.execute(trx);
    rows.push(...result.rows);
  }
  return rows;
}

/**
 * `insertMissingBalances` and `lockBalances` in one statement, for a few keys: the growing keys'
 * missing rows are created (zero quantities) and every key's row is locked, the existing ones in the
 * order of `lockBalances`. A row another transaction created after this statement's snapshot is not
 * seen by it: the keys left without a row are locked again by `lockBalances` (a new snapshot).
 */
export async function lockOrCreateBalances(trx: Transaction<DB>, keys: readonly BalanceKeyRow[], growing: ReadonlySet<BalanceKeyRow>): Promise<BalanceRow[]> {
  if (keys.length === 0) return [];
  const grow = keys.filter((k) => growing.has(k));
  const result = await sql<BalanceRow>`
    with lk as (
      select b.* from inventory_balance b
      join ${keyArrays(keys)} as k(project_id, warehouse_id, owner_id, sku_id, lot_id, location_id, lpn)
        on b.warehouse_id = k.warehouse_id and b.owner_id = k.owner_id and b.sku_id = k.sku_id
       and b.lot_id = k.lot_id and b.location_id = k.location_id and b.lpn = k.lpn
      order by b.warehouse_id, b.owner_id, b.sku_id, b.lot_id, b.location_id, b.lpn
      for update of b
    )${grow.length === 0 ? sql`` : sql`, ins as (
      insert into inventory_balance (project_id, warehouse_id, owner_id, sku_id, lot_id, location_id, lpn)
      select * from ${keyArrays(grow)}
      on conflict on constraint inventory_balance_key do nothing
      returning *
    )`}
    select * from lk${grow.length === 0 ? sql`` : sql` union all select * from ins`}`.execute(trx);
  const rows = result.rows;
  const found = new Set(rows.map((r) => balanceKeyText(r)));
  const missing = keys.filter((k) => !found.has(balanceKeyText(k)));
  return missing.length === 0 ? rows : [...rows, ...(await lockBalances(trx, missing))];
}

function balanceKeyText(k: BalanceKeyColumns): string {
  return [k.warehouse_id, k.owner_id, k.sku_id, k.lot_id, k.location_id, k.lpn].map(String).join('\u0000');
}

/**
 * `updateBalances` and `insertLedgerRows` in one statement, for a few rows: the balances get their
 * new quantities and the ledger its rows (the same columns in every row) in the same transaction;
 * the ledger ids come back in the order given.
 */
export async function writeBalancesWithLedger(
  trx: Transaction<DB>,
  updates: readonly BalanceUpdate[],
  rows: readonly Insertable<InventoryTransactionTable>[],
  options: { deferred?: boolean } = {},
): Promise<number[]> {
  if (rows.length === 0) {
    await updateBalances(trx, updates);
    return [];
  }
  const columns = Object.keys(rows[0]);
  const list = sql.join(columns.map((c) => sql.id(c)));
  const result = await sql<{ id: number }>`
    with upd as (
      ${balanceUpdate(updates)}
      returning b.id
    )
    insert into inventory_transaction (${list})
    select ${list} from jsonb_populate_recordset(null::inventory_transaction, ${JSON.stringify(rows)}::jsonb) with ordinality as r
    order by r.ordinality
    ${options.deferred ? DEFERRED : sql`returning id`}`.execute(trx);
  // Deferred (`DEFERRED`): sent without waiting, no ids come back.
  return result.rows.map((r) => Number(r.id));
}

export interface BalanceUpdate {
  id: number;
  on_hand_qty: string;
  allocated_qty: string;
  picked_qty: string;
  held_qty: string;
  inbound: boolean;
  outbound: boolean;
}

/** The update that writes the new quantities of these balance rows (one statement, whatever their number). */
function balanceUpdate(updates: readonly BalanceUpdate[]) {
  return sql`
      update inventory_balance b set
        on_hand_qty = v.on_hand, allocated_qty = v.allocated, picked_qty = v.picked, held_qty = v.held,
        last_inbound_at = case when v.inbound then now() else b.last_inbound_at end,
        last_outbound_at = case when v.outbound then now() else b.last_outbound_at end,
        updated_at = now()
      from unnest(${updates.map((u) => u.id)}::bigint[], ${updates.map((u) => u.on_hand_qty)}::numeric[], ${updates.map((u) => u.allocated_qty)}::numeric[],
                  ${updates.map((u) => u.picked_qty)}::numeric[], ${updates.map((u) => u.held_qty)}::numeric[],
                  ${updates.map((u) => u.inbound)}::boolean[], ${updates.map((u) => u.outbound)}::boolean[])
        as v(id, on_hand, allocated, picked, held, inbound, outbound)
      where b.id = v.id`;
}

/** Writes the new quantities of locked balance rows, many rows per statement. */
export async function updateBalances(trx: Transaction<DB>, updates: readonly BalanceUpdate[]): Promise<void> {
  for (const part of chunks(updates, 5000)) {
    await sql`${balanceUpdate(part)}`.execute(trx);
  }
}

export async function insertLedgerRows(trx: Transaction<DB>, rows: readonly Insertable<InventoryTransactionTable>[]): Promise<number[]> {
  const ids: number[] = [];
  for (const part of chunks(rows, 500)) {
    const inserted = await trx.insertInto('inventory_transaction').values(part).returning('id').execute();
    ids.push(...inserted.map((r) => Number(r.id)));
  }
  return ids;
}

export type LotInsert = Omit<Insertable<LotTable>, 'attribute_key'> & { attribute_key: string };

/** The lot with these attributes for this owner and SKU, created when new. */
export async function findOrCreateLot(trx: Transaction<DB>, lot: LotInsert): Promise<LotRow> {
  const created = await trx
    .insertInto('lot')
    .values(lot)
    .onConflict((oc) => oc.constraint('lot_attributes').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (created) return created;
  return trx
    .selectFrom('lot')
    .selectAll()
    .where('owner_id', '=', lot.owner_id)
    .where('sku_id', '=', lot.sku_id)
    .where('attribute_key', '=', lot.attribute_key)
    .executeTakeFirstOrThrow();
}

/** `findOrCreateLot` for many lots at once (one insert and one read per 500), answered in the order given. */
export async function findOrCreateLots(trx: Transaction<DB>, lots: readonly LotInsert[]): Promise<LotRow[]> {
  const found = new Map<string, LotRow>();
  const keyOf = (l: { owner_id: number; sku_id: number; attribute_key: string }) => `${l.owner_id}|${l.sku_id}|${l.attribute_key}`;
  for (const part of chunks(lots, 500)) {
    await trx.insertInto('lot').values([...part]).onConflict((oc) => oc.constraint('lot_attributes').doNothing()).execute();
    const rows = await trx
      .selectFrom('lot')
      .selectAll()
      .where('sku_id', 'in', [...new Set(part.map((l) => l.sku_id))])
      .where('attribute_key', 'in', [...new Set(part.map((l) => l.attribute_key))])
      .execute();
    for (const row of rows) found.set(keyOf(row), row);
  }
  return lots.map((l) => {
    const row = found.get(keyOf(l));
    if (!row) throw new Error(`lot of sku ${l.sku_id} not found after insert`);
    return row;
  });
}


/** A balance row with stock available to allocate, with what allocation weighs of its lot and location. */
export interface AvailableStockRow extends BalanceKeyColumns, AvailableBalance {
  /** On-hand of the whole LPN in its location (every SKU and lot on it); null for loose stock. */
  lpn_on_hand: string | null;
  pick_seq: number | null;
  /** When the lot was received, in seconds since 1970. */
  received_at: number;
}

const AVAILABLE_QTY = sql`(b.on_hand_qty - b.allocated_qty - b.picked_qty - b.held_qty)`;

/**
 * The balance rows of the warehouse with stock available for these owners' SKUs, in active storage
 * or pick locations (held, in-transit and staged stock is never offered), without expired lots when
 * `notExpired`. Driven by the (owner, SKU) pairs in key order through the balance key, whatever the
 * statistics say. With `lock`, each pair's rows are locked in the key order of `lockBalances`, so
 * two allocations of the same stock queue instead of deadlocking, and the rows come in that order;
 * without, best first by expiry, location sequence and location.
 */
export async function availableStockRows(
  db: Kysely<DB>,
  warehouseId: number,
  pairs: ReadonlyArray<{ ownerId: number; skuId: number }>,
  options: { lock: boolean; notExpired: boolean },
): Promise<AvailableStockRow[]> {
  if (pairs.length === 0) return [];
  const result = await sql<AvailableStockRow>`
    with wanted as materialized (
      select distinct w.owner_id, w.sku_id
        from unnest(${pairs.map((p) => p.ownerId)}::bigint[], ${pairs.map((p) => p.skuId)}::bigint[]) as w(owner_id, sku_id)
       order by w.owner_id, w.sku_id
    )
    select b.*, l.lot_no, l.expiry_date::text as expiry_date, (l.expiry_date - current_date) as days_left, l.udf1, l.udf2, l.udf3,
           extract(epoch from l.received_at)::float8 as received_at
      from wanted w
      cross join lateral (
        select b.id as balance_id, b.warehouse_id, b.owner_id, b.sku_id, b.lot_id, b.location_id, b.lpn,
               ${AVAILABLE_QTY}::text as available, b.on_hand_qty::text as on_hand,
               case when b.lpn <> '' then (select sum(p.on_hand_qty) from inventory_balance p
                                            where p.location_id = b.location_id and p.lpn = b.lpn and p.lpn <> '' and p.warehouse_id = b.warehouse_id)::text end as lpn_on_hand,
               loc.location_type, loc.code as location_code, loc.pick_seq
          from inventory_balance b
          join location loc on loc.id = b.location_id
         where b.warehouse_id = ${warehouseId} and b.owner_id = w.owner_id and b.sku_id = w.sku_id
           and ${AVAILABLE_QTY} > 0
           and loc.status = 'active' and loc.location_type in ('storage', 'pick')
           ${options.notExpired ? sql`and not exists (select 1 from lot x where x.id = b.lot_id and x.expiry_date < current_date)` : sql``}
         order by b.lot_id, b.location_id, b.lpn
         ${options.lock ? sql`for update of b` : sql``}
      ) b
      join lot l on l.id = b.lot_id
     ${options.lock ? sql`` : sql`order by l.expiry_date nulls last, b.pick_seq nulls last, b.location_code, b.balance_id`}`.execute(db);
  return result.rows.map((r) => ({
    ...r,
    balance_id: Number(r.balance_id),
    warehouse_id: Number(r.warehouse_id),
    owner_id: Number(r.owner_id),
    sku_id: Number(r.sku_id),
    lot_id: Number(r.lot_id),
    location_id: Number(r.location_id),
    pick_seq: r.pick_seq === null ? null : Number(r.pick_seq),
    days_left: r.days_left === null ? null : Number(r.days_left),
    received_at: Number(r.received_at),
  }));
}

/** For each balance of a project: its quantities and the sums of its ledger rows (the invariant check). */
export async function ledgerAgreement(db: Kysely<DB>, projectId?: number) {
  let query = db
    .selectFrom('inventory_balance as b')
    .leftJoin('inventory_transaction as t', 't.balance_id', 'b.id')
    .select((eb) => [
      'b.id',
      'b.on_hand_qty',
      'b.allocated_qty',
      'b.picked_qty',
      'b.held_qty',
      sql<string>`coalesce(sum(t.qty), 0)`.as('ledger_on_hand'),
      sql<string>`coalesce(sum(t.allocated_change), 0)`.as('ledger_allocated'),
      sql<string>`coalesce(sum(t.picked_change), 0)`.as('ledger_picked'),
      sql<string>`coalesce(sum(t.held_change), 0)`.as('ledger_held'),
      eb.fn.count<number>('t.id').as('ledger_rows'),
    ])
    .groupBy('b.id');
  if (projectId !== undefined) query = query.where('b.project_id', '=', projectId);
  return query.execute();
}
