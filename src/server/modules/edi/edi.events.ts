import type { FastifyInstance } from 'fastify';
import { inTransaction } from '../../db/transaction.js';
import type { EdiTrigger } from './edi.tables.js';
import { queueOrderNotice, type NoticeLoad } from './order-notice.js';

/**
 * Ship notices made on their own: when packing checks an order complete (`packing.checkCompleted`)
 * and when orders ship on a load (`loading.shipped`), each order's notice is queued, in one
 * transaction per order, for owners whose setting sends at that moment, and sent after the commit.
 * Only the node that emitted the event does it (the others hear it too). A notice made on ship
 * carries the load (number, container, seal, vessel, voyage, MBL, HBL) and only the cartons that
 * left on it. A notice that cannot be made (no closed carton with an SSCC) is logged and skipped.
 */
export function listenForShipNotices(app: FastifyInstance): void {
  const db = app.database.db;
  const queue = async (scope: { projectId: number; warehouseId: number }, soIds: number[], trigger: EdiTrigger, load: NoticeLoad | null, cartonIds?: number[]) => {
    for (const soId of soIds) {
      try {
        await inTransaction(db, (trx) => queueOrderNotice(trx, { ...scope, by: 'system' }, soId, { trigger, load, cartonIds, sendWith: db }));
      } catch (error) {
        app.log.warn({ err: error, soId, trigger }, 'ship notice not queued');
      }
    }
  };
  const offs = [
    app.events.on('packing.checkCompleted', (payload, event) => (event.origin === 'local' ? queue(payload, [payload.soId], 'check_complete', null) : undefined)),
    app.events.on('loading.shipped', (payload, event) => (event.origin === 'local' ? queue(payload, payload.soIds, 'ship', payload.load ?? { loadNo: String(payload.loadId) }, payload.cartonIds) : undefined)),
  ];
  app.addHook('onClose', async () => {
    for (const off of offs) off();
  });
}
