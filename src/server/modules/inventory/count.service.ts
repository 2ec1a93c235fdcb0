import Decimal from 'decimal.js';
import type { Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { nextDocumentNumber } from '../masterdata/id-generator.service.js';
import {
  findPlan,
  insertTicket,
  insertTicketLines,
  lockLine,
  lockTicket,
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
import { applyStockChanges, type StockChange } from './inventory.service.js';

/**
 * Cycle count (spec section 5): a count order made from a plan of the count master (or by the
 * default count number of locations), counted blind (the counter never sees the system qty),
 * recounted where it differs, and approved: each variance becomes an adjustment ledger row of type
 * 'count' through the inventory service. A count of 0 is accepted (an empty location is a count);
 * a negative one is refused.
 */

/** How many locations a count created "by the default count number" covers. */
export const DEFAULT_COUNT_LOCATIONS = 20;

async function createTicket(trx: Transaction<DB>, actor: DocumentActor, planId: number | null, selection: Parameters<typeof stockToCount>[1]): Promise<{ ticketId: number; ticketNo: string; lines: number }> {
  const scope = documentScope(actor);
  const stock = await stockToCount(trx, selection);
  if (stock.length === 0) throw new AppError('NO_RECORD');
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
  const plan = await findPlan(trx, scope.warehouseId, planId);
  if (!plan || Number(plan.project_id) !== scope.projectId) throw new AppError('NO_RECORD');
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

async function openTicket(trx: Transaction<DB>, actor: DocumentActor, ticketId: number): Promise<CountTicketRow> {
  const scope = documentScope(actor);
  const ticket = await lockTicket(trx, scope.warehouseId, ticketId);
  if (!ticket || Number(ticket.project_id) !== scope.projectId) throw new AppError('NO_RECORD');
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
  if (!qty.isFinite() || qty.isNegative()) throw new AppError('QTY_NOT_POSITIVE');
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
  const scope = documentScope(actor);
  const line = await lockLine(trx, scope.warehouseId, lineId);
  if (!line || Number(line.project_id) !== scope.projectId) throw new AppError('NO_RECORD');
  const ticket = await openTicketForLines(trx, actor, Number(line.ticket_id));
  const qty = countedValue(qtyValue);
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
 * the ticket was made) becomes one adjustment of type 'count' in the ledger, all in one go.
 */
export async function approveTicket(trx: Transaction<DB>, actor: DocumentActor, ticketId: number): Promise<{ ledgerRows: number }> {
  const scope = documentScope(actor);
  const ticket = await openTicket(trx, actor, ticketId);
  if (ticket.status !== 'counted') throw ticket.status === 'open' ? new AppError('COUNT_NOT_COMPLETE') : new AppError('ORDER_STATUS_ERROR', { status: ticket.status });
  const lines = await ticketLines(trx, Number(ticket.id));
  const changes: StockChange[] = [];
  for (const line of lines) {
    const counted = finalCount(line);
    if (line.status !== 'counted' || counted === null) throw new AppError('COUNT_NOT_COMPLETE');
    const variance = counted.minus(line.system_qty);
    if (variance.isZero()) continue;
    changes.push({
      transType: 'count',
      key: { ownerId: Number(line.owner_id), skuId: Number(line.sku_id), lotId: Number(line.lot_id), locationId: Number(line.location_id), lpn: line.lpn },
      onHand: variance,
      reference: { type: 'count', orderNo: ticket.ticket_no, line: line.line_no },
      reason: 'CYCLE',
    });
  }
  const applied = await applyStockChanges(trx, scope, changes);
  for (const line of lines) await updateLine(trx, Number(line.id), { status: 'approved', updated_by: scope.operator });
  await updateTicket(trx, Number(ticket.id), { status: 'approved', approved_by: scope.operator, approved_at: new Date(), updated_by: scope.operator });
  return { ledgerRows: applied.length };
}

/** Close open tickets (the user confirmed): no stock changes; their locations may be counted again. */
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
