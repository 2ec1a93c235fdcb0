import { AppError } from '../../../common/errors.js';
import { isLanguage } from '../../../common/languages.js';
import { defineBehaviour } from '../area.js';
import { printLabel } from './printing.service.js';
import { nextSscc } from './sscc.js';

/**
 * "Test label" on the printer page: queues one carton label with a new SSCC on each selected
 * printer (ZPL or PDF after its type), addressed to the printer itself, so that the set-up can be
 * checked on paper; the print queue (/printJob) sends it and shows whether the printer took it.
 */
export const testLabelBehaviour = defineBehaviour({
  name: 'printing.printer.testLabel',
  right: 'printing.printer:print',
  async run({ trx, rows, session }) {
    if (session.warehouseId === null) throw new AppError('FORBIDDEN');
    const warehouseId = session.warehouseId;
    const language = isLanguage(session.language) ? session.language : 'en';
    for (const row of rows) {
      const sscc = await nextSscc(trx, { warehouseId });
      const place = [row.server_name, `${String(row.ip)}:${String(row.port)}`].filter(Boolean).map(String);
      await printLabel(trx, {
        warehouseId,
        by: session.loginAccount,
        kind: 'carton',
        printerId: Number(row._key),
        language,
        label: { sscc, shipTo: { name: String(row.name), lines: place }, orderNo: 'TEST', cartonNo: 1, cartonCount: 1 },
      });
    }
    return { messageCode: 'printing.printer.testLabelQueued', messageParams: { count: rows.length } };
  },
});
