import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { afterCommit } from '../../db/transaction.js';
import { deliver } from './edi-transport.js';
import { buildDesadv } from './edifact.js';
import { queuedSender, type QueuedSendOutcome } from '../../area-kit/queued-sender.js';
import { ensureControlSequence, findMessageContent, countAttempt, findPartnerEndpoint, findPartnerOfOwner, insertMessage, lockMessagesInScope, nextControlNumber, upsertPartner } from './edi.repository.js';
import type { EdiMessageKind, EdiMessageStatus, EdiSendOn, EdiStandard, EdiTrigger } from './edi.tables.js';
import type { ShipNotice } from './ship-notice.js';
import { build856 } from './x12.js';

/** After this many attempts a message is no longer sent by the queue's job, only on request (resend). */
export const MAX_AUTOMATIC_ATTEMPTS = 10;

/** The scope a ship notice is made in and who makes it. */
export interface EdiScope {
  projectId: number;
  warehouseId: number;
  by: string;
}

export interface EdiPartnerSetting {
  ownerId: number;
  standard: EdiStandard;
  sendOn: EdiSendOn;
  endpoint: string | null;
  senderId: string;
  senderQualifier?: string | null;
  receiverId: string;
  receiverQualifier?: string | null;
  test?: boolean;
  active?: boolean;
}

/** Adds or changes an owner's EDI setting in a project, and makes its control number sequence with it. */
export async function saveEdiPartner(trx: Transaction<DB>, scope: { projectId: number; by: string }, setting: EdiPartnerSetting): Promise<number> {
  const id = await upsertPartner(
    trx,
    {
      project_id: scope.projectId,
      owner_id: setting.ownerId,
      standard: setting.standard,
      send_on: setting.sendOn,
      endpoint: setting.endpoint,
      sender_id: setting.senderId,
      sender_qualifier: setting.senderQualifier ?? null,
      receiver_id: setting.receiverId,
      receiver_qualifier: setting.receiverQualifier ?? null,
      test_indicator: setting.test ?? false,
      active: setting.active ?? true,
    },
    scope.by,
  );
  await ensureControlSequence(trx, id);
  return id;
}

const KIND_OF: Record<Exclude<EdiStandard, 'none'>, EdiMessageKind> = { edifact: 'desadv', x12: 'x12_856' };
const CONTENT_TYPE: Record<EdiMessageKind, string> = { desadv: 'application/EDIFACT', x12_856: 'application/EDI-X12' };

/** Checks the parts of a notice a message cannot do without. */
function checkNotice(notice: ShipNotice): void {
  if (!notice.noticeNo.trim() || !notice.orderNo.trim()) throw new AppError('EDI_NOTICE_INVALID', { reason: 'number' });
  if (!notice.cartons.length) throw new AppError('EDI_NOTICE_INVALID', { reason: 'cartons' });
  for (const carton of notice.cartons) {
    if (!/^\d{18}$/.test(carton.sscc) || (carton.palletSscc && !/^\d{18}$/.test(carton.palletSscc))) throw new AppError('EDI_NOTICE_INVALID', { reason: carton.sscc });
    if (!carton.lines.length || carton.lines.some((l) => !/^\d+(\.\d+)?$/.test(l.qty) || !l.sku || !l.unit)) throw new AppError('EDI_NOTICE_INVALID', { reason: carton.sscc });
  }
}

/**
 * Queues the ship notice of an owner's order in the caller's transaction, in the standard of the
 * owner's EDI setting, with the setting's next control number as interchange, group and message
 * number. Answers the message's id, or null when the owner sends no EDI (no active setting,
 * standard none) or, when `trigger` is given, when the setting asks for the notice at another
 * moment or never on its own; without `trigger` (asked for now) it is queued whatever `send_on` says. With `sendWith` (the database) it is sent once the transaction committed, without
 * waiting for it; otherwise the job `edi.sendQueued` or a resend sends it.
 */
export async function queueShipNotice(
  trx: Transaction<DB>,
  scope: EdiScope,
  notice: ShipNotice,
  options: { trigger?: EdiTrigger; sendWith?: Kysely<DB>; at?: Date } = {},
): Promise<number | null> {
  const partner = await findPartnerOfOwner(trx, scope.projectId, notice.ownerId);
  if (!partner || !partner.active || partner.standard === 'none') return null;
  if (options.trigger && partner.send_on !== options.trigger) return null;
  checkNotice(notice);
  const partnerId = Number(partner.id);
  await ensureControlSequence(trx, partnerId);
  const control = await nextControlNumber(trx, partnerId);
  const envelope = {
    sender: notice.sender ?? { id: partner.sender_id, qualifier: partner.sender_qualifier ?? undefined },
    receiver: notice.receiver ?? { id: partner.receiver_id, qualifier: partner.receiver_qualifier ?? undefined },
    controlNumber: control,
    createdAt: options.at ?? new Date(),
    test: partner.test_indicator,
  };
  const kind = KIND_OF[partner.standard];
  const text = kind === 'desadv' ? buildDesadv(notice, envelope) : build856(notice, envelope);
  const id = await insertMessage(
    trx,
    {
      project_id: scope.projectId,
      warehouse_id: scope.warehouseId,
      partner_id: partnerId,
      owner_id: notice.ownerId,
      kind,
      order_id: notice.orderId ?? null,
      reference: notice.noticeNo.slice(0, 35),
      interchange_control: kind === 'x12_856' ? String(control).padStart(9, '0') : String(control),
      group_control: String(control),
      message_control: kind === 'x12_856' ? String(control).padStart(4, '0') : String(control),
      content: Buffer.from(text, 'utf8'),
    },
    scope.by,
  );
  const db = options.sendWith;
  if (db) afterCommit(trx, () => void sendEdiMessages(db, [id], { by: scope.by }).catch(() => undefined));
  return id;
}

/** What became of one message a sender was asked to send. */
export type EdiSendOutcome = QueuedSendOutcome;

/** The file name of a message written into a folder. */
export function fileNameOf(message: { id: number | string; kind: EdiMessageKind; reference: string }): string {
  const safe = message.reference.replace(/[^A-Za-z0-9._-]/g, '_');
  return `${message.kind === 'desadv' ? 'DESADV' : '856'}_${safe}_${message.id}.edi`;
}

/** Checks that a message's setting may send and hands the message to the setting's endpoint. */
async function deliverMessage(message: { id: number; kind: EdiMessageKind; reference: string; content: Uint8Array }, partner: { endpoint: string | null; active: boolean }): Promise<void> {
  if (!partner.active) throw new Error('the EDI setting of the owner is inactive');
  if (!partner.endpoint) throw new Error('the EDI setting of the owner has no endpoint');
  await deliver(partner.endpoint, fileNameOf(message), message.content, CONTENT_TYPE[message.kind]);
}

/** The EDI messages' send queue: a sender holds a message for up to a minute while its endpoint answers. */
const ediSender = queuedSender({
  table: 'edi_message',
  claimSeconds: 60,
  maxAttempts: MAX_AUTOMATIC_ATTEMPTS,
  columns: ['partner_id', 'kind', 'reference', 'content'],
  target: (trx, message) => findPartnerEndpoint(trx, message.partner_id),
  deliver: deliverMessage,
});

/**
 * Sends messages to their setting's endpoint one after the other. A message another sender holds,
 * or whose status is not among `statuses` (default: queued), is left (`busy`). An endpoint that
 * refuses it, answers other than 2xx or does not answer in time leaves it queued with the error
 * (failed once it had `MAX_AUTOMATIC_ATTEMPTS` attempts); nothing is lost.
 */
export async function sendEdiMessages(db: Kysely<DB>, ids: number[], options: { by: string; statuses?: EdiMessageStatus[] }): Promise<EdiSendOutcome[]> {
  return ediSender.send(db, ids, options);
}

/** Sends the queued messages no sender holds, oldest first, at most `limit`. */
export async function sendQueuedEdiMessages(db: Kysely<DB>, limit: number): Promise<EdiSendOutcome[]> {
  return ediSender.sendQueued(db, limit);
}

/**
 * Sends messages of the caller's warehouse again now, whatever their status, inside the caller's
 * transaction: each is locked, handed to its endpoint and marked sent, or left queued (failed after
 * `MAX_AUTOMATIC_ATTEMPTS`) with the error. An endpoint that failed once is not tried again in the
 * same call. A message of another project or warehouse is refused.
 */
export async function resendEdiMessages(trx: Transaction<DB>, scope: EdiScope, ids: number[]): Promise<EdiSendOutcome[]> {
  const messages = await lockMessagesInScope(trx, scope, ids);
  if (messages.length !== new Set(ids).size) throw new AppError('NO_RECORD');
  const unreachable = new Map<string, string>();
  const outcomes: EdiSendOutcome[] = [];
  for (const message of messages) {
    const id = Number(message.id);
    await countAttempt(trx, id);
    try {
      if (!message.active) throw new Error('the EDI setting of the owner is inactive');
      if (!message.endpoint) throw new Error('the EDI setting of the owner has no endpoint');
      const earlier = unreachable.get(message.endpoint);
      if (earlier !== undefined) throw new Error(earlier);
      try {
        await deliverMessage({ ...message, id }, message);
      } catch (error) {
        unreachable.set(message.endpoint, (error as Error).message);
        throw error;
      }
    } catch (error) {
      const status = ediSender.statusAfterFailure(message.attempts + 1);
      const detail = (error as Error).message;
      await ediSender.markUnsent(trx, id, { status, error: detail, by: scope.by });
      outcomes.push({ id, status, error: detail });
      continue;
    }
    await ediSender.markSent(trx, id, scope.by);
    outcomes.push({ id, status: 'sent' });
  }
  return outcomes;
}

/** A message of the caller's warehouse with its raw content, for viewing and download. */
export async function ediMessageContent(db: Kysely<DB>, scope: { projectId: number; warehouseId: number }, id: number) {
  const message = await findMessageContent(db, scope, id);
  if (!message) throw new AppError('NO_RECORD');
  return { id: Number(message.id), kind: message.kind, reference: message.reference, fileName: fileNameOf({ id: message.id, kind: message.kind, reference: message.reference }), content: Buffer.from(message.content) };
}
