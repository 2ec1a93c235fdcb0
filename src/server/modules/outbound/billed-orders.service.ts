import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { lockOrdersNamed, setOrderStatus } from './outbound.repository.js';
import { SO_TRANSITIONS, isSoStatus } from './so-status.js';

/**
 * Orders a posted bill charged become `billed`: the owner's orders of the project named by id or
 * order number, each only where the status table lets its status move to billed (from delivered);
 * an order in any other status stays as it is. Answers the order numbers that became billed.
 */
export async function markOrdersBilled(
  trx: Transaction<DB>,
  input: { projectId: number; ownerId: number; orderIds: readonly number[]; orderNos: readonly string[]; by: string },
): Promise<string[]> {
  const billed: string[] = [];
  for (const order of await lockOrdersNamed(trx, input)) {
    if (!isSoStatus(order.status) || !SO_TRANSITIONS[order.status].includes('billed')) continue;
    await setOrderStatus(trx, Number(order.id), 'billed', input.by);
    billed.push(order.order_no);
  }
  return billed;
}
