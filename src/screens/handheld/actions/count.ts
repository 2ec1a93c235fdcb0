import type { BlindCountLine, BlindCountTicket } from '../../../common/inventory-api';
import { sendScan } from '../../inbound/offline-queue';
import * as calls from '../calls';
import { lpnOf } from './putaway';
import { defineFlow, isQty, type Fields, type StepOutcome } from './types';

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const toCount = (ticket: BlindCountTicket) => ticket.lines.filter((l) => l.toCount);

/** The lines still to count that the scans so far match (location, SKU or one of its barcodes, LPN). */
function matching(ticket: BlindCountTicket, fields: Fields): BlindCountLine[] {
  return toCount(ticket).filter(
    (l) =>
      (!fields.locationCode || same(l.locationCode, fields.locationCode)) &&
      (!fields.sku || same(l.skuCode, fields.sku) || l.barcodes.some((b) => same(b, fields.sku))) &&
      (!fields.lpn || same(l.lpn, fields.lpn)),
  );
}

/**
 * Count (blind): the order search finds the count ticket of a scanned number; the steps scan a
 * location of it, the SKU (or its barcode) or the LPN counted there (the step's target field says
 * which) and the quantity counted (0 counts nothing). The system quantity is never shown. The
 * confirmation is `POST /inventory/cycleCount/count` of the ticket line the scans match.
 */
export const count = defineFlow<BlindCountTicket>({
  fn: 'count',
  async search(scanned, { t }) {
    const ticket = await calls.countTicket(scanned.trim());
    if (toCount(ticket).length === 0) throw new Error(t('hh.run.ticketDone', { ticket: ticket.ticketNo }));
    return { task: ticket, fields: { ticketNo: ticket.ticketNo } };
  },
  steps: {
    'count.scanLocation': (value, { t, task, fields }): StepOutcome =>
      matching(task, { ...fields, locationCode: value }).length > 0 ? { fields: { locationCode: value } } : { error: t('hh.run.notOnTicket', { code: value, ticket: task.ticketNo }) },
    'count.scanItem': (value, { t, task, fields, step }): StepOutcome => {
      const scanned: Fields = step.targetField === 'lpn' ? { lpn: lpnOf(value) } : { sku: value };
      return matching(task, { ...fields, ...scanned }).length > 0 ? { fields: scanned } : { error: t('hh.run.notOnTicket', { code: value, ticket: task.ticketNo }) };
    },
    'count.enterQty': (value, { t }) => (isQty(value, true) ? { fields: { qty: value.trim() } } : { error: t('hh.run.badCount') }),
  },
  missing: ({ t, task, fields }) => {
    if (matching(task, fields).length === 0) return { action: 'count.scanLocation', error: t('hh.run.notOnTicket', { code: fields.locationCode ?? '', ticket: task.ticketNo }) };
    if (!fields.qty) return { action: 'count.enterQty', error: t('hh.run.badCount') };
    return null;
  },
  async confirm({ t, task, fields, key }) {
    const line = matching(task, fields)[0];
    const body = { lineId: line.id, qty: fields.qty };
    const outcome = await sendScan<{ ok: true }>({ flow: 'count', label: `${task.ticketNo} · ${line.locationCode} · ${line.skuCode} = ${fields.qty}`, path: '/inventory/cycleCount/count', body, key });
    let next: BlindCountTicket = { ...task, lines: task.lines.map((l) => (l.id === line.id ? { ...l, toCount: false } : l)) };
    if (!outcome.queued) next = await calls.countTicket(task.ticketNo).catch(() => next);
    return {
      queued: outcome.queued,
      message: outcome.queued ? t('inb.offline.stored') : t('hh.run.counted', { location: line.locationCode, sku: line.skuCode, qty: Number(fields.qty) }),
      left: toCount(next).length > 0 ? { task: next, fields: { ticketNo: task.ticketNo } } : null,
      subject: { ...body, ticketNo: task.ticketNo, locationCode: line.locationCode, sku: line.skuCode },
    };
  },
  view: ({ t, task, fields }) => {
    const next = matching(task, fields)[0];
    return {
      lines: [`${task.ticketNo} · ${t('hh.run.linesLeft', { n: toCount(task).length })}`, ...(next ? [`${next.locationCode} · ${next.skuCode}${next.lpn ? ` · ${next.lpn}` : ''}`] : [])],
    };
  },
});
