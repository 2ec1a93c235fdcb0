import type { HandheldMoveAnswer, HandheldStockRow } from '../../../common/inventory-api';
import { sendScan } from '../../inbound/offline-queue';
import * as calls from '../calls';
import { lpnOf } from './putaway';
import { defineFlow, isQty, type StepOutcome } from './types';

/** The from-location of a move and the stock there. */
export interface MoveTask {
  fromLocation: string;
  rows: HandheldStockRow[];
}

/** The stock row a move takes: the one with the most free to move. */
const pick = (rows: HandheldStockRow[]) => [...rows].sort((a, b) => Number(b.available) - Number(a.available))[0];

/**
 * Move: the order search takes the from-location (and shows its stock); the steps scan a SKU or
 * an LPN there (the step's target field says which), the quantity (empty: all that is free of
 * it), the to-location and a reason. The confirmation is `POST /inventory/handheld/move`, one
 * move document made and confirmed at once.
 */
export const move = defineFlow<MoveTask>({
  fn: 'move',
  async search(scanned, { t }) {
    const answer = await calls.stockAt({ location: scanned.trim() });
    if (answer.rows.length === 0) throw new Error(t('hh.run.emptyLocation', { location: answer.location }));
    return { task: { fromLocation: answer.location, rows: answer.rows }, fields: { fromLocation: answer.location } };
  },
  steps: {
    'move.scanItem': async (value, { t, task, step }): Promise<StepOutcome> => {
      const byLpn = step.targetField === 'lpn';
      const answer = await calls.stockAt(byLpn ? { location: task.fromLocation, lpn: lpnOf(value) } : { location: task.fromLocation, sku: value });
      const row = pick(answer.rows.filter((r) => Number(r.available) > 0));
      if (!row) return { error: t('hh.run.noStock', { item: value, location: task.fromLocation }) };
      return { fields: { sku: row.sku_code, lpn: row.lpn, lotNo: row.lot_no ?? '', available: row.available } };
    },
    'move.enterQty': (value, { t }) => (value !== '' && !isQty(value) ? { error: t('hh.run.badQty') } : { fields: { qty: value } }),
    'move.scanTo': (value) => ({ fields: { toLocation: value } }),
    'move.reason': (value) => ({ fields: { reason: value } }),
  },
  missing: ({ t, fields }) => {
    if (!fields.sku) return { action: 'move.scanItem', error: t('hh.run.noItem') };
    if (!fields.toLocation) return { action: 'move.scanTo', error: t('hh.run.noLocation') };
    return null;
  },
  async confirm({ t, task, fields, key, definition }) {
    const qty = (fields.qty ?? '').trim() || fields.available;
    const body = {
      fromLocation: task.fromLocation,
      sku: fields.sku,
      lotNo: fields.lotNo || null,
      lpn: fields.lpn || null,
      qty,
      toLocation: fields.toLocation,
      reason: fields.reason || null,
    };
    const outcome = await sendScan<HandheldMoveAnswer>({ flow: 'move', label: `${fields.sku} × ${qty}: ${task.fromLocation} → ${fields.toLocation}`, path: '/inventory/handheld/move', body, key });
    const done = { sku: fields.sku, qty: Number(qty), from: task.fromLocation, to: fields.toLocation };
    let left: { task: MoveTask; fields: Record<string, string> } | null = null;
    if (!definition.flow.restartAfterConfirm && !outcome.queued) {
      const rows = (await calls.stockAt({ location: task.fromLocation }).catch(() => ({ rows: [] as HandheldStockRow[] }))).rows;
      if (rows.length > 0) left = { task: { fromLocation: task.fromLocation, rows }, fields: { fromLocation: task.fromLocation } };
    }
    return {
      queued: outcome.queued,
      message: outcome.queued ? t('inb.offline.stored') : t('hh.run.moved', { ...done, docNo: outcome.answer.docNo }),
      left,
      subject: body,
    };
  },
  view: ({ t, task, fields }) => ({
    lines: [
      t('inb.ui.from', { location: task.fromLocation }),
      ...(fields.sku
        ? [`${fields.sku}${fields.lpn ? ` · ${fields.lpn}` : ''}${fields.lotNo ? ` · ${fields.lotNo}` : ''} · ${Number(fields.available)}`]
        : task.rows.slice(0, 3).map((r) => `${r.sku_code}${r.lpn ? ` · ${r.lpn}` : ''} · ${Number(r.available)}`)),
    ],
  }),
  promptParams: ({ fields }) => ({ qty: fields.available ? Number(fields.available) : '' }),
});
