import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import { defineBehaviour, type BehaviourDefinition } from '../area.js';
import type { EngineSession } from '../../../../engine/server/index.js';
import type { EventBus } from '../../events/events.js';
import { cancelAsn, closeAsn, deleteAsns } from './asn.service.js';
import type { Actor } from './inbound.common.js';
import { createAsnFromPo } from './po.service.js';
import { receiptLineSplitValues, splitReceiptLine } from './split.service.js';

/** The header actions of the ASN and PO pages, each behind its own verb (cancel and close ask for confirmation on the page). */

function actorOf(session: EngineSession, events?: EventBus): Actor {
  if (session.projectId === null || session.warehouseId === null) throw new AppError('NO_RIGHTS_CONTACT_ADMIN');
  return { projectId: session.projectId, warehouseId: session.warehouseId, login: session.loginAccount, events };
}

export const cancelAsnBehaviour = defineBehaviour({
  name: 'inbound.asn.cancel',
  right: 'inbound.asn:cancel',
  async run({ trx, rows, session }) {
    for (const row of rows) await cancelAsn(trx, actorOf(session), Number(row._key));
    return { messageCode: 'inb.message.cancelled' };
  },
});

export const closeAsnBehaviour = defineBehaviour({
  name: 'inbound.asn.close',
  right: 'inbound.asn:close',
  async run({ trx, rows, session, events }) {
    for (const row of rows) await closeAsn(trx, actorOf(session, events), Number(row._key));
    return { messageCode: 'inb.message.closed' };
  },
});

export const deleteAsnBehaviour = defineBehaviour({
  name: 'inbound.asn.delete',
  right: 'inbound.asn:delete',
  async run({ trx, rows, session }) {
    await deleteAsns(trx, actorOf(session), rows.map((r) => Number(r._key)));
    return { messageCode: 'inb.message.deleted' };
  },
});

export const asnFromPoBehaviour = defineBehaviour({
  name: 'inbound.po.createAsn',
  right: 'inbound.asn:add',
  async run({ trx, rows, session }) {
    const created = [];
    for (const row of rows) created.push((await createAsnFromPo(trx, actorOf(session), Number(row._key))).asn_no);
    // The message offers each ASN made, opening the ASN page filtered to it.
    const links = created.map((asnNo) => ({ labelCode: 'inb.ui.openAsn', labelParams: { asnNo }, moduleCode: 'inbound', functionCode: 'asn', filter: { asn_no: asnNo } }));
    return { result: { asnNos: created }, messageCode: 'inb.message.asnCreated', messageParams: { asnNo: created.join(', ') }, links };
  },
});

const OptText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));

/**
 * Split of a receipt line from the goods receipts page: part of the line (above 0, below the
 * line's qty, nothing put away yet) becomes a new line whose LPN, trace id or UDF1 goes from the
 * line's current value to the new value given; at least one new value is needed.
 */
export const splitReceiptBehaviour = defineBehaviour({
  name: 'inbound.receipt.split',
  right: 'inbound.asn:receive',
  inputs: Type.Object({ qty: Type.Union([Type.String({ maxLength: 40 }), Type.Number()]), lpn: OptText(100), traceId: OptText(100), udf1: OptText(100) }),
  async run({ trx, rows, session, inputs }) {
    if (rows.length !== 1) throw new AppError('SPLIT_NOT_ALLOWED');
    const actor = actorOf(session);
    const receiptLineId = Number(rows[0]._key);
    const current = await receiptLineSplitValues(trx, actor, receiptLineId);
    const wanted = [
      ['lpn', inputs.lpn],
      ['trace_id', inputs.traceId],
      ['udf1', inputs.udf1],
    ] as const;
    const changes = wanted.filter(([, value]) => (value ?? '').trim() !== '').map(([field, value]) => ({ field, fromValue: current[field], toValue: value }));
    const answer = await splitReceiptLine(trx, actor, receiptLineId, inputs.qty, changes);
    return { result: answer, messageCode: 'inb.message.split' };
  },
});

export const inboundBehaviours: BehaviourDefinition[] = [cancelAsnBehaviour, closeAsnBehaviour, deleteAsnBehaviour, asnFromPoBehaviour, splitReceiptBehaviour];
