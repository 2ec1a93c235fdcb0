import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { StockScope } from '../inventory/index.js';
import { lockOrders, setOrderStatus } from './outbound.repository.js';
import { orderIdsOfWave, orderNosOf } from './load-order.repository.js';
import { assertTransition, type SoStatus } from './so-status.js';

/**
 * What loading and shipping need of sales orders: the orders of a wave, order numbers, and the
 * order's status as loading, ship confirm and delivery move it. The loading area computes the
 * status from what of the order's lines is loaded or shipped; the move is checked against the
 * status table here (ORDER_STATUS_ERROR where it does not allow it).
 */

export type LoadingStatus = Extract<SoStatus, 'packed' | 'partial_loaded' | 'loaded' | 'partial_shipped' | 'shipped' | 'delivered'>;

/**
 * Sets the order's status to `to` after checking the status table; the order row is locked until
 * the transaction ends. A loaded order taken off its load altogether goes back to packed through
 * partially loaded, the way the table leads.
 */
export async function setLoadingStatus(trx: Transaction<DB>, scope: StockScope, soId: number, to: LoadingStatus): Promise<SoStatus> {
  const [order] = await lockOrders(trx, scope.projectId, [soId]);
  if (order.status === 'loaded' && to === 'packed') assertTransition(order.order_no, 'partial_loaded', to);
  else assertTransition(order.order_no, order.status, to);
  if (order.status !== to) await setOrderStatus(trx, soId, to, scope.operator);
  return to;
}

/** The ids of the orders of the scope's project and warehouse on the wave, in id order. */
export async function ordersOfWave(db: Kysely<DB> | Transaction<DB>, scope: Pick<StockScope, 'projectId' | 'warehouseId'>, waveNo: string): Promise<number[]> {
  return orderIdsOfWave(db, scope, waveNo);
}

/** Order number and status of these orders of the scope, by id. */
export async function orderNumbers(db: Kysely<DB> | Transaction<DB>, scope: Pick<StockScope, 'projectId' | 'warehouseId'>, soIds: readonly number[]): Promise<Map<number, { orderNo: string; status: string }>> {
  return orderNosOf(db, scope, soIds);
}
