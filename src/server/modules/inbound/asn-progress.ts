import type { Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { hasRight } from '../identity/index.js';
import { raiseNotification } from '../notification/index.js';
import { assertTransition, statusFromTotals, type AsnStatus } from './asn-status.js';
import * as asnRepo from './asn.repository.js';
import type { AsnRow } from './asn.repository.js';
import { now, type Actor } from './inbound.common.js';
import { warehouseUsers } from './lookups.repository.js';

/**
 * How an ASN moves along its statuses once locked: receiving, putaway and the header actions lock
 * the header first (so two sessions changing one ASN queue), and every new status is announced by
 * the inbound domain events and, for received, the "ASN received" notification, in the same
 * transaction.
 */

declare module '../../events/events.js' {
  interface DomainEvents {
    /** An ASN became partially received or received. */
    'inbound.asn.received': { asnId: number; asnNo: string; projectId: number; warehouseId: number; status: AsnStatus };
    /** An ASN was closed. */
    'inbound.asn.closed': { asnId: number; asnNo: string; projectId: number; warehouseId: number };
  }
}

/** The ASN of the actor's warehouse, locked until the transaction ends; NO_RECORD when there is none. */
export async function lockedAsn(trx: Transaction<DB>, actor: Actor, id: number): Promise<AsnRow> {
  const asn = await asnRepo.lockAsn(trx, actor, id);
  if (!asn) throw new AppError('NO_RECORD');
  return asn;
}

/** Who hears that an ASN was received: its creator and the warehouse's users who close ASNs, at most this many. */
const MAX_ASN_RECIPIENTS = 100;
const SUPERVISOR_RIGHT = 'inbound.asn:close';

async function asnRecipients(trx: Transaction<DB>, asn: AsnRow): Promise<number[]> {
  const users = await warehouseUsers(trx, asn.project_id, asn.warehouse_id, 500);
  const ids: number[] = [];
  for (const user of users) {
    if (ids.length >= MAX_ASN_RECIPIENTS) break;
    if (user.login === asn.created_by || (await hasRight(trx, { userId: user.id, isAdmin: user.isAdmin }, SUPERVISOR_RIGHT))) ids.push(user.id);
  }
  return ids;
}

/**
 * The inbound domain events of an ASN's new status, and the "ASN received" notification (received
 * and partially received) to the ASN's creator and the supervisors of its warehouse, all in the
 * caller's transaction.
 */
export async function announceStatus(trx: Transaction<DB>, actor: Actor, asn: AsnRow, status: AsnStatus): Promise<void> {
  const events = actor.events;
  if (!events) return;
  const about = { asnId: asn.id, asnNo: asn.asn_no, projectId: asn.project_id, warehouseId: asn.warehouse_id };
  if (status === 'closed') {
    await events.emit(trx, 'inbound.asn.closed', about);
    return;
  }
  if (status !== 'received' && status !== 'partial_received') return;
  await events.emit(trx, 'inbound.asn.received', { ...about, status });
  const userIds = await asnRecipients(trx, asn);
  if (userIds.length === 0) return;
  await raiseNotification(trx, events, {
    userIds,
    category: 'inbound',
    title: { key: status === 'received' ? 'inb.notice.received' : 'inb.notice.partialReceived' },
    body: { key: 'inb.notice.receivedBody' },
    params: { asnNo: asn.asn_no, by: actor.login },
    link: `asn?asnNo=${encodeURIComponent(asn.asn_no)}`,
    projectId: asn.project_id,
    by: actor.login,
  });
}

/** Moves a locked ASN to the status its lines' totals say, announcing a change; answers the status. */
export async function refreshStatus(trx: Transaction<DB>, asn: AsnRow, actor: Actor): Promise<AsnStatus> {
  const totals = await asnRepo.asnTotals(trx, asn.id);
  const next = statusFromTotals(totals);
  if (next !== asn.status) {
    assertTransition(asn.status, next);
    await asnRepo.updateAsn(trx, asn.id, {
      status: next,
      updated_at: now(),
      updated_by: actor.login,
      ...(asn.received_at === null && next !== 'new' ? { received_at: now() } : {}),
    });
    await announceStatus(trx, actor, asn, next);
  }
  return next;
}
