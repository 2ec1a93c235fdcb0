import { looksLikeGs1, parseGs1 } from '../../../common/gs1';
import type { HandheldMoveAnswer, HandheldStockRow } from '../../../common/inventory-api';
import { ApiError } from '../../../app/public';
import { messageOf } from '../../inbound/handheld';
import { isUnreachable, sendScan } from '../../inbound/offline-queue';
import * as calls from '../calls';
import { lpnOf } from './putaway';
import { defineFlow, isQty, StepRefusal, type StepOutcome } from './types';

/** The from-location of a move and the stock there (none when it was scanned without a connection). */
export interface MoveTask {
  fromLocation: string;
  rows: HandheldStockRow[];
}

/** The stock row a move takes: the one with the most free to move. */
const pick = (rows: HandheldStockRow[]) => [...rows].sort((a, b) => Number(b.available) - Number(a.available))[0];

/** What a scan of the item names: a SKU (code, barcode or GTIN), maybe a lot, an LPN, a label's count. */
interface Scanned {
  sku: string | null;
  lotNo: string | null;
  lpn: string | null;
  count: number | null;
}

/** The item of a scan: a GS1-128 label's GTIN, batch, SSCC and count; an LPN of the location (or of an LPN step); else a SKU. */
function itemOf(scanned: string, byLpn: boolean, rows: HandheldStockRow[]): Scanned | { error: string } {
  const text = scanned.trim();
  if (looksLikeGs1(scanned)) {
    const parsed = parseGs1(scanned);
    if (!parsed.ok) return { error: parsed.error };
    return { sku: parsed.data.gtin ?? parsed.data.contentGtin ?? null, lotNo: parsed.data.batch ?? null, lpn: parsed.data.sscc ?? null, count: parsed.data.count ?? null };
  }
  if (byLpn || rows.some((r) => r.lpn !== '' && r.lpn === text)) return { sku: null, lotNo: null, lpn: lpnOf(text), count: null };
  return { sku: text, lotNo: null, lpn: null, count: null };
}

/**
 * Move: the order search takes the from-location (and shows its stock); the steps scan the item
 * there — a SKU (code, barcode or GTIN), a GS1-128 label (GTIN, batch, SSCC, count) or an LPN (an
 * LPN alone names the SKU when it holds one) — the quantity (proposed: the label's count, or all
 * that is free when the location holds one lot of it; empty: all that is free), the to-location
 * and a reason. Typing part of a location or SKU code lists the matches to tap (the SKUs the
 * from-location holds). The confirmation is `POST /inventory/handheld/move`, one move document
 * made and confirmed at once; more than is free is refused by the server and the quantity asked
 * again. Without a connection the locations and the item are taken as scanned (the quantity is
 * typed) and the move waits in the offline queue, checked by the server when it is sent.
 */
export const move = defineFlow<MoveTask>({
  fn: 'move',
  async search(scanned, { t }) {
    const location = scanned.trim();
    try {
      const answer = await calls.stockAt({ location });
      if (answer.rows.length === 0) throw new Error(t('hh.run.emptyLocation', { location: answer.location }));
      return { task: { fromLocation: answer.location, rows: answer.rows }, fields: { fromLocation: answer.location } };
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      // No connection: the location is taken as scanned, its stock is checked when the move is sent.
      return { task: { fromLocation: location, rows: [] }, fields: { fromLocation: location }, warning: t('inv.handheld.unchecked') };
    }
  },
  lookup: (action, { task }) => {
    if (action === 'move.scanFrom' || action === 'move.scanTo') return { kind: 'location' };
    // The SKUs the from-location holds: anything else could not be moved from it.
    if (action === 'move.scanItem' && task) return { kind: 'sku', only: [...new Set(task.rows.map((r) => r.sku_code))] };
    return null;
  },
  steps: {
    'move.scanItem': async (value, { t, task, step }): Promise<StepOutcome> => {
      const item = itemOf(value, step.targetField === 'lpn', task.rows);
      if ('error' in item) return { error: t('inv.handheld.badBarcode', { reason: item.error }) };
      const labelQty = item.count !== null ? String(item.count) : '';
      let sku = item.sku;
      if (sku === null && task.rows.length > 0) {
        // An LPN alone names the SKU when the pallet holds one.
        const skus = [...new Set(task.rows.filter((r) => r.lpn === item.lpn).map((r) => r.sku_code))];
        if (skus.length !== 1) return { error: t('inv.handheld.lpnNotHere', { lpn: item.lpn, location: task.fromLocation }) };
        sku = skus[0];
      }
      try {
        const answer = await calls.stockAt({ location: task.fromLocation, ...(sku === null ? {} : { sku }), ...(item.lotNo ? { lotNo: item.lotNo } : {}), ...(item.lpn ? { lpn: item.lpn } : {}) });
        const rows = answer.rows.filter((r) => Number(r.available) > 0);
        const skus = [...new Set(rows.map((r) => r.sku_code))];
        if (skus.length > 1) return { error: t('inv.handheld.lpnNotHere', { lpn: item.lpn, location: task.fromLocation }) };
        const row = pick(rows);
        if (!row) return { error: t('hh.run.noStock', { item: answer.sku ?? value.trim(), location: task.fromLocation }) };
        // One lot (and LPN) of it there: all that is free is proposed.
        const single = new Set(rows.map((r) => `${r.lot_no ?? ''}|${r.lpn}`)).size === 1;
        return { fields: { sku: row.sku_code, lpn: row.lpn, lotNo: row.lot_no ?? '', available: row.available, labelQty, proposedQty: labelQty || (single ? String(Number(row.available)) : '') } };
      } catch (error) {
        if (!isUnreachable(error)) return { error: messageOf(error) };
        if (sku === null) return { error: t('inv.handheld.lpnNotHere', { lpn: item.lpn, location: task.fromLocation }) };
        // No connection: the item is taken as scanned; the quantity is typed.
        return { fields: { sku, lpn: item.lpn ?? '', lotNo: item.lotNo ?? '', available: '', labelQty, proposedQty: labelQty }, warning: t('inv.handheld.unchecked') };
      }
    },
    'move.enterQty': (value, { t }) => (value !== '' && !isQty(value) ? { error: t('hh.run.badQty') } : { fields: { qty: value } }),
    'move.scanTo': (value) => ({ fields: { toLocation: value } }),
    'move.reason': (value) => ({ fields: { reason: value } }),
  },
  missing: ({ t, fields }) => {
    if (!fields.sku) return { action: 'move.scanItem', error: t('hh.run.noItem') };
    // Without the stock (offline) nothing says how much is free: the quantity is typed.
    if (!(fields.qty ?? '').trim() && !fields.labelQty && !fields.available) return { action: 'move.enterQty', error: t('errors.QTY_NOT_POSITIVE') };
    if (!fields.toLocation) return { action: 'move.scanTo', error: t('hh.run.noLocation') };
    return null;
  },
  async confirm({ t, task, fields, key, definition }) {
    const qty = (fields.qty ?? '').trim() || fields.labelQty || fields.available;
    const body = {
      fromLocation: task.fromLocation,
      sku: fields.sku,
      lotNo: fields.lotNo || null,
      lpn: fields.lpn || null,
      qty,
      toLocation: fields.toLocation,
      reason: fields.reason || null,
    };
    const label = `${task.fromLocation} → ${fields.toLocation} · ${fields.sku}${fields.lotNo ? ` · ${fields.lotNo}` : ''}${fields.lpn ? ` · ${fields.lpn}` : ''} × ${qty}`;
    let outcome;
    try {
      outcome = await sendScan<HandheldMoveAnswer>({ flow: 'move', label, path: '/inventory/handheld/move', body, key });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Refused (more than is free, an unknown location): nothing moved; the quantity may be corrected.
      throw new StepRefusal(messageOf(error), definition.steps.some((s) => s.action === 'move.enterQty') ? 'move.enterQty' : 'move.scanTo', { proposedQty: qty });
    }
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
  proposed: (step, { fields }) => (step.action === 'move.enterQty' ? fields.proposedQty || null : null),
  view: ({ t, task, fields }) => ({
    lines: [
      t('inb.ui.from', { location: task.fromLocation }),
      ...(fields.sku
        ? [`${fields.sku}${fields.lotNo ? ` · ${fields.lotNo}` : ''}${fields.lpn ? ` · ${fields.lpn}` : ''}${fields.available ? ` · ${Number(fields.available)}` : ''}`]
        : task.rows.slice(0, 3).map((r) => `${r.sku_code}${r.lot_no ? ` · ${r.lot_no}` : ''}${r.lpn ? ` · ${r.lpn}` : ''} · ${Number(r.available)}`)),
      ...((fields.qty ?? '').trim() ? [t('inv.handheld.qty', { qty: fields.qty.trim() })] : []),
    ],
  }),
  promptParams: ({ fields }) => ({ qty: fields.available ? Number(fields.available) : (fields.labelQty ?? '') }),
});
