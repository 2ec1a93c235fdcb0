import type { TFunction } from 'i18next';
import { looksLikeGs1, parseGs1 } from '../../../common/gs1';
import type { BlindCountLine, BlindCountTicket } from '../../../common/inventory-api';
import { sendScan } from '../../inbound/offline-queue';
import * as calls from '../calls';
import { lpnOf } from './putaway';
import { defineFlow, isQty, type Choice, type ConfirmOutcome, type Fields, type StepOutcome, type TaskContext } from './types';

const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();
const toCount = (ticket: BlindCountTicket) => ticket.lines.filter((l) => l.toCount);
const atLocation = (ticket: BlindCountTicket, location: string) => ticket.lines.filter((l) => same(l.locationCode, location));

/** A ticket takes counts while it is open or counted (not yet approved); a recount reopens it. */
const takesCounts = (ticket: BlindCountTicket) => ticket.status === 'open' || ticket.status === 'counted';

/** The ticket's locations, and those still to visit (a line there is left to count). */
export function progressOf(ticket: BlindCountTicket): { done: number; total: number; pending: string[] } {
  const byLocation = new Map<string, boolean>();
  for (const line of ticket.lines) byLocation.set(line.locationCode, (byLocation.get(line.locationCode) ?? false) || line.toCount);
  const pending = [...byLocation].filter(([, open]) => open).map(([code]) => code);
  return { done: byLocation.size - pending.length, total: byLocation.size, pending };
}

/**
 * The ticket's lines (at the location, when one is scanned) that a scanned SKU code, barcode or
 * GS1-128 label names: its GTIN (a GTIN-14 of the barcode with a leading 0 too), batch and SSCC
 * must all agree. An LPN step matches the LPN (a label's SSCC). Lines still to count come first;
 * a label that cannot be read gives its reason.
 */
export function linesFor(ticket: BlindCountTicket, location: string | undefined, scanned: string, byLpn = false): BlindCountLine[] | string {
  let code = scanned.trim();
  let lotNo: string | null = null;
  let lpn: string | null = null;
  if (byLpn) {
    lpn = lpnOf(scanned);
    code = '';
  } else if (looksLikeGs1(scanned)) {
    const parsed = parseGs1(scanned);
    if (!parsed.ok) return parsed.error;
    code = parsed.data.gtin ?? parsed.data.contentGtin ?? '';
    lotNo = parsed.data.batch ?? null;
    lpn = parsed.data.sscc ?? null;
  }
  const matches = ticket.lines.filter(
    (l) =>
      (!location || same(l.locationCode, location)) &&
      (code === '' || same(l.skuCode, code) || l.barcodes.some((b) => same(b, code) || `0${b}` === code)) &&
      (lotNo === null || same(l.lotNo, lotNo)) &&
      (lpn === null || same(l.lpn, lpn)) &&
      (code !== '' || lpn !== null),
  );
  return [...matches.filter((l) => l.toCount), ...matches.filter((l) => !l.toCount)];
}

/** The lines "location is empty" counts as zero: those of the location still to count, or all of them when none is left. */
export function emptyLines(ticket: BlindCountTicket, location: string): BlindCountLine[] {
  const there = atLocation(ticket, location);
  return there.some((l) => l.toCount) ? there.filter((l) => l.toCount) : there;
}

/** The answers when the location is scanned again at the item step: it is empty (the default), or not. */
const emptyChoices = (t: TFunction, location: string): Choice[] => [
  { value: 'yes', label: t('hh.run.emptyYes', { location }) },
  { value: 'no', label: t('hh.run.emptyNo') },
];

const lineOf = ({ task, fields }: TaskContext<BlindCountTicket>) => task.lines.find((l) => String(l.id) === fields.lineId);
const isEmpty = (fields: Fields) => fields.empty === 'yes' && Boolean(fields.locationCode);

/** What is left of the ticket after a count: the location stays while lines there are left to count. */
function leftOf(ticket: BlindCountTicket, location: string): { task: BlindCountTicket; fields: Fields } | null {
  if (toCount(ticket).length === 0) return null;
  const stays = atLocation(ticket, location).some((l) => l.toCount);
  return { task: ticket, fields: { ticketNo: ticket.ticketNo, ...(stays ? { locationCode: location } : {}) } };
}

/**
 * Count (blind): the order search finds the count ticket of a scanned number (or one tapped in the
 * list of open tickets); a ticket that no longer takes counts is refused. The steps scan a location
 * of the ticket, the SKU counted there (its code, a barcode, or a GS1-128 label whose GTIN, batch
 * and SSCC must agree) or its LPN (the step's target field says which), and the quantity counted,
 * above 0. A location found empty is scanned again at the item step: asked to confirm (Enter), its
 * lines are counted as a true zero. The system quantity is never shown. When the ticket was sent
 * to recount, only the lines to recount are asked; a line counted before may be counted again (a
 * warning says so). After a count the handheld stays at the location while lines are left there.
 * The confirmation is `POST /inventory/cycleCount/count` of the matched line through the offline
 * queue (the ticket is read again when waiting counts were applied), or
 * `POST /inventory/cycleCount/empty`, which needs the connection.
 */
export const count = defineFlow<BlindCountTicket>({
  fn: 'count',
  async search(scanned, { t }) {
    return openTicket(await calls.countTicket({ ticketNo: scanned.trim() }), t);
  },
  async list({ t }) {
    return (await calls.countTickets()).map((ticket) => ({
      key: String(ticket.id),
      label: `${ticket.ticketNo} · ${t('inv.handheld.locations', { n: ticket.locations })}${ticket.recount ? ` · ${t('inv.handheld.recount')}` : ''}`,
      open: async () => openTicket(await calls.countTicket({ id: ticket.id }), t),
    }));
  },
  refresh: (ticket) => calls.countTicket({ id: ticket.id }),
  // The type-ahead offers the ticket's locations, then the SKUs of the location scanned.
  lookup: (action, { task: ticket, fields }) => {
    if (!ticket) return null;
    if (action === 'count.scanLocation') return { kind: 'location', only: [...new Set(ticket.lines.map((l) => l.locationCode))] };
    if (action === 'count.scanItem') return { kind: 'sku', only: [...new Set((fields.locationCode ? atLocation(ticket, fields.locationCode) : ticket.lines).map((l) => l.skuCode))] };
    return null;
  },
  steps: {
    'count.scanLocation': (value, { t, task }): StepOutcome => {
      const line = atLocation(task, value)[0];
      return line ? { fields: { locationCode: line.locationCode, lineId: '', empty: '' } } : { error: t('hh.run.notOnTicket', { code: value.trim(), ticket: task.ticketNo }) };
    },
    'count.scanItem': (value, { t, task, fields, step }): StepOutcome => {
      const location = fields.locationCode;
      const byLpn = step.targetField === 'lpn';
      const found = linesFor(task, location, value, byLpn);
      // The location scanned again, naming no item there: it is found empty.
      if (location && same(value, location) && (typeof found === 'string' || found.length === 0)) {
        return { fields: { lineId: '' }, ask: { field: 'empty', prompt: t('hh.run.emptyAsk', { location, count: emptyLines(task, location).length }), choices: emptyChoices(t, location) } };
      }
      if (typeof found === 'string') return { error: t('inv.handheld.badBarcode', { reason: found }) };
      if (found.length === 0) return location ? { error: t('inv.handheld.skuNotOnTicket', { location }) } : { error: t('hh.run.notOnTicket', { code: value.trim(), ticket: task.ticketNo }) };
      const line = found[0];
      return {
        fields: { [byLpn ? 'lpn' : 'sku']: value.trim(), lineId: String(line.id), locationCode: line.locationCode, empty: '' },
        ...(line.toCount ? {} : { warning: t('inv.handheld.alreadyCounted', { sku: line.skuCode, location: line.locationCode }) }),
      };
    },
    // A counted quantity is above 0: a location found empty is counted as such, never by typing 0.
    'count.enterQty': (value, { t }) => (isQty(value) ? { fields: { qty: value.trim() } } : { error: t('errors.QTY_NOT_POSITIVE') }),
  },
  // Staying at a location after a count, its scan is not asked again; an empty location asks nothing more; a scan, not "empty", asks the item.
  skipStep: (step, { task, fields }) => {
    if (isEmpty(fields)) return true;
    if (step.action === 'count.scanLocation') return Boolean(fields.locationCode) && atLocation(task, fields.locationCode).some((l) => l.toCount);
    if (step.action === 'count.enterQty') return fields.empty === 'no' && !fields.lineId;
    return false;
  },
  // The dialogs go with a count of a line, not with an empty location.
  asksDialogs: ({ fields }) => !isEmpty(fields) && Boolean(fields.lineId),
  missing: (context) => {
    const { t, fields } = context;
    if (isEmpty(fields)) return null;
    if (!fields.locationCode && !lineOf(context)) return { action: 'count.scanLocation', error: t('hh.run.noLocation') };
    if (!lineOf(context)) return { action: 'count.scanItem', error: t('hh.run.noItem') };
    if (!isQty(fields.qty ?? '')) return { action: 'count.enterQty', error: t('errors.QTY_NOT_POSITIVE') };
    return null;
  },
  async confirm(context): Promise<ConfirmOutcome<BlindCountTicket>> {
    const { t, task, fields, key } = context;
    if (isEmpty(fields)) {
      const location = fields.locationCode;
      const lines = emptyLines(task, location);
      await calls.countEmpty(lines.map((l) => l.id));
      const fresh = await calls.countTicket({ id: task.id });
      const progress = progressOf(fresh);
      const done = t('inv.handheld.emptyDone', { location, count: lines.length });
      return {
        queued: false,
        message: progress.pending.length === 0 ? `${done} ${t('inv.handheld.ticketCounted', { ticket: fresh.ticketNo, done: progress.done, total: progress.total })}` : done,
        left: leftOf(fresh, location),
        subject: { ticketNo: task.ticketNo, locationCode: location, empty: true, lines: lines.length },
      };
    }
    const line = lineOf(context)!;
    const body = { lineId: line.id, qty: fields.qty };
    const outcome = await sendScan<{ ok: true }>({
      flow: 'count',
      label: `${task.ticketNo} · ${line.locationCode} · ${line.skuCode}${line.lotNo ? ` · ${line.lotNo}` : ''} = ${fields.qty}`,
      path: '/inventory/cycleCount/count',
      body,
      key,
    });
    // Waiting in the queue, the line counts as done on the handheld; sent, the ticket is read again.
    let next: BlindCountTicket = { ...task, lines: task.lines.map((l) => (l.id === line.id ? { ...l, toCount: false } : l)) };
    if (!outcome.queued) next = await calls.countTicket({ id: task.id }).catch(() => next);
    const progress = progressOf(next);
    const done = outcome.queued ? t('inb.offline.stored') : t('hh.run.counted', { location: line.locationCode, sku: line.skuCode, qty: Number(fields.qty) });
    return {
      queued: outcome.queued,
      message: progress.pending.length === 0 && !outcome.queued ? `${done} ${t('inv.handheld.ticketCounted', { ticket: next.ticketNo, done: progress.done, total: progress.total })}` : done,
      left: leftOf(next, line.locationCode),
      subject: { ...body, ticketNo: task.ticketNo, locationCode: line.locationCode, sku: line.skuCode },
    };
  },
  view: (context) => {
    const { t, task, fields } = context;
    const progress = progressOf(task);
    const line = lineOf(context);
    const location = fields.locationCode;
    return {
      lines: [
        `${task.ticketNo}${task.recount ? ` · ${t('inv.handheld.recount')}` : ''}`,
        t('inv.handheld.progress', { done: progress.done, total: progress.total }),
        ...(location ? [t('inv.handheld.at', { location })] : progress.pending.length > 0 ? [`${t('inv.handheld.toVisit')}: ${progress.pending.join(', ')}`] : []),
        // Blind: what to count, never how many the system holds.
        ...(line
          ? [[line.skuCode, line.lotNo ? t('inv.handheld.lot', { lot: line.lotNo }) : '', line.lpn ? t('inv.handheld.lpn', { lpn: line.lpn }) : ''].filter(Boolean).join(' · ')]
          : location && !isEmpty(fields)
            ? [t('hh.run.emptyHint', { location })]
            : []),
      ],
    };
  },
});

/** The ticket opened from its scan or the list: refused when it no longer takes counts. */
function openTicket(ticket: BlindCountTicket, t: TFunction): { task: BlindCountTicket; fields: Fields } {
  if (!takesCounts(ticket)) throw new Error(t('errors.ORDER_STATUS_ERROR', { status: ticket.status }));
  return { task: ticket, fields: { ticketNo: ticket.ticketNo } };
}
