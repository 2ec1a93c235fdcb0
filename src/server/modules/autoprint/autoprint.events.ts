import type { FastifyInstance } from 'fastify';
import { printForEvent } from './autoprint.service.js';

/**
 * Auto print on events: when packing checks an order complete (`packing.checkCompleted`) and when
 * a load ships (`loading.shipped`), the warehouse's active rules of that event print. The event's
 * transaction has committed by then, so printing can never undo it; a rule that fails to print is
 * a print job in the queue with its error, and anything else that goes wrong is logged. Only the
 * node that emitted the event prints (the others hear it too).
 */
export function listenForAutoPrint(app: FastifyInstance): void {
  const db = app.database.db;
  const run = async (...args: Parameters<typeof printForEvent> extends [unknown, ...infer Rest] ? Rest : never) => {
    try {
      await printForEvent(db, ...args);
    } catch (error) {
      app.log.warn({ err: error, event: args[1] }, 'auto print failed');
    }
  };
  const offs = [
    app.events.on('packing.checkCompleted', (payload, event) =>
      event.origin === 'local' ? run({ projectId: payload.projectId, warehouseId: payload.warehouseId, by: 'system' }, 'packing.checkCompleted', { soIds: [payload.soId] }) : undefined,
    ),
    app.events.on('loading.shipped', (payload, event) =>
      event.origin === 'local'
        ? run({ projectId: payload.projectId, warehouseId: payload.warehouseId, by: 'system' }, 'loading.shipped', { soIds: payload.soIds, load: payload.load ?? { loadNo: String(payload.loadId) }, cartonIds: payload.cartonIds })
        : undefined,
    ),
  ];
  app.addHook('onClose', async () => {
    for (const off of offs) off();
  });
}
