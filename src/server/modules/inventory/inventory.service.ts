import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { LotAttributes } from '../../../common/inventory-api.js';
import type { DB } from '../../db/schema.js';
import { findInScope } from '../../db/scoped-rows.js';
import {
  availableStockRows,
  findOrCreateLot,
  findOrCreateLots,
  insertLedgerRows,
  insertMissingBalances,
  lockBalances,
  lockOrCreateBalances,
  updateBalances,
  writeBalancesWithLedger,
  type AvailableStockRow,
  type BalanceKeyRow,
  type BalanceRow,
  type BalanceUpdate,
  type LotRow,
} from './inventory.repository.js';

/**
 * The inventory service (docs/architecture.md): every change of stock in the product goes through
 * `applyStockChanges`, which locks the balance rows in one deterministic order, checks that nothing
 * goes negative and that allocated + picked + held stays within on-hand, writes the new balances
 * and one ledger row per change, all in the caller's transaction. The operations below (receive,
 * move, adjust, hold, allocate, pick, ship...) are the only ways other areas change stock.
 * Callers open the transaction with `inTransaction`, which retries serialization failures and
 * deadlocks.
 */

export type TransType =
  | 'receive'
  | 'putaway'
  | 'move'
  | 'adjust'
  | 'hold'
  | 'release'
  | 'transfer_out'
  | 'transfer_in'
  | 'count'
  | 'allocate'
  | 'unallocate'
  | 'pick'
  | 'unpick'
  | 'ship';

export interface StockScope {
  projectId: number;
  warehouseId: number;
  /** Who did it: the login account, written to the ledger. */
  operator: string;
}

export interface BalanceKey {
  ownerId: number;
  skuId: number;
  lotId: number;
  locationId: number;
  /** Licence plate; '' or absent for loose stock. */
  lpn?: string;
  /** Another warehouse of the same project (transfers); the scope's warehouse when absent. */
  warehouseId?: number;
}

export interface StockReference {
  type: string;
  orderNo: string;
  line?: number;
}

export interface StockChange {
  key: BalanceKey;
  transType: TransType;
  onHand?: Decimal.Value;
  allocated?: Decimal.Value;
  picked?: Decimal.Value;
  held?: Decimal.Value;
  reference?: StockReference;
  reason?: string | null;
  uom?: string | null;
  description?: string | null;
  traceId?: string | null;
}

export interface AppliedChange {
  balanceId: number;
  ledgerId: number;
  before: BalanceRow;
  after: Pick<BalanceRow, 'on_hand_qty' | 'allocated_qty' | 'picked_qty' | 'held_qty'>;
}

const ZERO = new Decimal(0);

function keyRow(scope: StockScope, key: BalanceKey): BalanceKeyRow {
  return {
    project_id: scope.projectId,
    warehouse_id: key.warehouseId ?? scope.warehouseId,
    owner_id: key.ownerId,
    sku_id: key.skuId,
    lot_id: key.lotId,
    location_id: key.locationId,
    lpn: key.lpn ?? '',
  };
}

function keyText(k: Omit<BalanceKeyRow, 'project_id'>): string {
  return `${k.warehouse_id}|${k.owner_id}|${k.sku_id}|${k.lot_id}|${k.location_id}|${k.lpn}`;
}

function compareKeys(a: BalanceKeyRow, b: BalanceKeyRow): number {
  for (const field of ['warehouse_id', 'owner_id', 'sku_id', 'lot_id', 'location_id'] as const) {
    if (a[field] !== b[field]) return a[field] - b[field];
  }
  return a.lpn < b.lpn ? -1 : a.lpn > b.lpn ? 1 : 0;
}

function dec(value: Decimal.Value | undefined): Decimal {
  return value === undefined ? ZERO : new Decimal(value);
}

/** Available to allocate, move or subtract: on-hand less what is allocated, picked or held. */
export function availableOf(row: Pick<BalanceRow, 'on_hand_qty' | 'allocated_qty' | 'picked_qty' | 'held_qty'>): Decimal {
  return new Decimal(row.on_hand_qty).minus(row.allocated_qty).minus(row.picked_qty).minus(row.held_qty);
}

/** Up to this many changes are written in two statements (lock, then balances with ledger). */
const FEW_CHANGES = 50;

/**
 * Applies the changes in one go: locks every balance row touched (creating missing ones), checks
 * the guards on the totals of each row, writes balances and ledger. Refuses with
 * INSUFFICIENT_INVENTORY (nothing written) when a row would go negative or over-committed.
 */
export async function applyStockChanges(trx: Transaction<DB>, scope: StockScope, changes: readonly StockChange[]): Promise<AppliedChange[]> {
  return writeStockChanges(trx, scope, changes, false);
}

/**
 * `applyStockChanges` for a caller that needs nothing of the written rows (a scan): the balance rows
 * are locked and checked alike, and a few changes' balances and ledger rows are written by one
 * statement sent without waiting for its answer (`DEFERRED`, docs/packing.md "Speed"), answered
 * with the transaction's next statement or its commit, which fails with that statement's error.
 */
export async function sendStockChanges(trx: Transaction<DB>, scope: StockScope, changes: readonly StockChange[]): Promise<void> {
  await writeStockChanges(trx, scope, changes, true);
}

async function writeStockChanges(trx: Transaction<DB>, scope: StockScope, changes: readonly StockChange[], deferred: boolean): Promise<AppliedChange[]> {
  if (changes.length === 0) return [];
  const keyed = changes.map((change) => ({ change, key: keyRow(scope, change.key) }));
  const distinct = new Map<string, BalanceKeyRow>();
  for (const { key } of keyed) distinct.set(keyText(key), key);
  const sorted = [...distinct.values()].sort(compareKeys);
  const growingKeys = new Set(keyed.filter(({ change }) => dec(change.onHand).greaterThan(0)).map(({ key }) => keyText(key)));
  const growing = sorted.filter((key) => growingKeys.has(keyText(key)));
  // A few keys (a scan, a move) are created and locked in one statement, a batch in one per chunk.
  const few = keyed.length <= FEW_CHANGES;
  if (growing.length > 0 && !few) await insertMissingBalances(trx, growing);
  const locked = new Map((few ? await lockOrCreateBalances(trx, sorted, new Set(growing)) : await lockBalances(trx, sorted)).map((row) => [keyText(row), row]));

  interface Running {
    row: BalanceRow;
    onHand: Decimal;
    allocated: Decimal;
    picked: Decimal;
    held: Decimal;
    inbound: boolean;
    outbound: boolean;
  }
  const running = new Map<string, Running>();
  const ledger: Parameters<typeof insertLedgerRows>[1][number][] = [];
  const applied: Omit<AppliedChange, 'ledgerId'>[] = [];
  for (const { change, key } of keyed) {
    const text = keyText(key);
    const row = locked.get(text);
    if (!row) throw new AppError('INSUFFICIENT_INVENTORY', { qty: dec(change.onHand).abs().toString() });
    let state = running.get(text);
    if (!state) {
      state = {
        row,
        onHand: new Decimal(row.on_hand_qty),
        allocated: new Decimal(row.allocated_qty),
        picked: new Decimal(row.picked_qty),
        held: new Decimal(row.held_qty),
        inbound: false,
        outbound: false,
      };
      running.set(text, state);
    }
    const before = { ...row, on_hand_qty: state.onHand.toString(), allocated_qty: state.allocated.toString(), picked_qty: state.picked.toString(), held_qty: state.held.toString() };
    const onHand = dec(change.onHand);
    state.onHand = state.onHand.plus(onHand);
    state.allocated = state.allocated.plus(dec(change.allocated));
    state.picked = state.picked.plus(dec(change.picked));
    state.held = state.held.plus(dec(change.held));
    if (onHand.greaterThan(0)) state.inbound = true;
    if (onHand.lessThan(0)) state.outbound = true;
    const committed = state.allocated.plus(state.picked).plus(state.held);
    if (state.onHand.isNegative() || state.allocated.isNegative() || state.picked.isNegative() || state.held.isNegative() || committed.greaterThan(state.onHand)) {
      throw new AppError('INSUFFICIENT_INVENTORY', { qty: availableOf(before).toString() });
    }
    ledger.push({
      project_id: scope.projectId,
      warehouse_id: key.warehouse_id,
      balance_id: row.id,
      trans_type: change.transType,
      reference_type: change.reference?.type ?? null,
      order_no: change.reference?.orderNo ?? null,
      reference_line: change.reference?.line ?? null,
      operator: scope.operator,
      owner_id: key.owner_id,
      sku_id: key.sku_id,
      lot_id: key.lot_id,
      location_id: key.location_id,
      lpn: key.lpn,
      trace_id: change.traceId ?? null,
      qty: onHand.toString(),
      allocated_change: dec(change.allocated).toString(),
      picked_change: dec(change.picked).toString(),
      held_change: dec(change.held).toString(),
      before_qty: before.on_hand_qty,
      after_qty: state.onHand.toString(),
      uom: change.uom ?? null,
      reason: change.reason ?? null,
      description: change.description ?? null,
    });
    applied.push({
      balanceId: row.id,
      before,
      after: { on_hand_qty: state.onHand.toString(), allocated_qty: state.allocated.toString(), picked_qty: state.picked.toString(), held_qty: state.held.toString() },
    });
  }
  const updates: BalanceUpdate[] = [...running.values()].map((s) => ({
    id: s.row.id,
    on_hand_qty: s.onHand.toString(),
    allocated_qty: s.allocated.toString(),
    picked_qty: s.picked.toString(),
    held_qty: s.held.toString(),
    inbound: s.inbound,
    outbound: s.outbound,
  }));
  let ids: number[];
  if (few && deferred) {
    await writeBalancesWithLedger(trx, updates, ledger, { deferred: true });
    return [];
  }
  if (few) ids = await writeBalancesWithLedger(trx, updates, ledger);
  else {
    await updateBalances(trx, updates);
    ids = await insertLedgerRows(trx, ledger);
  }
  return applied.map((a, i) => ({ ...a, ledgerId: ids[i] }));
}

export type { LotAttributes };

const LOT_FIELDS = ['lotNo', 'manufactureDate', 'expiryDate', 'shelfDate', 'udf1', 'udf2', 'udf3', 'traceId', 'palletId', 'cartonId'] as const;

function lotInsert(scope: StockScope, ownerId: number, skuId: number, attributes: LotAttributes) {
  const clean = Object.fromEntries(LOT_FIELDS.map((f) => [f, attributes[f]?.toString().trim() || null])) as Record<(typeof LOT_FIELDS)[number], string | null>;
  return {
    project_id: scope.projectId,
    owner_id: ownerId,
    sku_id: skuId,
    ...(clean.lotNo ? { lot_no: clean.lotNo } : {}),
    manufacture_date: clean.manufactureDate,
    expiry_date: clean.expiryDate,
    shelf_date: clean.shelfDate,
    udf1: clean.udf1,
    udf2: clean.udf2,
    udf3: clean.udf3,
    trace_id: clean.traceId,
    pallet_id: clean.palletId,
    carton_id: clean.cartonId,
    attribute_key: JSON.stringify(LOT_FIELDS.map((f) => clean[f])),
    created_by: scope.operator,
    updated_by: scope.operator,
  };
}

/** The lot of these attributes for the owner and SKU: the same attributes always give the same lot. */
export async function lotFor(trx: Transaction<DB>, scope: StockScope, ownerId: number, skuId: number, attributes: LotAttributes): Promise<LotRow> {
  return findOrCreateLot(trx, lotInsert(scope, ownerId, skuId, attributes));
}

/** `lotFor` of many owner, SKU and attribute sets at once (a receipt of many lines), in the order given. */
export async function lotsFor(trx: Transaction<DB>, scope: StockScope, wanted: readonly { ownerId: number; skuId: number; attributes: LotAttributes }[]): Promise<LotRow[]> {
  const inserts = wanted.map((w) => lotInsert(scope, w.ownerId, w.skuId, w.attributes));
  const distinct = new Map(inserts.map((l) => [`${l.owner_id}|${l.sku_id}|${l.attribute_key}`, l]));
  const rows = await findOrCreateLots(trx, [...distinct.values()]);
  const byKey = new Map(rows.map((r) => [`${r.owner_id}|${r.sku_id}|${r.attribute_key}`, r]));
  return inserts.map((l) => byKey.get(`${l.owner_id}|${l.sku_id}|${l.attribute_key}`)!);
}

/** What a change may say besides its quantities: the document it belongs to, why, in which unit. */
export interface ChangeDetails {
  reference?: StockReference;
  reason?: string | null;
  uom?: string | null;
  description?: string | null;
}

function positive(qty: Decimal.Value): Decimal {
  const d = new Decimal(qty);
  if (!d.isFinite() || d.lessThanOrEqualTo(0)) throw new AppError('QTY_NOT_POSITIVE');
  return d;
}

/** Stock comes in (receipt): on-hand up; `heldQty` of it lands as held (damaged or on hold). */
export async function receiveStock(
  trx: Transaction<DB>,
  scope: StockScope,
  input: ChangeDetails & { key: BalanceKey; qty: Decimal.Value; heldQty?: Decimal.Value },
): Promise<AppliedChange> {
  const qty = positive(input.qty);
  const held = dec(input.heldQty);
  if (held.isNegative() || held.greaterThan(qty)) throw new AppError('INSUFFICIENT_INVENTORY', { qty: qty.toString() });
  const [applied] = await applyStockChanges(trx, scope, [{ ...input, transType: 'receive', onHand: qty, held }]);
  return applied;
}

/** Moves available stock (or, with `withHeld`, held stock keeping it held) to another location/LPN. */
export async function moveStock(
  trx: Transaction<DB>,
  scope: StockScope,
  input: ChangeDetails & { from: BalanceKey; toLocationId: number; toLpn?: string; qty: Decimal.Value; transType?: 'move' | 'putaway'; withHeld?: boolean },
): Promise<AppliedChange[]> {
  const qty = positive(input.qty);
  const to: BalanceKey = { ...input.from, locationId: input.toLocationId, lpn: input.toLpn ?? input.from.lpn ?? '' };
  const held = input.withHeld ? qty : ZERO;
  const transType = input.transType ?? 'move';
  return applyStockChanges(trx, scope, [
    { ...input, key: input.from, transType, onHand: qty.negated(), held: held.negated() },
    { ...input, key: to, transType, onHand: qty, held },
  ]);
}

/** Adds (qty > 0) or subtracts (qty < 0) stock; a subtraction takes only available stock. */
export async function adjustStock(
  trx: Transaction<DB>,
  scope: StockScope,
  input: ChangeDetails & { key: BalanceKey; qty: Decimal.Value; transType?: 'adjust' | 'count' },
): Promise<AppliedChange> {
  const qty = new Decimal(input.qty);
  if (qty.isZero()) throw new AppError('QTY_NOT_POSITIVE');
  const [applied] = await applyStockChanges(trx, scope, [{ ...input, transType: input.transType ?? 'adjust', onHand: qty }]);
  return applied;
}

/** Puts available stock on hold (qty > 0) or releases held stock (qty < 0). */
export async function holdStock(trx: Transaction<DB>, scope: StockScope, input: ChangeDetails & { key: BalanceKey; qty: Decimal.Value }): Promise<AppliedChange> {
  const qty = new Decimal(input.qty);
  if (qty.isZero()) throw new AppError('QTY_NOT_POSITIVE');
  const [applied] = await applyStockChanges(trx, scope, [{ ...input, transType: qty.isPositive() ? 'hold' : 'release', held: qty }]);
  return applied;
}

/** Outbound hook: reserves available stock of a balance row for an order line. */
export async function allocateStock(trx: Transaction<DB>, scope: StockScope, input: ChangeDetails & { key: BalanceKey; qty: Decimal.Value }): Promise<AppliedChange> {
  const [applied] = await applyStockChanges(trx, scope, [{ ...input, transType: 'allocate', allocated: positive(input.qty) }]);
  return applied;
}

/** Outbound hook: gives allocated stock back to available. */
export async function unallocateStock(trx: Transaction<DB>, scope: StockScope, input: ChangeDetails & { key: BalanceKey; qty: Decimal.Value }): Promise<AppliedChange> {
  const [applied] = await applyStockChanges(trx, scope, [{ ...input, transType: 'unallocate', allocated: positive(input.qty).negated() }]);
  return applied;
}

/**
 * Outbound hook: picks allocated stock from its location to a pick destination (staging
 * location, tote or LPN), where it is held as picked until shipped.
 */
export async function pickStock(
  trx: Transaction<DB>,
  scope: StockScope,
  input: ChangeDetails & { from: BalanceKey; toLocationId: number; toLpn?: string; qty: Decimal.Value },
): Promise<AppliedChange[]> {
  const qty = positive(input.qty);
  const to: BalanceKey = { ...input.from, locationId: input.toLocationId, lpn: input.toLpn ?? '' };
  return applyStockChanges(trx, scope, [
    { ...input, key: input.from, transType: 'pick', onHand: qty.negated(), allocated: qty.negated() },
    { ...input, key: to, transType: 'pick', onHand: qty, picked: qty },
  ]);
}

/** Outbound hook: puts picked stock back to a location, allocated again when `reallocate`. */
export async function unpickStock(
  trx: Transaction<DB>,
  scope: StockScope,
  input: ChangeDetails & { from: BalanceKey; toLocationId: number; toLpn?: string; qty: Decimal.Value; reallocate?: boolean },
): Promise<AppliedChange[]> {
  const qty = positive(input.qty);
  const to: BalanceKey = { ...input.from, locationId: input.toLocationId, lpn: input.toLpn ?? '' };
  return applyStockChanges(trx, scope, [
    { ...input, key: input.from, transType: 'unpick', onHand: qty.negated(), picked: qty.negated() },
    { ...input, key: to, transType: 'unpick', onHand: qty, allocated: input.reallocate ? qty : ZERO },
  ]);
}

/** Outbound hook: picked stock leaves the warehouse. */
export async function shipStock(trx: Transaction<DB>, scope: StockScope, input: ChangeDetails & { key: BalanceKey; qty: Decimal.Value }): Promise<AppliedChange> {
  const qty = positive(input.qty);
  const [applied] = await applyStockChanges(trx, scope, [{ ...input, transType: 'ship', onHand: qty.negated(), picked: qty.negated() }]);
  return applied;
}

/** The quantities of a balance row. */
export type BalanceQuantities = Pick<BalanceRow, 'on_hand_qty' | 'allocated_qty' | 'picked_qty' | 'held_qty'>;

/** A balance row of the project by its id, as it is now (not locked): what it holds and what is available of it. */
export async function balanceById(db: Kysely<DB>, scope: Pick<StockScope, 'projectId'>, balanceId: number): Promise<BalanceRow | undefined> {
  return findInScope(db, 'inventory_balance', { projectId: scope.projectId }, balanceId);
}

/**
 * The balance rows of these keys, locked until the transaction ends in the order
 * `applyStockChanges` locks in (rows that do not exist are left out): what a change computed from
 * them will find is what they hold now.
 */
export async function lockedBalances(trx: Transaction<DB>, scope: StockScope, keys: readonly BalanceKey[]): Promise<BalanceRow[]> {
  if (keys.length === 0) return [];
  const distinct = new Map<string, BalanceKeyRow>();
  for (const key of keys) {
    const row = keyRow(scope, key);
    distinct.set(keyText(row), row);
  }
  return lockBalances(trx, [...distinct.values()].sort(compareKeys));
}

/** A balance row offered to allocation: its key, what is available, and its lot and location. */
export type AvailableStock = AvailableStockRow;

/** Which stock is asked for: these owners' SKUs in one warehouse, without expired lots when `notExpired`. */
export interface StockWanted {
  warehouseId: number;
  pairs: ReadonlyArray<{ ownerId: number; skuId: number }>;
  notExpired?: boolean;
}

/**
 * The stock of the warehouse an order line may be allocated from (active storage or pick locations,
 * something available), best first by expiry and location sequence; for a list, nothing locked.
 */
export async function availableStock(db: Kysely<DB>, wanted: StockWanted): Promise<AvailableStock[]> {
  return availableStockRows(db, wanted.warehouseId, wanted.pairs, { lock: false, notExpired: wanted.notExpired ?? false });
}

/**
 * The same rows locked until the transaction ends, in the key order `applyStockChanges` locks in:
 * what an allocation reads is what is really left, and two allocations of the same stock queue
 * instead of deadlocking. The allocation then asks `applyStockChanges` for what it takes, which
 * checks it again.
 */
export async function lockAvailableStock(trx: Transaction<DB>, wanted: StockWanted): Promise<AvailableStock[]> {
  return availableStockRows(trx, wanted.warehouseId, wanted.pairs, { lock: true, notExpired: wanted.notExpired ?? false });
}

/**
 * What other areas may do with stock: the inventory area's public interface (its entry, index.ts,
 * exports it and these functions, never a repository function or a table). Inbound receives and
 * puts away, outbound allocates, picks and ships, through these operations in their own
 * transaction.
 */
export interface InventoryService {
  /** Applies any set of changes at once; the operations below are its common cases. */
  applyStockChanges(trx: Transaction<DB>, scope: StockScope, changes: readonly StockChange[]): Promise<AppliedChange[]>;
  /** The same, for a caller that needs nothing back: the write is answered with the transaction's next statement or its commit. */
  sendStockChanges(trx: Transaction<DB>, scope: StockScope, changes: readonly StockChange[]): Promise<void>;
  receiveStock(trx: Transaction<DB>, scope: StockScope, input: ChangeDetails & { key: BalanceKey; qty: Decimal.Value; heldQty?: Decimal.Value }): Promise<AppliedChange>;
  moveStock(
    trx: Transaction<DB>,
    scope: StockScope,
    input: ChangeDetails & { from: BalanceKey; toLocationId: number; toLpn?: string; qty: Decimal.Value; transType?: 'move' | 'putaway'; withHeld?: boolean },
  ): Promise<AppliedChange[]>;
  adjustStock(trx: Transaction<DB>, scope: StockScope, input: ChangeDetails & { key: BalanceKey; qty: Decimal.Value; transType?: 'adjust' | 'count' }): Promise<AppliedChange>;
  holdStock(trx: Transaction<DB>, scope: StockScope, input: ChangeDetails & { key: BalanceKey; qty: Decimal.Value }): Promise<AppliedChange>;
  allocateStock(trx: Transaction<DB>, scope: StockScope, input: ChangeDetails & { key: BalanceKey; qty: Decimal.Value }): Promise<AppliedChange>;
  unallocateStock(trx: Transaction<DB>, scope: StockScope, input: ChangeDetails & { key: BalanceKey; qty: Decimal.Value }): Promise<AppliedChange>;
  pickStock(trx: Transaction<DB>, scope: StockScope, input: ChangeDetails & { from: BalanceKey; toLocationId: number; toLpn?: string; qty: Decimal.Value }): Promise<AppliedChange[]>;
  unpickStock(
    trx: Transaction<DB>,
    scope: StockScope,
    input: ChangeDetails & { from: BalanceKey; toLocationId: number; toLpn?: string; qty: Decimal.Value; reallocate?: boolean },
  ): Promise<AppliedChange[]>;
  shipStock(trx: Transaction<DB>, scope: StockScope, input: ChangeDetails & { key: BalanceKey; qty: Decimal.Value }): Promise<AppliedChange>;
  /** Available to allocate, move or subtract of a balance row's quantities. */
  availableOf(row: BalanceQuantities): Decimal;
  balanceById(db: Kysely<DB>, scope: Pick<StockScope, 'projectId'>, balanceId: number): Promise<BalanceRow | undefined>;
  availableStock(db: Kysely<DB>, wanted: StockWanted): Promise<AvailableStock[]>;
  lockAvailableStock(trx: Transaction<DB>, wanted: StockWanted): Promise<AvailableStock[]>;
  lotFor(trx: Transaction<DB>, scope: StockScope, ownerId: number, skuId: number, attributes: LotAttributes): Promise<LotRow>;
  lotsFor(trx: Transaction<DB>, scope: StockScope, wanted: readonly { ownerId: number; skuId: number; attributes: LotAttributes }[]): Promise<LotRow[]>;
}

/** The inventory service: every function above, checked against the interface. */
export const inventoryService = {
  applyStockChanges,
  sendStockChanges,
  receiveStock,
  moveStock,
  adjustStock,
  holdStock,
  allocateStock,
  unallocateStock,
  pickStock,
  unpickStock,
  shipStock,
  availableOf,
  balanceById,
  availableStock,
  lockAvailableStock,
  lotFor,
  lotsFor,
} satisfies InventoryService;

export type { BalanceRow, LotRow };
