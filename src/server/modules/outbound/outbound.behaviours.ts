import Decimal from 'decimal.js';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import type { EngineRow, EngineSession } from '../../../../engine/server/index.js';
import type { DB } from '../../db/schema.js';
import { defineBehaviour, type BehaviourPreview, type BehaviourPreviewContext } from '../area.js';
import type { StockScope } from '../inventory/inventory.service.js';
import { allocateOrders, endOrders, ordersOfLines, unallocateOrders } from './outbound.service.js';
import { cancelCheckComplete, type EndCheck } from './so-documents.service.js';

function scopeOf(session: EngineSession): StockScope {
  if (session.projectId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'project' });
  if (session.warehouseId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
  return { projectId: session.projectId, warehouseId: session.warehouseId, operator: session.loginAccount };
}

function keys(rows: EngineRow[]): number[] {
  return rows.map((r) => Number(r._key));
}

const NoInputs = Type.Object({});

/** /so/header/allocation: allocate the selected orders by their rules; shortages per line. */
export const allocateOrdersBehaviour = defineBehaviour({
  name: 'outbound.so.allocate',
  inputs: NoInputs,
  right: 'outbound.so:allocate',
  async run({ trx, session, rows }) {
    const result = await allocateOrders(trx, scopeOf(session), keys(rows));
    return {
      result,
      messageCode: result.shortages.length ? 'outbound.so.allocatedShort' : 'outbound.so.allocatedDone',
      messageParams: { lines: result.shortages.length },
    };
  },
});

export const unallocateOrdersBehaviour = defineBehaviour({
  name: 'outbound.so.unallocate',
  inputs: NoInputs,
  right: 'outbound.so:allocate',
  async run({ trx, session, rows }) {
    const result = await unallocateOrders(trx, scopeOf(session), keys(rows));
    return { result, messageCode: 'outbound.so.unallocatedDone' };
  },
});

/** /so/detail/allocation: allocate only the selected lines. */
export const allocateLinesBehaviour = defineBehaviour({
  name: 'outbound.soLine.allocate',
  inputs: NoInputs,
  right: 'outbound.so:allocate',
  async run({ trx, session, rows }) {
    const scope = scopeOf(session);
    const lineIds = keys(rows);
    const result = await allocateOrders(trx, scope, await ordersOfLines(trx, scope.projectId, lineIds), lineIds);
    return {
      result,
      messageCode: result.shortages.length ? 'outbound.so.allocatedShort' : 'outbound.so.allocatedDone',
      messageParams: { lines: result.shortages.length },
    };
  },
});

export const unallocateLinesBehaviour = defineBehaviour({
  name: 'outbound.soLine.unallocate',
  inputs: NoInputs,
  right: 'outbound.so:allocate',
  async run({ trx, session, rows }) {
    const scope = scopeOf(session);
    const lineIds = keys(rows);
    const result = await unallocateOrders(trx, scope, await ordersOfLines(trx, scope.projectId, lineIds), lineIds);
    return { result, messageCode: 'outbound.so.unallocatedDone' };
  },
});

/**
 * What cancelling or closing the selected orders will undo, for the confirmation (spec section 4:
 * cancel needs confirmation and cannot be undone): how many orders, the allocated qty given back,
 * the picked qty that must go back to stock, the open pick tasks cancelled; refused when the
 * status table does not allow it for one of them. Built on /so/cancelCheckComplete; reads only.
 */
async function previewEndOrders(db: Kysely<DB>, session: EngineSession, soIds: number[], status: 'cancelled' | 'closed'): Promise<BehaviourPreview> {
  const scope = scopeOf(session);
  const checks = await cancelCheckComplete(db, { projectId: scope.projectId, warehouseId: scope.warehouseId, login: scope.operator }, soIds);
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
function endOrdersBehaviour(name: string, right: `${string}:${string}`, status: 'cancelled' | 'closed' | 'deleted', messageCode: string) {
  return defineBehaviour({
    name,
    inputs: NoInputs,
    right,
    async run({ trx, session, rows }) {
      const count = await endOrders(trx, scopeOf(session), keys(rows), status);
      return { result: { count }, messageCode, messageParams: { count } };
    },
    ...(status === 'deleted' ? {} : { preview: ({ db, session, rows }: Pick<BehaviourPreviewContext, 'db' | 'session' | 'rows'>) => previewEndOrders(db, session, keys(rows), status) }),
  });
}

/** Cancel (spec section 4: needs confirmation and cannot be undone). */
export const cancelOrdersBehaviour = endOrdersBehaviour('outbound.so.cancel', 'outbound.so:cancel', 'cancelled', 'outbound.so.cancelledDone');
export const closeOrdersBehaviour = endOrdersBehaviour('outbound.so.close', 'outbound.so:close', 'closed', 'outbound.so.closedDone');
/** Delete: only a new order; it stays on file with status deleted. */
export const deleteOrdersBehaviour = endOrdersBehaviour('outbound.so.delete', 'outbound.so:cancel', 'deleted', 'outbound.so.deletedDone');
