import Decimal from 'decimal.js';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import { parseQuantity } from '../../../common/quantity.js';
import type { RightName } from '../../../common/rights.js';
import type { DB } from '../../db/schema.js';
import { defineBehaviour, type BehaviourPreview } from '../area.js';
import type { StockScope } from '../inventory/index.js';
import { allocateOrders, endOrders, ordersOfLines, unallocateOrders, type AllocationResult } from './outbound.service.js';
import { defineSelectionBehaviour, keys, scopeOf } from './selection-behaviour.js';
import { cancelCloseCheck, splitLine, type EndCheck } from './so-documents.service.js';

/** What an allocation answers: done, or short with the number of lines it could not fill. */
function allocationOutcome(result: AllocationResult) {
  return {
    result,
    messageCode: result.shortages.length ? 'outbound.so.allocatedShort' : 'outbound.so.allocatedDone',
    messageParams: { lines: result.shortages.length },
  };
}

/** /so/header/allocation: allocate the selected orders by their rules; shortages per line. */
export const allocateOrdersBehaviour = defineSelectionBehaviour({
  name: 'outbound.so.allocate',
  right: 'outbound.so:allocate',
  run: async (trx, scope, soIds) => allocationOutcome(await allocateOrders(trx, scope, soIds)),
});

export const unallocateOrdersBehaviour = defineSelectionBehaviour({
  name: 'outbound.so.unallocate',
  right: 'outbound.so:allocate',
  run: async (trx, scope, soIds) => ({ result: await unallocateOrders(trx, scope, soIds), messageCode: 'outbound.so.unallocatedDone' }),
});

/** /so/detail/allocation: allocate only the selected lines. */
export const allocateLinesBehaviour = defineSelectionBehaviour({
  name: 'outbound.soLine.allocate',
  right: 'outbound.so:allocate',
  run: async (trx, scope, lineIds) => allocationOutcome(await allocateOrders(trx, scope, await ordersOfLines(trx, scope.projectId, lineIds), lineIds)),
});

export const unallocateLinesBehaviour = defineSelectionBehaviour({
  name: 'outbound.soLine.unallocate',
  right: 'outbound.so:allocate',
  run: async (trx, scope, lineIds) => {
    const result = await unallocateOrders(trx, scope, await ordersOfLines(trx, scope.projectId, lineIds), lineIds);
    return { result, messageCode: 'outbound.so.unallocatedDone' };
  },
});

/**
 * What cancelling or closing the selected orders will undo, for the confirmation
 * (cancel needs confirmation and cannot be undone): how many orders, the allocated qty given back,
 * the picked qty that must go back to stock, the open pick tasks cancelled; refused when the
 * status table does not allow it for one of them. Built on /so/cancelCloseCheck; reads only.
 */
async function previewEndOrders(db: Kysely<DB>, scope: StockScope, soIds: number[], status: 'cancelled' | 'closed'): Promise<BehaviourPreview> {
  const checks = await cancelCloseCheck(db, { projectId: scope.projectId, warehouseId: scope.warehouseId, login: scope.operator }, soIds);
  const total = (qty: (check: EndCheck) => string) => checks.reduce((sum, check) => sum.plus(qty(check)), new Decimal(0)).toString();
  const refused = checks.map((check) => (status === 'cancelled' ? check.cancel : check.close).reason).find((reason) => reason !== null);
  return {
    messageCode: 'outbound.so.endPreview',
    messageParams: {
      orders: checks.length,
      allocated: total((check) => check.allocatedQty),
      picked: total((check) => check.pickedQty),
      tasks: checks.reduce((sum, check) => sum + check.openTasks, 0),
    },
    ...(refused ? { refusal: refused } : {}),
  };
}

/** A behaviour that ends the selected orders in `status`; what they hold is given back. Cancel and close preview it. */
function endOrdersBehaviour(name: string, right: RightName, status: 'cancelled' | 'closed' | 'deleted', messageCode: string) {
  return defineSelectionBehaviour({
    name,
    right,
    async run(trx, scope, soIds) {
      const count = await endOrders(trx, scope, soIds, status);
      return { result: { count }, messageCode, messageParams: { count } };
    },
    ...(status === 'deleted' ? {} : { preview: (db: Kysely<DB>, scope: StockScope, soIds: number[]) => previewEndOrders(db, scope, soIds, status) }),
  });
}

/** Cancel (needs confirmation and cannot be undone). */
export const cancelOrdersBehaviour = endOrdersBehaviour('outbound.so.cancel', 'outbound.so:cancel', 'cancelled', 'outbound.so.cancelledDone');
export const closeOrdersBehaviour = endOrdersBehaviour('outbound.so.close', 'outbound.so:close', 'closed', 'outbound.so.closedDone');
/** Delete: only a new order; it stays on file with status deleted. */
export const deleteOrdersBehaviour = endOrdersBehaviour('outbound.so.delete', 'outbound.so:cancel', 'deleted', 'outbound.so.deletedDone');

/** A line's stored value as the split compares it: text, a day as YYYY-MM-DD, '' when empty. */
function splitText(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : value;
  if (typeof value === 'number') return String(value);
  return '';
}

/**
 * Split line (/so/split): moves the entered quantity of the one selected line of a new order to a
 * new line whose one named field (lot, UOM, lot attribute or date) takes the entered value; the
 * line's current value is the from-value, so a field the line leaves empty cannot be split on.
 * The quantity must be above 0 and below the line's; anything else is refused as the route refuses it.
 */
export const splitLineBehaviour = defineBehaviour({
  name: 'outbound.soLine.split',
  right: 'outbound.so:edit',
  inputs: Type.Object({
    qty: Type.Union([Type.String({ maxLength: 40 }), Type.Number()]),
    field: Type.String({ maxLength: 40 }),
    toValue: Type.String({ maxLength: 100 }),
  }),
  async run({ trx, session, rows, inputs }) {
    const [row] = rows;
    if (!row || rows.length !== 1) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'rows', code: 'FIELD_REQUIRED' }]);
    const qty = parseQuantity(inputs.qty);
    if (!qty.ok) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'qty', code: qty.problem.code, params: qty.problem.params }]);
    const field = inputs.field.trim().toLowerCase();
    const scope = scopeOf(session);
    const actor = { projectId: scope.projectId, warehouseId: scope.warehouseId, login: scope.operator };
    const result = await splitLine(trx, actor, keys(rows)[0], qty.value, [{ field, fromValue: splitText(row[field]), toValue: inputs.toValue }]);
    return { result, messageCode: 'outbound.so.splitDone', messageParams: { lineNo: result.lineNo, qty: qty.value } };
  },
});
