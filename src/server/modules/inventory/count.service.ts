import Decimal from 'decimal.js';
import type { Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { findInScope, lockInScope } from '../../db/scoped-rows.js';
import { nextDocumentNumber } from '../masterdata/index.js';
import {
  insertTicket,
  insertTicketLines,
  lockLocationCount,
  openTicketAtLocation,
  stockAtLocation,
  stockToCount,
  ticketLines,
  updateLine,
  updatePlanRun,
  updateTicket,
  type CountLineRow,
  type CountTicketRow,
} from './count.repository.js';
import { documentScope, type DocumentActor } from './document.service.js';
import { notifyWarehouse } from './inventory.notices.js';
import { applyStockChanges, lockedBalances, type BalanceKey, type StockChange, type StockScope } from './inventory.service.js';

/**
 * Cycle count: a count order made from a plan of the count master (or by the
 * default count number of locations), counted blind (the counter never sees the system qty),
 * recounted where it differs, and approved: each variance becomes an adjustment ledger row of type
 * 'count' through the inventory service. A counted qty must be above 0: a zero typed by mistake
 * (an empty box, a slip of the finger) would write the whole line off. A location found empty is
 * recorded by its own explicit action (`countLinesEmpty`), which enters a true zero. Other areas raise a count of held stock with `countHeldStock` (a short
 * pick's hold), which the approval releases.
 */

/** How many locations a count created "by the default count number" covers. */
export const DEFAULT_COUNT_LOCATIONS = 20;

type StockToCount = Awaited<ReturnType<typeof stockToCount>>[number];

async function createTicket(trx: Transaction<DB>, actor: DocumentActor, planId: number | null, selection: Parameters<typeof stockToCount>[1]): Promise<{ ticketId: number; ticketNo: string; lines: number }> {
  const stock = await stockToCount(trx, selection);
  if (stock.length === 0) throw new AppError('NO_RECORD');
  return insertCountTicket(trx, documentScope(actor), planId, stock);
}

/** A new open ticket of these stock rows, one line each; `holdQty` says what a line's approval releases first. */
async function insertCountTicket(
  trx: Transaction<DB>,
  scope: StockScope,
  planId: number | null,
  stock: readonly StockToCount[],
  holdQty: (row: StockToCount) => string = () => '0',
): Promise<{ ticketId: number; ticketNo: string; lines: number }> {
  const ticketNo = await nextDocumentNumber(trx, 'CC', { warehouseId: scope.warehouseId, projectId: scope.projectId });
  const ticketId = await insertTicket(trx, {
    project_id: scope.projectId,
    warehouse_id: scope.warehouseId,
    ticket_no: ticketNo,
    plan_id: planId,
    created_by: scope.operator,
    updated_by: scope.operator,
  });
  await insertTicketLines(
    trx,
    stock.map((s, i) => ({
      project_id: scope.projectId,
      warehouse_id: scope.warehouseId,
      ticket_id: ticketId,
      line_no: i + 1,
      location_id: s.locationId,
      owner_id: s.ownerId,
      sku_id: s.skuId,
      lot_id: s.lotId,
      lpn: s.lpn,
      system_qty: s.onHand,
      hold_qty: holdQty(s),
      created_by: scope.operator,
      updated_by: scope.operator,
    })),
  );
  if (planId !== null) await updatePlanRun(trx, planId);
  return { ticketId, ticketNo, lines: stock.length };
}

/** `/cycleCountMaster/createCountOrder`: a count ticket from a plan of the count master. */
export async function createCountOrder(trx: Transaction<DB>, actor: DocumentActor, planId: number, options: { ignoreCommitted: boolean }) {
  const scope = documentScope(actor);
  const plan = await findInScope(trx, 'count_plan', scope, planId);
  if (!plan) throw new AppError('NO_RECORD');
  if (!plan.active) throw new AppError('ORDER_STATUS_ERROR', { status: 'inactive' });
  return createTicket(trx, actor, Number(plan.id), {
    warehouseId: scope.warehouseId,
    projectId: scope.projectId,
    zone: plan.zone,
    locationFrom: plan.location_from,
    locationTo: plan.location_to,
    skuId: plan.sku_id === null ? null : Number(plan.sku_id),
    abcClass: plan.abc_class,
    notCountedDays: plan.not_counted_days,
    maxLocations: plan.max_locations,
    ignoreCommitted: options.ignoreCommitted,
  });
}

/** "Create by the default count number": the locations counted longest ago, as many as asked (default 20). */
export async function createDefaultCount(trx: Transaction<DB>, actor: DocumentActor, locations: number | undefined) {
  const scope = documentScope(actor);
  return createTicket(trx, actor, null, {
    warehouseId: scope.warehouseId,
    projectId: scope.projectId,
    maxLocations: Math.min(Math.max(locations ?? DEFAULT_COUNT_LOCATIONS, 1), 10000),
    ignoreCommitted: true,
  });
}

interface KeyColumns {
  owner_id: number | string;
  sku_id: number | string;
  lot_id: number | string;
  location_id: number | string;
  lpn: string;
}

function keyOfLine(line: KeyColumns): BalanceKey {
  return { ownerId: Number(line.owner_id), skuId: Number(line.sku_id), lotId: Number(line.lot_id), locationId: Number(line.location_id), lpn: line.lpn };
}

function sameKey(a: BalanceKey, b: BalanceKey): boolean {
  return a.ownerId === b.ownerId && a.skuId === b.skuId && a.lotId === b.lotId && a.locationId === b.locationId && (a.lpn ?? '') === (b.lpn ?? '');
}

/**
 * A count that settles held stock. Stock put on hold because nobody could find it (a short pick
 * that looks for the rest elsewhere holds what is left at its location) is counted, and approving
 * the count releases that hold before the line's variance is applied: the counted quantity is
 * what stays, available again, and nothing of the hold is left behind. Runs in the caller's
 * transaction, after the hold.
 *
 * The location's stock gets a ticket of its own, unless an open or counted ticket of the project
 * already covers the location: a location is never on two such tickets, whose variances would both
 * be applied. Then the hold joins that ticket, and the balance row's line is counted again against
 * the stock as it is now (added when the ticket has none), since any count of it came before the
 * stock changed. No count verb is needed: the ticket follows from the caller's action.
 */
export async function countHeldStock(
  trx: Transaction<DB>,
  scope: StockScope,
  input: { key: BalanceKey; heldQty: Decimal.Value },
): Promise<{ ticketId: number; ticketNo: string; created: boolean }> {
  const held = new Decimal(input.heldQty);
  if (!held.isFinite() || held.lessThanOrEqualTo(0)) throw new AppError('QTY_NOT_POSITIVE');
  const key = { ...input.key, lpn: input.key.lpn ?? '' };
  await lockLocationCount(trx, key.locationId);
  const stock = await stockAtLocation(trx, scope.projectId, scope.warehouseId, key.locationId);
  const row = stock.find((s) => sameKey(s, key));
  if (!row || held.greaterThan(row.onHand)) throw new AppError('INSUFFICIENT_INVENTORY', { qty: row?.onHand ?? '0' });
  const openId = await openTicketAtLocation(trx, scope.projectId, scope.warehouseId, key.locationId);
  if (openId === undefined) {
    const made = await insertCountTicket(trx, scope, null, stock, (s) => (s === row ? held.toString() : '0'));
    return { ticketId: made.ticketId, ticketNo: made.ticketNo, created: true };
  }
  const ticket = await lockInScope(trx, 'count_ticket', scope, openId);
  if (!ticket) throw new AppError('NO_RECORD');
  const lines = await ticketLines(trx, openId);
  const line = lines.find((l) => sameKey(keyOfLine(l), key));
  if (line) {
    await updateLine(trx, Number(line.id), {
      hold_qty: held.plus(line.hold_qty).toString(),
      system_qty: row.onHand,
      counted_qty: null,
      recount_qty: null,
      counted_by: null,
      counted_at: null,
      status: 'open',
      updated_by: scope.operator,
    });
  } else {
    await insertTicketLines(trx, [
      {
        project_id: scope.projectId,
        warehouse_id: scope.warehouseId,
        ticket_id: openId,
        line_no: lines.reduce((max, l) => Math.max(max, l.line_no), 0) + 1,
        location_id: key.locationId,
        owner_id: key.ownerId,
        sku_id: key.skuId,
        lot_id: key.lotId,
        lpn: key.lpn,
        system_qty: row.onHand,
        hold_qty: held.toString(),
        created_by: scope.operator,
        updated_by: scope.operator,
      },
    ]);
  }
  if (ticket.status !== 'open') await updateTicket(trx, openId, { status: 'open', updated_by: scope.operator });
  return { ticketId: openId, ticketNo: ticket.ticket_no, created: false };
}

async function openTicket(trx: Transaction<DB>, actor: DocumentActor, ticketId: number): Promise<CountTicketRow> {
  const scope = documentScope(actor);
  const ticket = await lockInScope(trx, 'count_ticket', scope, ticketId);
  if (!ticket) throw new AppError('NO_RECORD');
  return ticket;
}

/** The ticket a count line belongs to, while counts may be entered (open or counted, not approved). */
export async function openTicketForLines(trx: Transaction<DB>, actor: DocumentActor, ticketId: number): Promise<CountTicketRow> {
  const ticket = await openTicket(trx, actor, ticketId);
  if (ticket.status !== 'open' && ticket.status !== 'counted') throw new AppError('ORDER_STATUS_ERROR', { status: ticket.status });
  return ticket;
}

function countedValue(value: unknown): Decimal {
  if (value === null || value === undefined || value === '') throw new AppError('VALIDATION_FAILED', {}, [{ field: 'counted_qty', code: 'FIELD_REQUIRED' }]);
  let qty: Decimal;
  try {
    qty = new Decimal(value as Decimal.Value);
  } catch {
    throw new AppError('VALIDATION_FAILED', {}, [{ field: 'counted_qty', code: 'FIELD_TYPE' }]);
  }
  if (!qty.isFinite() || qty.lessThanOrEqualTo(0)) throw new AppError('QTY_NOT_POSITIVE');
  return qty;
}

/** The final count of a line: the recount when there is one. */
function finalCount(line: Pick<CountLineRow, 'counted_qty' | 'recount_qty'>): Decimal | null {
  const value = line.recount_qty ?? line.counted_qty;
  return value === null ? null : new Decimal(value);
}

async function refreshTicketStatus(trx: Transaction<DB>, actor: DocumentActor, ticket: CountTicketRow, by: string): Promise<void> {
  const lines = await ticketLines(trx, Number(ticket.id));
  const done = lines.every((l) => l.status === 'counted');
  const status = done ? 'counted' : 'open';
  if (status !== ticket.status) await updateTicket(trx, Number(ticket.id), { status, updated_by: by });
  if (status === 'counted' && ticket.status !== 'counted') await noticeVariance(trx, actor, ticket, lines.filter((l) => !finalCount(l)?.equals(l.system_qty)).length);
}

/**
 * A ticket whose counting just finished with lines off the system qty awaits approval: the holders
 * of the count's approve verb in the warehouse are told, in the transaction of the last count, the
 * counter who finished it not.
 */
async function noticeVariance(trx: Transaction<DB>, actor: DocumentActor, ticket: CountTicketRow, varianceLines: number): Promise<void> {
  if (varianceLines === 0 || !actor.events) return;
  await notifyWarehouse(trx, actor.events, {
    warehouseId: Number(ticket.warehouse_id),
    projectId: Number(ticket.project_id),
    right: 'inventory.count:approve',
    exceptLogin: actor.user.loginAccount,
    category: 'approval',
    title: { key: 'inv.notice.countVariance' },
    body: { key: 'inv.notice.countVarianceBody' },
    params: { ticketNo: ticket.ticket_no, lines: varianceLines },
    link: `cycleCount?ticketNo=${encodeURIComponent(ticket.ticket_no)}`,
    by: actor.user.loginAccount,
  });
}

/** The writer's part of a count entry on the engine page: the count, or the recount of a line sent to recount. */
export async function checkCountEntry(trx: Transaction<DB>, actor: DocumentActor, ticket: CountTicketRow, old: Record<string, unknown>, values: Record<string, unknown>): Promise<void> {
  const by = actor.user.loginAccount;
  const recount = old.status === 'recount';
  const sent = recount ? (values.recount_qty ?? values.counted_qty) : values.counted_qty;
  const qty = countedValue(sent);
  for (const name of Object.keys(values)) delete values[name];
  if (recount) values.recount_qty = qty.toString();
  else values.counted_qty = qty.toString();
  values.status = 'counted';
  values.counted_by = by;
  values.counted_at = new Date();
  // The ticket's status follows once this line is written: every line counted makes it counted.
  await afterEntry(trx, actor, ticket, Number(old._key ?? old.id), qty, by);
}

async function afterEntry(trx: Transaction<DB>, actor: DocumentActor, ticket: CountTicketRow, lineId: number, qty: Decimal, by: string): Promise<void> {
  const lines = await ticketLines(trx, Number(ticket.id));
  const done = lines.every((l) => Number(l.id) === lineId || l.status === 'counted');
  const status = done ? 'counted' : 'open';
  if (status !== ticket.status) await updateTicket(trx, Number(ticket.id), { status, updated_by: by });
  if (status === 'counted' && ticket.status !== 'counted') {
    // The line being entered is written after this hook: its final count is the one entered now.
    const variances = lines.filter((l) => !(Number(l.id) === lineId ? qty : finalCount(l))?.equals(l.system_qty)).length;
    await noticeVariance(trx, actor, ticket, variances);
  }
}

/** The handheld's blind count entry: one line's count (or recount). */
export async function enterCount(trx: Transaction<DB>, actor: DocumentActor, lineId: number, qtyValue: unknown): Promise<void> {
  await recordCount(trx, actor, lineId, countedValue(qtyValue));
}

/**
 * "Location is empty": each of these lines is counted (or recounted) as a true zero. Lines of
 * several tickets are taken in id order; every ticket must still take counts.
 */
export async function countLinesEmpty(trx: Transaction<DB>, actor: DocumentActor, lineIds: readonly number[]): Promise<{ lines: number }> {
  const ids = [...new Set(lineIds)].sort((a, b) => a - b);
  for (const id of ids) await recordCount(trx, actor, id, new Decimal(0));
  return { lines: ids.length };
}

async function recordCount(trx: Transaction<DB>, actor: DocumentActor, lineId: number, qty: Decimal): Promise<void> {
  const scope = documentScope(actor);
  const line = await lockInScope(trx, 'count_ticket_line', scope, lineId);
  if (!line) throw new AppError('NO_RECORD');
  const ticket = await openTicketForLines(trx, actor, Number(line.ticket_id));
  if (line.status === 'approved') throw new AppError('ORDER_STATUS_ERROR', { status: line.status });
  const recount = line.status === 'recount';
  await updateLine(trx, Number(line.id), {
    ...(recount ? { recount_qty: qty.toString() } : { counted_qty: qty.toString() }),
    status: 'counted',
    counted_by: scope.operator,
    counted_at: new Date(),
    updated_by: scope.operator,
  });
  await refreshTicketStatus(trx, actor, ticket, scope.operator);
}

/** Recount: the counted lines whose count differs from the system qty are counted again. */
export async function recountTicket(trx: Transaction<DB>, actor: DocumentActor, ticketId: number): Promise<{ lines: number }> {
  const scope = documentScope(actor);
  const ticket = await openTicketForLines(trx, actor, ticketId);
  let lines = 0;
  for (const line of await ticketLines(trx, Number(ticket.id))) {
    const counted = finalCount(line);
    if (line.status === 'counted' && counted !== null && !counted.equals(line.system_qty)) {
      await updateLine(trx, Number(line.id), { status: 'recount', recount_qty: null, updated_by: scope.operator });
      lines++;
    }
  }
  if (lines > 0) await updateTicket(trx, Number(ticket.id), { status: 'open', updated_by: scope.operator });
  return { lines };
}

/**
 * Approval of a counted ticket: each line's variance (final count less the system qty taken when
 * the ticket was made) becomes one adjustment of type 'count' in the ledger, all in one go. A line
 * that settles held stock (`hold_qty`, see `countHeldStock`) first releases that hold, as much of
 * it as the balance row still holds, so that what was counted is on hand and available again.
 */
export async function approveTicket(trx: Transaction<DB>, actor: DocumentActor, ticketId: number): Promise<{ ledgerRows: number }> {
  const scope = documentScope(actor);
  const ticket = await openTicket(trx, actor, ticketId);
  if (ticket.status !== 'counted') throw ticket.status === 'open' ? new AppError('COUNT_NOT_COMPLETE') : new AppError('ORDER_STATUS_ERROR', { status: ticket.status });
  const lines = await ticketLines(trx, Number(ticket.id));
  const releases: StockChange[] = [];
  const changes: StockChange[] = [];
  for (const line of lines) {
    const counted = finalCount(line);
    if (line.status !== 'counted' || counted === null) throw new AppError('COUNT_NOT_COMPLETE');
    const variance = counted.minus(line.system_qty);
    if (variance.isZero()) continue;
    changes.push({
      transType: 'count',
      key: keyOfLine(line),
      onHand: variance,
      reference: { type: 'count', orderNo: ticket.ticket_no, line: line.line_no },
      reason: 'CYCLE',
    });
  }
  // The holds the ticket settles, read under lock: a hold released meanwhile by a hold document is not released twice.
  const holding = lines.filter((line) => new Decimal(line.hold_qty).greaterThan(0));
  const rows = await lockedBalances(trx, scope, holding.map(keyOfLine));
  for (const line of holding) {
    const key = keyOfLine(line);
    const row = rows.find((r) => sameKey(keyOfLine(r), key));
    const release = Decimal.min(line.hold_qty, row?.held_qty ?? 0);
    if (release.lessThanOrEqualTo(0)) continue;
    releases.push({
      transType: 'release',
      key,
      held: release.negated(),
      reference: { type: 'count', orderNo: ticket.ticket_no, line: line.line_no },
      reason: 'CYCLE',
      description: 'hold settled by the count',
    });
  }
  // Releases first: a count below the held quantity can only take stock that is no longer held.
  const applied = await applyStockChanges(trx, scope, [...releases, ...changes]);
  for (const line of lines) await updateLine(trx, Number(line.id), { status: 'approved', updated_by: scope.operator });
  await updateTicket(trx, Number(ticket.id), { status: 'approved', approved_by: scope.operator, approved_at: new Date(), updated_by: scope.operator });
  return { ledgerRows: applied.length };
}

/**
 * Close open tickets (the user confirmed): no stock changes; their locations may be counted again.
 * A hold a closed ticket would have settled stays until a hold document releases it.
 */
export async function closeTickets(trx: Transaction<DB>, actor: DocumentActor, ticketIds: number[]): Promise<{ closed: number }> {
  const scope = documentScope(actor);
  let closed = 0;
  for (const id of [...new Set(ticketIds)].sort((a, b) => a - b)) {
    const ticket = await openTicket(trx, actor, id);
    if (ticket.status !== 'open' && ticket.status !== 'counted') throw new AppError('ORDER_STATUS_ERROR', { status: ticket.status });
    await updateTicket(trx, id, { status: 'closed', updated_by: scope.operator });
    closed++;
  }
  return { closed };
}
