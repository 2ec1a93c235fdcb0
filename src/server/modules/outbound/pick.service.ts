import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { gtinForms, readBarcode } from '../masterdata/index.js';
import { AppError } from '../../../common/errors.js';
import type { ConfirmPickAnswer, PickTasksAnswer } from '../../../common/outbound-api.js';
import type { DB } from '../../db/schema.js';
import { findInScope, lockInScope } from '../../db/scoped-rows.js';
import { applyStockChanges, availableOf, balanceById, holdStock, pickStock, unpickStock, type BalanceKey, type StockScope } from '../inventory/index.js';
import { findOrder, linesOfOrders, lockOrders, setOrderStatus, type SoHeaderRow } from './outbound.repository.js';
import { allocateOrders } from './outbound.service.js';
import { assertTransition, statusFromLines, type SoStatus } from './so-status.js';
import {
  changeAllocation,
  changeLineQuantities,
  findLocationByCode,
  firstStageLocation,
  listPickTasks,
  locationCode,
  lockAllocationRecord,
  lockTask,
  openTaskIds,
  ordersOfWave,
  pickListRows,
  skuMatches,
  updateTask,
  type PickListRow,
  type PickTaskRow,
} from './wave.repository.js';
import { refreshWaveStatus } from './open-tasks.js';
import { reportShortHold, type PickContext } from './short-pick.service.js';
import { createPickTasks } from './wave.service.js';

/**
 * Picking: pick tasks by wave or order, grouped by zone and sorted by
 * location sequence; confirming a task moves allocated stock to picked through the inventory
 * service (to the staging location, on the scanned LPN or tote); a short pick gives the rest of
 * the task back to available, or, when asked, looks for it elsewhere (re-allocation of the line
 * with the short stock held); unpick puts picked stock back, allocated again. The order's status
 * follows its lines through the status table, the wave's follows its tasks.
 */

export async function pickTasks(db: Kysely<DB>, scope: StockScope, by: { waveId?: number | null; soId?: number | null; openOnly?: boolean }): Promise<PickTasksAnswer> {
  const tasks = await listPickTasks(db, scope.projectId, scope.warehouseId, by);
  const zones: PickTasksAnswer['zones'] = [];
  for (const task of tasks) {
    const zone = task.zone ?? '';
    const last = zones.at(-1);
    if (last && last.zone === zone) last.tasks.push(task);
    else zones.push({ zone, tasks: [task] });
  }
  return { tasks, zones };
}

/** /so/pick: makes the pick tasks of allocated orders that have none yet, and answers their tasks. */
export async function orderPickTasks(trx: Transaction<DB>, scope: StockScope, soId: number) {
  const [header] = await lockOrders(trx, scope.projectId, [soId]);
  if (!header) throw new AppError('NO_RECORD');
  if (Number(header.warehouse_id) !== scope.warehouseId) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
  const wave = header.wave_id ? await findInScope(trx, 'wave', { projectId: scope.projectId }, { column: 'wave_no', value: header.wave_id }) : undefined;
  const created = await createPickTasks(trx, scope, [soId], wave ? Number(wave.id) : null);
  return { created, ...(await pickTasks(trx, scope, { soId })) };
}

async function statusOfOrder(trx: Transaction<DB>, header: SoHeaderRow, by: string): Promise<SoStatus> {
  const next = statusFromLines(await linesOfOrders(trx, [Number(header.id)]));
  assertTransition(header.order_no, header.status, next);
  if (next !== header.status) await setOrderStatus(trx, Number(header.id), next, by);
  return next;
}

async function afterTaskChange(trx: Transaction<DB>, scope: StockScope, header: SoHeaderRow, task: PickTaskRow) {
  const orderStatus = await statusOfOrder(trx, header, scope.operator);
  let waveStatus: string | null = null;
  if (task.wave_id) {
    const wave = await lockInScope(trx, 'wave', { projectId: scope.projectId }, Number(task.wave_id));
    if (wave) waveStatus = await refreshWaveStatus(trx, wave, scope.operator);
  }
  return { orderStatus, waveStatus };
}

/** Locks the task's order, then the task: the same order as allocation (order first, then stock). */
async function lockTaskAndOrder(trx: Transaction<DB>, scope: StockScope, taskId: number): Promise<{ task: PickTaskRow; header: SoHeaderRow }> {
  const seen = await findInScope(trx, 'pick_task', { projectId: scope.projectId }, taskId);
  if (!seen) throw new AppError('NO_RECORD');
  if (Number(seen.warehouse_id) !== scope.warehouseId) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
  const [header] = await lockOrders(trx, scope.projectId, [Number(seen.so_id)]);
  const task = await lockTask(trx, taskId);
  if (!header || !task) throw new AppError('NO_RECORD');
  return { task, header };
}

function keyOf(task: PickTaskRow): BalanceKey {
  return { ownerId: Number(task.owner_id), skuId: Number(task.sku_id), lotId: Number(task.lot_id), locationId: Number(task.location_id), lpn: task.lpn };
}

/** The codes a scanned SKU barcode may stand for: as scanned, and the GTIN forms of the code a scan names (a GS1 label's GTIN). */
export function skuCodesOf(scanned: string): string[] {
  const text = scanned.trim();
  const codes = new Set<string>([text]);
  const read = readBarcode(text);
  if (read.ok) for (const form of gtinForms(read.code)) codes.add(form);
  return [...codes].filter((c) => c !== '');
}

export interface ConfirmPickInput {
  taskId: number;
  /** The location scanned: must be the task's. */
  locationCode: string;
  /** The SKU code, UPC/EAN or GS1 barcode scanned. */
  sku: string;
  qty: Decimal.Value;
  /** The LPN or tote the picked stock goes on. */
  toLpn?: string | null;
  /** Where the picked stock goes; the warehouse's first staging location when absent, else it stays at the pick location on the tote. */
  toLocationCode?: string | null;
  /** A short pick: the rest of the task is given back to available, with this reason. */
  shortReason?: string | null;
  /** With a short pick: look for the rest elsewhere (re-allocate the line, the short stock held) instead of only giving it back. */
  reallocate?: boolean;
}

/** What a short pick's search elsewhere answers: what was found, and what was held at the short location. */
type FoundElsewhere = Pick<ConfirmPickAnswer, 'reallocatedQty' | 'newTaskIds' | 'heldQty' | 'held' | 'heldMessage'>;

/**
 * "Find it elsewhere" after a short pick (short pick, remaining qty unallocated or
 * re-allocated). The rest has already been given back from the short balance row; what is still
 * available there is put on hold with the short reason, since the picker did not find it, so that
 * the re-allocation cannot take the same stock again. Then the line alone is allocated by its rule
 * and pick tasks are made for what was found, on the task's wave; what is not found stays
 * unallocated. A hold is never silent: a count of the location settles it, the supervisors are
 * told and the picker's answer says what was held (`reportShortHold`).
 */
async function findRestElsewhere(trx: Transaction<DB>, scope: StockScope, context: PickContext, header: SoHeaderRow, task: PickTaskRow, reason: string): Promise<FoundElsewhere> {
  const balance = await balanceById(trx, scope, Number(task.balance_id));
  const doubtful = balance ? availableOf(balance) : new Decimal(0);
  if (doubtful.greaterThan(0)) await holdStock(trx, scope, { key: keyOf(task), qty: doubtful, reason, reference: { type: 'so', orderNo: header.order_no } });
  const before = new Set(await openTaskIds(trx, Number(header.id)));
  const allocation = await allocateOrders(trx, scope, [Number(header.id)], [Number(task.so_line_id)]);
  await createPickTasks(trx, scope, [Number(header.id)], task.wave_id === null ? null : Number(task.wave_id));
  const newTaskIds = (await openTaskIds(trx, Number(header.id))).filter((id) => !before.has(id));
  // Last, after every stock lock of the allocation: the count takes its ticket's locks after them.
  const report = doubtful.greaterThan(0) ? await reportShortHold(trx, scope, context, { header, task, key: keyOf(task), qty: doubtful, reason }) : null;
  return { reallocatedQty: allocation.allocated, newTaskIds, heldQty: doubtful.toString(), held: report?.held ?? null, heldMessage: report?.message ?? null };
}

/** Order statuses in which a task may be picked: neither past picking nor ended (a new order holds nothing, so the record check refuses its tasks). */
const PICKABLE: readonly SoStatus[] = ['new', 'partial_allocated', 'allocated', 'partial_picked'];

/**
 * Whether the locked task may still be picked: it is open (else PICK_TASK_CLOSED), its order is
 * in a status that picks (else ORDER_STATUS_ERROR), and its line still holds at least what the task
 * has left at the task's balance row (else PICK_TASK_STALE: the order was unallocated or allocated
 * elsewhere since the task was made). The record is locked, so nothing changes it until commit.
 */
async function assertTaskPickable(trx: Transaction<DB>, task: PickTaskRow, header: SoHeaderRow): Promise<void> {
  if (task.status !== 'open') throw new AppError('PICK_TASK_CLOSED');
  if (!PICKABLE.includes(header.status as SoStatus)) throw new AppError('ORDER_STATUS_ERROR', { orderNo: header.order_no, status: header.status });
  const held = await lockAllocationRecord(trx, Number(task.so_line_id), Number(task.balance_id));
  const left = new Decimal(task.qty).minus(task.picked_qty);
  if (held === undefined || new Decimal(held).lessThan(left)) throw new AppError('PICK_TASK_STALE');
}

/**
 * Confirms a pick task (or a short pick of it). Picking more than the task still holds is refused
 * with nothing changed (OVER_PICK); so is a task that no longer matches its order's allocation.
 * `context` carries the bus and the picker's language of a short pick's exception flow.
 */
export async function confirmPick(trx: Transaction<DB>, scope: StockScope, input: ConfirmPickInput, context: PickContext = {}): Promise<ConfirmPickAnswer> {
  const { task, header } = await lockTaskAndOrder(trx, scope, input.taskId);
  await assertTaskPickable(trx, task, header);
  const location = await locationCode(trx, Number(task.location_id));
  if (input.locationCode.trim() !== location) throw new AppError('PICK_WRONG_LOCATION', { location });
  if (!(await skuMatches(trx, Number(task.sku_id), skuCodesOf(input.sku)))) throw new AppError('INVALID_SKU');
  const qty = new Decimal(input.qty);
  const short = Boolean(input.shortReason?.trim());
  if (input.reallocate && !short) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'shortReason', code: 'FIELD_REQUIRED' }]);
  if (!qty.isFinite() || qty.isNegative() || (qty.isZero() && !short)) throw new AppError('QTY_NOT_POSITIVE');
  const left = new Decimal(task.qty).minus(task.picked_qty);
  if (qty.greaterThan(left)) throw new AppError('OVER_PICK', { qty: left.toString() });

  const reference = { type: 'so', orderNo: header.order_no };
  const allocationRow = { project_id: scope.projectId, warehouse_id: scope.warehouseId, so_id: Number(task.so_id), so_line_id: Number(task.so_line_id), balance_id: Number(task.balance_id) };
  let toLocationId: number | null = null;
  const toLpn = input.toLpn?.trim() || '';
  if (qty.greaterThan(0)) {
    const target = input.toLocationCode?.trim() ? await findLocationByCode(trx, scope.warehouseId, input.toLocationCode.trim()) : await firstStageLocation(trx, scope.warehouseId);
    if (input.toLocationCode?.trim() && !target) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'toLocationCode', code: 'FIELD_FOREIGN' }]);
    toLocationId = target ? target.id : Number(task.location_id);
    if (toLocationId === Number(task.location_id) && toLpn === task.lpn) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'toLpn', code: 'FIELD_REQUIRED' }]);
    await pickStock(trx, scope, { from: keyOf(task), toLocationId, toLpn, qty, reference });
    await changeAllocation(trx, allocationRow, qty.negated().toString());
    await changeLineQuantities(trx, Number(task.so_line_id), qty.negated().toString(), qty.toString(), scope.operator);
  }
  const rest = left.minus(qty);
  if (short && rest.greaterThan(0)) {
    await applyStockChanges(trx, scope, [{ key: keyOf(task), transType: 'unallocate', allocated: rest.negated(), reference, reason: input.shortReason!.trim() }]);
    await changeAllocation(trx, allocationRow, rest.negated().toString());
    await changeLineQuantities(trx, Number(task.so_line_id), rest.negated().toString(), '0', scope.operator);
  }
  const picked = new Decimal(task.picked_qty).plus(qty);
  const status: PickTaskRow['status'] = rest.isZero() ? 'picked' : short ? 'short' : 'open';
  await updateTask(
    trx,
    Number(task.id),
    {
      picked_qty: picked.toString(),
      status,
      ...(toLocationId !== null ? { to_location_id: toLocationId, to_lpn: toLpn } : {}),
      reason: short ? input.shortReason!.trim() : task.reason,
      picked_at: new Date(),
    },
    scope.operator,
  );
  let found: FoundElsewhere = { reallocatedQty: '0', newTaskIds: [], heldQty: '0', held: null, heldMessage: null };
  let after = header;
  if (short && rest.greaterThan(0) && input.reallocate) {
    found = await findRestElsewhere(trx, scope, context, header, task, input.shortReason!.trim());
    // The allocation wrote the order's status: follow from what it is now.
    after = (await findOrder(trx, Number(header.id))) ?? header;
  }
  return { taskStatus: status, pickedQty: picked.toString(), shortQty: short ? rest.toString() : '0', ...found, ...(await afterTaskChange(trx, scope, after, task)) };
}

/** Unpick: what the task picked goes back to its location, allocated to the line again; the task is open again. */
export async function unpickTask(trx: Transaction<DB>, scope: StockScope, taskId: number) {
  const { task, header } = await lockTaskAndOrder(trx, scope, taskId);
  const picked = new Decimal(task.picked_qty);
  if (!picked.greaterThan(0) || task.to_location_id === null) throw new AppError('NO_PICKED_STOCK');
  if (header.status !== 'partial_picked' && header.status !== 'picked') throw new AppError('ORDER_STATUS_ERROR', { orderNo: header.order_no, status: header.status });
  await unpickStock(trx, scope, {
    from: { ownerId: Number(task.owner_id), skuId: Number(task.sku_id), lotId: Number(task.lot_id), locationId: Number(task.to_location_id), lpn: task.to_lpn ?? '' },
    toLocationId: Number(task.location_id),
    toLpn: task.lpn,
    qty: picked,
    reallocate: true,
    reference: { type: 'so', orderNo: header.order_no },
  });
  await changeAllocation(trx, { project_id: scope.projectId, warehouse_id: scope.warehouseId, so_id: Number(task.so_id), so_line_id: Number(task.so_line_id), balance_id: Number(task.balance_id) }, picked.toString());
  await changeLineQuantities(trx, Number(task.so_line_id), picked.toString(), picked.negated().toString(), scope.operator);
  // A shorted (or ended) task keeps only what was picked: its rest was given back when it ended.
  const qty = task.status === 'open' || task.status === 'picked' ? new Decimal(task.qty) : picked;
  await updateTask(trx, Number(task.id), { qty: qty.toString(), picked_qty: '0', status: 'open', to_location_id: null, to_lpn: null, reason: null, picked_at: null }, scope.operator);
  return { taskStatus: 'open', ...(await afterTaskChange(trx, scope, header, task)) };
}

/**
 * The pick list of a wave or an order (printing rules): only after allocation;
 * before, refused with "allocate first" (PRINT_NOT_ALLOWED).
 */
export async function pickListOf(db: Kysely<DB>, scope: StockScope, by: { waveId?: number | null; soId?: number | null }): Promise<{ title: string; rows: PickListRow[] }> {
  let soIds: number[];
  let title: string;
  if (by.waveId) {
    const wave = await findInScope(db, 'wave', { projectId: scope.projectId }, by.waveId);
    if (!wave) throw new AppError('NO_RECORD');
    if (Number(wave.warehouse_id) !== scope.warehouseId) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
    // A wave is allocated by its release: before it, its pick list is refused.
    if (wave.status === 'new' || wave.status === 'cancelled') throw new AppError('PRINT_NOT_ALLOWED');
    soIds = (await ordersOfWave(db, scope.projectId, wave.wave_no)).map((o) => o.id);
    title = wave.wave_no;
  } else if (by.soId) {
    const header = await findInScope(db, 'so_header', { projectId: scope.projectId }, by.soId);
    if (!header) throw new AppError('NO_RECORD');
    if (Number(header.warehouse_id) !== scope.warehouseId) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
    soIds = [Number(header.id)];
    title = header.order_no;
  } else {
    throw new AppError('VALIDATION_FAILED', {}, [{ field: 'waveId', code: 'FIELD_REQUIRED' }]);
  }
  const rows = await pickListRows(db, soIds);
  if (rows.length === 0) throw new AppError('PRINT_NOT_ALLOWED');
  return { title, rows };
}
