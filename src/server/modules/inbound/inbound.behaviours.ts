import { AppError } from '../../../common/errors.js';
import { defineBehaviour, type BehaviourDefinition } from '../area.js';
import type { EngineSession } from '../../../../engine/server/index.js';
import type { EventBus } from '../../events/events.js';
import { cancelAsn, closeAsn, createAsnFromPo, deleteAsns, type Actor } from './inbound.service.js';

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
    return { result: { asnNos: created }, messageCode: 'inb.message.asnCreated', messageParams: { asnNo: created.join(', ') } };
  },
});

export const inboundBehaviours: BehaviourDefinition[] = [cancelAsnBehaviour, closeAsnBehaviour, deleteAsnBehaviour, asnFromPoBehaviour];
