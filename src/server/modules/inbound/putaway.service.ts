import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { ConfirmPutawayAnswer, PutawayTask } from '../../../common/inbound-api.js';
import type { DB } from '../../db/schema.js';
import { applyStockChanges, type BalanceKey, type StockChange, type StockReference } from '../inventory/index.js';
import { lockedAsn, refreshStatus } from './asn-progress.js';
import { PUTAWAY_ALLOWED } from './asn-status.js';
import { lockAsnLines } from './asn.repository.js';
import { addToLineQty } from './document.repository.js';
import { dec, now, stockScope, type Actor, type Scope } from './inbound.common.js';
import { findLocationByCode } from './lookups.repository.js';
import * as repo from './putaway.repository.js';
import { lockReceiptLine, updateReceiptLine } from './receiving.repository.js';

/**
 * Putaway: the tasks that receiving makes, the location each one suggests, and their confirmation
 * on the handheld, which moves the stock through the inventory service and the ASN along its
 * statuses.
 */

export interface Suggestion {
  locationId: number;
  /** Which rule suggested it: held, last, sameSku, itemType, project, pick or empty (the warehouse's next empty location). */
  rule: string;
}

/**
 * The location logic, for the tasks of a whole receipt at once, in this order (the first that
 * answers wins): held stock goes to an empty QC or damage location; otherwise 1. last location
 * (where this SKU was last put away in the warehouse), 2. same SKU (an active storage or pick
 * location already holding it), 3. item type (an empty storage location in a zone holding stock of
 * the project's SKUs of the same SKU group), 4. project location (an empty storage location in a
 * zone where the project keeps stock), 5. pick face (an empty pick location), 6. warehouse location
 * (the next empty storage location of the warehouse in pick-path order). The last and same-SKU
 * rules are read by SKU in one query each; the empty locations are handed out one per task (a
 * location suggested to an open task, or to another task of the receipt, is not suggested again).
 * Nothing found leaves the task without a suggestion: the operator scans any location.
 */
export async function suggestLocations(db: Kysely<DB>, actor: Scope, wanted: readonly { skuId: number; allHeld: boolean }[]): Promise<(Suggestion | undefined)[]> {
  const skuIds = [...new Set(wanted.filter((w) => !w.allHeld).map((w) => w.skuId))];
  const [last, same] = await Promise.all([repo.lastPutawayLocations(db, actor, skuIds), repo.sameSkuLocations(db, actor, skuIds, ['storage', 'pick'])]);
  const open = wanted.filter((w) => !w.allHeld && !last.has(w.skuId) && !same.has(w.skuId));
  const needEmpty = open.length;
  const needQc = wanted.filter((w) => w.allHeld).length;
  const typeZones = await repo.itemTypeZones(db, actor, [...new Set(open.map((w) => w.skuId))]);
  const ownZones = needEmpty > 0 ? await repo.projectZones(db, actor) : [];
  const zoned = await repo.emptyLocationsInZones(db, actor.warehouseId, [...new Set([...ownZones, ...[...typeZones.values()].flat()])], needEmpty);
  const pick = await repo.nextEmptyLocations(db, actor.warehouseId, ['pick'], needEmpty);
  const storage = await repo.nextEmptyLocations(db, actor.warehouseId, ['storage'], needEmpty + zoned.length);
  const qc = await repo.nextEmptyLocations(db, actor.warehouseId, ['qc', 'damage'], needQc);
  const used = new Set<number>();
  const take = (ids: number[], rule: string): Suggestion | undefined => {
    const id = ids.find((candidate) => !used.has(candidate));
    if (id === undefined) return undefined;
    used.add(id);
    return { locationId: id, rule };
  };
  const inZones = (zones: readonly string[] | undefined, rule: string) => take(zoned.filter((l) => zones?.includes(l.zone)).map((l) => l.id), rule);
  return wanted.map((w) => {
    if (w.allHeld) return take(qc, 'held');
    const lastId = last.get(w.skuId);
    if (lastId !== undefined) return { locationId: lastId, rule: 'last' };
    const sameId = same.get(w.skuId);
    if (sameId !== undefined) return { locationId: sameId, rule: 'sameSku' };
    return inZones(typeZones.get(w.skuId), 'itemType') ?? inZones(ownZones, 'project') ?? take(pick, 'pick') ?? take(storage, 'empty');
  });
}

/** What a putaway task moves: the stock of a receipt line, from where it was received. */
export interface TaskInput {
  receiptLineId: number;
  asnId: number;
  ownerId: number;
  skuId: number;
  lotId: number;
  fromLocationId: number;
  lpn: string;
  qty: Decimal;
  held: Decimal;
}

/** Open putaway tasks with their suggested locations, one per input, in one insert; answers their ids in order. */
export async function createPutawayTasks(trx: Transaction<DB>, actor: Actor, inputs: readonly TaskInput[]): Promise<{ id: number }[]> {
  const suggestions = await suggestLocations(
    trx,
    actor,
    inputs.map((t) => ({ skuId: t.skuId, allHeld: t.held.equals(t.qty) })),
  );
  return repo.insertPutawayTasks(
    trx,
    inputs.map((t, i) => ({
      project_id: actor.projectId,
      warehouse_id: actor.warehouseId,
      receipt_line_id: t.receiptLineId,
      asn_id: t.asnId,
      owner_id: t.ownerId,
      sku_id: t.skuId,
      lot_id: t.lotId,
      from_location_id: t.fromLocationId,
      lpn: t.lpn,
      qty: t.qty.toString(),
      held_qty: t.held.toString(),
      suggested_location_id: suggestions[i]?.locationId ?? null,
      suggestion_rule: suggestions[i]?.rule ?? null,
      created_by: actor.login,
      updated_by: actor.login,
    })),
  );
}

export interface ConfirmPutawayInput {
  taskId: number;
  locationCode: string;
  /** The LPN (or pallet/carton id) scanned; must be the task's when the task has one. */
  lpn?: string | null;
  /** Required when the location is not the suggested one. */
  reason?: string | null;
  /** Part of the task (above 0, not above its qty); the whole task when absent. */
  qty?: Decimal.Value | null;
}

/**
 * Confirms a putaway task: the scanned location must exist; another location than the suggested
 * one needs a reason; the stock moves from the receiving location to it (held stock stays held) and
 * the ASN moves to partial putaway or putaway. A quantity below the task's puts away that part: the
 * rest stays an open task (available stock goes first, then held), and the ASN stays partial
 * putaway until all of it is put away.
 */
export async function confirmPutaway(trx: Transaction<DB>, actor: Actor, input: ConfirmPutawayInput): Promise<ConfirmPutawayAnswer> {
  const probe = await repo.lockPutawayTask(trx, actor, input.taskId);
  if (!probe) throw new AppError('NO_RECORD');
  const asn = await lockedAsn(trx, actor, probe.asn_id);
  const task = (await repo.lockPutawayTask(trx, actor, input.taskId))!;
  if (task.status !== 'open') throw new AppError('ORDER_STATUS_ERROR', { status: task.status });
  if (!(PUTAWAY_ALLOWED as readonly string[]).includes(asn.status)) throw new AppError('ORDER_STATUS_ERROR', { status: asn.status });
  const taskQty = dec(task.qty);
  const qty = input.qty === undefined || input.qty === null || input.qty === '' ? taskQty : dec(input.qty);
  if (!qty.greaterThan(0)) throw new AppError('QTY_NOT_POSITIVE', {}, [{ field: 'qty', code: 'QTY_NOT_POSITIVE' }]);
  if (qty.greaterThan(taskQty)) throw new AppError('PUTAWAY_QTY_ABOVE_TASK', { qty: taskQty.toString() }, [{ field: 'qty', code: 'PUTAWAY_QTY_ABOVE_TASK' }]);
  const code = input.locationCode?.trim() ?? '';
  if (code === '') throw new AppError('LOCATION_REQUIRED');
  const location = await findLocationByCode(trx, actor.warehouseId, code);
  if (!location || location.status === 'inactive') throw new AppError('LOCATION_NOT_FOUND', { location: code });
  const scanned = input.lpn?.trim() ?? '';
  if (task.lpn !== '' && scanned !== task.lpn) throw new AppError('LPN_MISMATCH', { lpn: scanned });
  const reason = input.reason?.trim() || null;
  if (task.suggested_location_id !== null && location.id !== task.suggested_location_id && !reason) throw new AppError('PUTAWAY_REASON_REQUIRED');
  const receiptLine = (await lockReceiptLine(trx, actor, task.receipt_line_id))!;
  const [asnLine] = await lockAsnLines(trx, asn.id, [receiptLine.asn_line_id]);
  const from: BalanceKey = { ownerId: task.owner_id, skuId: task.sku_id, lotId: task.lot_id, locationId: task.from_location_id, lpn: task.lpn };
  const taskHeld = dec(task.held_qty);
  const free = Decimal.min(qty, taskQty.minus(taskHeld));
  const held = qty.minus(free);
  const reference = { type: 'ASN', orderNo: asn.asn_no, line: asnLine.line_no };
  if (location.id !== task.from_location_id) {
    const changes: StockChange[] = [];
    if (free.greaterThan(0)) changes.push(...moveChanges(from, location.id, free, false, reference, reason));
    if (held.greaterThan(0)) changes.push(...moveChanges(from, location.id, held, true, reference, reason));
    await applyStockChanges(trx, stockScope(actor), changes);
  }
  const confirmed = { status: 'done', to_location_id: location.id, reason, confirmed_at: now(), updated_at: now(), updated_by: actor.login };
  let doneTaskId = task.id;
  if (qty.lessThan(taskQty)) {
    // The part put away is recorded as a done task; the open task keeps the rest.
    const { id: _id, created_at: _c, updated_at: _u, ...rest } = task;
    doneTaskId = (await repo.insertPutawayTask(trx, { ...rest, ...confirmed, qty: qty.toString(), held_qty: held.toString(), created_by: actor.login })).id;
    await repo.updatePutawayTask(trx, task.id, { qty: taskQty.minus(qty).toString(), held_qty: taskHeld.minus(held).toString(), updated_at: now(), updated_by: actor.login });
  } else {
    await repo.updatePutawayTask(trx, task.id, confirmed);
  }
  const putaway = dec(receiptLine.putaway_qty).plus(qty);
  await updateReceiptLine(trx, receiptLine.id, {
    putaway_qty: putaway.toString(),
    status: putaway.greaterThanOrEqualTo(receiptLine.qty) ? 'putaway' : 'open',
    updated_at: now(),
    updated_by: actor.login,
  });
  await addToLineQty(trx, 'asn', 'putaway_qty', receiptLine.asn_line_id, qty.toString(), actor.login);
  const status = await refreshStatus(trx, asn, actor);
  return { taskId: task.id, doneTaskId, qty: qty.toString(), left: taskQty.minus(qty).toString(), locationCode: location.code, status, asnNo: asn.asn_no, asnLineNo: asnLine.line_no };
}

/** The two ledger changes of moving stock (held stock stays held) to another location, as `moveStock` writes them. */
function moveChanges(from: BalanceKey, toLocationId: number, qty: Decimal, withHeld: boolean, reference: StockReference, reason: string | null): StockChange[] {
  const to: BalanceKey = { ...from, locationId: toLocationId };
  return [
    { key: from, transType: 'putaway', onHand: qty.negated(), ...(withHeld ? { held: qty.negated() } : {}), reference, reason },
    { key: to, transType: 'putaway', onHand: qty, ...(withHeld ? { held: qty } : {}), reference, reason },
  ];
}

export async function putawayTasks(db: Kysely<DB>, actor: Scope): Promise<PutawayTask[]> {
  return repo.openPutawayTasks(db, actor);
}

/** The open task of a scanned LPN, pallet or carton id. */
export async function findTaskByScan(db: Kysely<DB>, actor: Scope, code: string): Promise<number> {
  const task = await repo.findOpenTaskByLpnOrCarton(db, actor, code.trim());
  if (!task) throw new AppError('NO_RECORD');
  return task.id;
}
