import type { Transaction } from 'kysely';
import type { RightName } from '../../../common/rights.js';
import type { DB } from '../../db/schema.js';
import type { EventBus } from '../../events/events.js';
import { hasRight } from '../identity/index.js';
import { raiseNotification, type NotificationText } from '../notification/index.js';
import { findWarehouseUsers } from './storage.repository.js';

/**
 * Inventory's notifications (issue: notifications raised by domain events): approval requested on
 * a document, a count with variance awaiting approval, lots about to expire. They are raised inside
 * the transaction of the change, so a rollback tells no one, and go to the holders of the verb in
 * the warehouse, never to the person whose action raised them.
 */

/** The most people one inventory notice goes to (administrators count too). */
export const NOTICE_MAX_RECIPIENTS = 200;

export interface WarehouseNotice {
  warehouseId: number;
  /** The project the notice is about; null for a warehouse-wide notice. */
  projectId: number | null;
  right: RightName;
  /** Who caused it: never told about it. */
  exceptLogin?: string | null;
  category: string;
  title: NotificationText;
  body?: NotificationText;
  params?: Record<string, string | number>;
  link?: string;
  by?: string;
}

/** The users of the warehouse (and project) who hold the right. */
export async function warehouseRightHolders(trx: Transaction<DB>, notice: Pick<WarehouseNotice, 'warehouseId' | 'projectId' | 'right' | 'exceptLogin'>): Promise<number[]> {
  const candidates = await findWarehouseUsers(trx, {
    warehouseId: notice.warehouseId,
    projectId: notice.projectId,
    exceptLogin: notice.exceptLogin ?? null,
    limit: NOTICE_MAX_RECIPIENTS * 5,
  });
  const holders: number[] = [];
  for (const user of candidates) {
    if (holders.length >= NOTICE_MAX_RECIPIENTS) break;
    if (await hasRight(trx, { userId: user.id, isAdmin: user.isAdmin }, notice.right)) holders.push(user.id);
  }
  return holders;
}

/** Raises the notice to the holders of its right in the warehouse; answers who got it. */
export async function notifyWarehouse(trx: Transaction<DB>, events: EventBus, notice: WarehouseNotice): Promise<number[]> {
  const userIds = await warehouseRightHolders(trx, notice);
  if (userIds.length === 0) return [];
  await raiseNotification(trx, events, {
    userIds,
    category: notice.category,
    title: notice.title,
    ...(notice.body ? { body: notice.body } : {}),
    ...(notice.params ? { params: notice.params } : {}),
    ...(notice.link ? { link: notice.link } : {}),
    projectId: notice.projectId,
    ...(notice.by ? { by: notice.by } : {}),
  });
  return userIds;
}
