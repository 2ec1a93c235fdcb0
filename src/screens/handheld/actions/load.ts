import { ApiError } from '../../../app/public';
import type { LoadTable, ScanAnswer } from '../../../common/loading-api';
import { messageOf } from '../../inbound/handheld';
import { sendScan } from '../../inbound/offline-queue';
import * as calls from '../calls';
import { lpnOf } from './putaway';
import { defineFlow, StepRefusal, type StepOutcome } from './types';

const same = (a: string | null, b: string) => a !== null && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Load (the load scan of /loading): the order search finds an open load by its number; the steps
 * scan the wave (only that wave's cartons are loaded; passed over once scanned) and a carton
 * number, carton SSCC or pallet SSCC (also as its GS1-128 label). The confirmation is the load
 * scan, `POST /loading/scan` (or `/loading/scanByWave`) with its idempotency key; the runtime stays
 * on the load for the next carton. A carton already on the load is refused before it is sent; the
 * server's refusals (an open carton, an order not packed, a carton on another load) ask the carton again.
 */
export const load = defineFlow<LoadTable>({
  fn: 'load',
  async search(scanned, { t }) {
    const header = await calls.loadByNo(scanned.trim());
    if (header.status !== 'open') throw new Error(t('hh.run.loadNotOpen', { load: header.loadNo, status: t(`loading.screen.loadStatus.${header.status}`) }));
    return { task: await calls.loadTable(header.id), fields: { loadNo: header.loadNo } };
  },
  steps: {
    'load.scanWave': (value) => ({ fields: { waveNo: value.trim() } }),
    'load.scanCarton': (value, { t, task }): StepOutcome => {
      const code = lpnOf(value);
      const there = task.cartons.find((c) => same(c.cartonNo, code) || same(c.sscc, code) || same(c.palletSscc, code));
      return there ? { error: t('hh.run.onThisLoad', { code, load: task.load.loadNo }) } : { fields: { code } };
    },
  },
  skipStep: (step, { fields }) => step.action === 'load.scanWave' && !!fields.waveNo,
  missing: ({ t, fields }) => (fields.code ? null : { action: 'load.scanCarton', error: t('hh.run.required', { field: 'code' }) }),
  async confirm({ t, task, fields, key }) {
    const waveNo = (fields.waveNo ?? '').trim();
    const body: Record<string, string | number> = waveNo ? { loadId: task.load.id, waveNo, code: fields.code } : { loadId: task.load.id, code: fields.code };
    const keep = { loadNo: task.load.loadNo, ...(waveNo ? { waveNo } : {}) };
    const subject = { ...body, loadNo: task.load.loadNo };
    try {
      const outcome = await sendScan<ScanAnswer>({ flow: 'load', label: `${task.load.loadNo} · ${fields.code}`, path: waveNo ? '/loading/scanByWave' : '/loading/scan', body, key });
      if (outcome.queued) return { queued: true, message: t('inb.offline.stored'), left: { task, fields: keep }, subject };
      const answer = outcome.answer;
      const table = await calls.loadTable(task.load.id).catch(() => ({ ...task, load: answer.load }));
      const orders = answer.orders.map((o) => `${o.orderNo}: ${t(`outbound.status.${o.status}`)}`).join(', ');
      return { queued: false, message: t('hh.run.loaded', { cartons: answer.loaded.map((c) => c.cartonNo).join(', '), orders }), left: { task: table, fields: keep }, subject };
    } catch (error) {
      if (error instanceof ApiError) throw new StepRefusal(messageOf(error), 'load.scanCarton');
      throw error;
    }
  },
  view: ({ t, task, fields }) => ({
    lines: [
      `${task.load.loadNo} · ${t(`loading.screen.loadStatus.${task.load.status}`)}${fields.waveNo ? ` · ${fields.waveNo}` : ''}`,
      t('hh.run.loadCartons', { n: task.cartons.length }),
      ...task.cartons.slice(-3).map((c) => `${c.cartonNo} · ${c.orderNo}`),
    ],
  }),
});
