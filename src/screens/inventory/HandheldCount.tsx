import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Progress, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { looksLikeGs1, parseGs1 } from '../../common/gs1';
import type { BlindCountLine, BlindCountTicket, CountTicketsAnswer, CountTicketSummary } from '../../common/inventory-api';
import { api } from '../../app/public';
import { BIG, beep, FeedbackLine, HandheldFrame, messageOf, ScanField, type Feedback, type Tone } from '../inbound/handheld';
import { isUnreachable, sendScan } from '../inbound/offline-queue';
import { OfflineQueueView, useScanQueue } from '../inbound/OfflineQueue';
import { LookupScanField } from './lookup';

type Step = { kind: 'ticket' } | { kind: 'location'; ticket: BlindCountTicket } | { kind: 'item'; ticket: BlindCountTicket; location: string } | { kind: 'qty'; ticket: BlindCountTicket; location: string; line: BlindCountLine };

/** Locations of the ticket and those done (none of their lines left to count). */
function progressOf(ticket: BlindCountTicket): { done: number; total: number; pending: string[] } {
  const byLocation = new Map<string, boolean>();
  for (const line of ticket.lines) byLocation.set(line.locationCode, (byLocation.get(line.locationCode) ?? false) || line.toCount);
  const pending = [...byLocation].filter(([, open]) => open).map(([code]) => code);
  return { done: byLocation.size - pending.length, total: byLocation.size, pending };
}

/** The ticket's lines at a location that a scanned SKU, barcode or GS1 label (GTIN, batch, SSCC) names; lines still to count first. */
function linesFor(ticket: BlindCountTicket, location: string, scanned: string): BlindCountLine[] | string {
  let code = scanned.trim();
  let lotNo: string | null = null;
  let lpn: string | null = null;
  if (looksLikeGs1(scanned)) {
    const parsed = parseGs1(scanned);
    if (!parsed.ok) return parsed.error;
    code = parsed.data.gtin ?? parsed.data.contentGtin ?? '';
    lotNo = parsed.data.batch ?? null;
    lpn = parsed.data.sscc ?? null;
  }
  const matches = ticket.lines.filter(
    (l) =>
      l.locationCode === location &&
      (code === '' || l.skuCode === code || l.barcodes.includes(code) || l.barcodes.some((b) => `0${b}` === code)) &&
      (lotNo === null || l.lotNo === lotNo) &&
      (lpn === null || l.lpn === lpn) &&
      (code !== '' || lpn !== null),
  );
  return [...matches.filter((l) => l.toCount), ...matches.filter((l) => !l.toCount)];
}

/**
 * Handheld cycle count, blind: pick an open ticket or scan its number; for each
 * location scan the location, the SKU or its GS1-128 label, and type the counted quantity; Enter
 * records it (above 0; "Location is empty" records a zero for the lines of a location found
 * empty). The expected quantity is never shown. When the ticket was sent to recount, only
 * the lines to recount are asked again. Progress: locations counted of the ticket's locations.
 * Typing part of a location or SKU code lists the ticket's matches there to tap instead.
 *
 * A count goes through the offline queue (docs/handheld.md): without a connection it waits with
 * its idempotency key, the line counts as done on the handheld and the operator goes on with the
 * ticket already open; the waiting counts are sent in order when the connection is back and the
 * ticket is read again.
 */
export default function HandheldCount() {
  const { t } = useTranslation();
  const [tickets, setTickets] = useState<CountTicketSummary[]>([]);
  const [step, setStep] = useState<Step>({ kind: 'ticket' });
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const stepNow = useRef(step);
  stepNow.current = step;

  /** Waiting counts applied: the open ticket is read again, the operator stays where he is. */
  const reread = useCallback(async () => {
    const open = stepNow.current;
    if (open.kind === 'ticket') return;
    const fresh = await api<BlindCountTicket>('/inventory/handheld/countTicket', { body: { id: open.ticket.id }, quiet: true }).catch(() => null);
    if (fresh && stepNow.current.kind !== 'ticket' && stepNow.current.ticket.id === fresh.id) setStep({ ...stepNow.current, ticket: fresh });
  }, []);
  const queue = useScanQueue(reread);

  const say = (tone: Tone, text: string) => {
    setFeedback({ tone, text });
    beep(tone);
  };

  const loadTickets = useCallback(async () => {
    try {
      setTickets((await api<CountTicketsAnswer>('/inventory/handheld/countTickets', { quiet: true })).tickets);
    } catch (error) {
      // Without a connection the list stays as it was; the offline banner says why.
      if (!isUnreachable(error)) setFeedback({ tone: 'error', text: messageOf(error) });
    }
  }, []);

  useEffect(() => {
    void loadTickets();
  }, [loadTickets]);

  const openTicket = async (body: { id: number } | { ticketNo: string }) => {
    try {
      const ticket = await api<BlindCountTicket>('/inventory/handheld/countTicket', { body, quiet: true });
      if (ticket.status !== 'open' && ticket.status !== 'counted') return say('error', t('errors.ORDER_STATUS_ERROR', { status: t(`inv.status.${ticket.status}`) }));
      setFeedback(null);
      beep('success');
      setStep({ kind: 'location', ticket });
    } catch (error) {
      say('error', messageOf(error));
    }
  };

  /** Escape: back one step (a location to another location, a ticket's locations to the tickets). */
  const back = () => {
    setFeedback(null);
    if (step.kind === 'item' || step.kind === 'qty') setStep({ kind: 'location', ticket: step.ticket });
    else {
      setStep({ kind: 'ticket' });
      void loadTickets();
    }
  };

  const scanLocation = (ticket: BlindCountTicket, scanned: string) => {
    const location = scanned.trim();
    if (!ticket.lines.some((l) => l.locationCode === location)) return say('error', t('inv.handheld.notOnTicket', { location, ticket: ticket.ticketNo }));
    setFeedback(null);
    beep('success');
    setStep({ kind: 'item', ticket, location });
  };

  const scanItem = (ticket: BlindCountTicket, location: string, scanned: string) => {
    const found = linesFor(ticket, location, scanned);
    if (typeof found === 'string') return say('error', t('inv.handheld.badBarcode', { reason: found }));
    if (found.length === 0) return say('error', t('inv.handheld.skuNotOnTicket', { location }));
    if (!found[0].toCount) say('warning', t('inv.handheld.alreadyCounted', { sku: found[0].skuCode, location }));
    else {
      setFeedback(null);
      beep('success');
    }
    setStep({ kind: 'qty', ticket, location, line: found[0] });
  };

  /** After a count is recorded: the next line of the location, the next location, or the ticket done. */
  const advance = async (ticket: BlindCountTicket, location: string, done: string) => {
    moveOn(await api<BlindCountTicket>('/inventory/handheld/countTicket', { body: { id: ticket.id }, quiet: true }), location, done);
  };

  /** The next step after a count, from the ticket as it is now (`stored`: the count waits in the offline queue). */
  const moveOn = (fresh: BlindCountTicket, location: string, done: string, stored = false) => {
    const progress = progressOf(fresh);
    const left = fresh.lines.some((l) => l.locationCode === location && l.toCount);
    if (progress.pending.length === 0) {
      if (stored) say('warning', done);
      else say('success', t('inv.handheld.ticketCounted', { ticket: fresh.ticketNo, done: progress.done, total: progress.total }));
      void loadTickets();
      setStep({ kind: 'ticket' });
      return;
    }
    say(stored ? 'warning' : 'success', done);
    setStep(left ? { kind: 'item', ticket: fresh, location } : { kind: 'location', ticket: fresh });
  };

  const count = async (ticket: BlindCountTicket, location: string, line: BlindCountLine, typed: string) => {
    const qty = typed.trim();
    // A counted qty must be a number above 0 (the server says so too): a location found empty is
    // recorded with its own button, never by typing 0.
    if (!/^\d+(\.\d+)?$/.test(qty) || Number(qty) <= 0) return say('error', t('errors.QTY_NOT_POSITIVE'));
    try {
      const outcome = await sendScan({
        flow: 'count',
        label: `${ticket.ticketNo} · ${location} · ${line.skuCode}${line.lotNo ? ` · ${line.lotNo}` : ''} × ${qty}`,
        path: '/inventory/cycleCount/count',
        body: { lineId: line.id, qty },
      });
      if (outcome.queued) {
        // Counted on the handheld; the server records it when the count is sent.
        const local = { ...ticket, lines: ticket.lines.map((l) => (l.id === line.id ? { ...l, toCount: false } : l)) };
        return moveOn(local, location, t('inb.offline.stored'), true);
      }
      await advance(ticket, location, t('inv.handheld.counted', { qty, sku: line.skuCode, location }));
    } catch (error) {
      say('error', messageOf(error));
    }
  };

  /** "Location is empty": the lines of the location still to count (all of them when none is left) are recorded as a true zero. */
  const countEmpty = async (ticket: BlindCountTicket, location: string) => {
    const atLocation = ticket.lines.filter((l) => l.locationCode === location);
    const lineIds = (atLocation.some((l) => l.toCount) ? atLocation.filter((l) => l.toCount) : atLocation).map((l) => l.id);
    try {
      await api('/inventory/cycleCount/empty', { body: { lineIds }, quiet: true });
      await advance(ticket, location, t('inv.handheld.emptyDone', { location, count: lineIds.length }));
    } catch (error) {
      say('error', messageOf(error));
    }
  };

  const ticket = step.kind === 'ticket' ? null : step.ticket;
  const progress = ticket ? progressOf(ticket) : null;

  return (
    <HandheldFrame testId="handheld-count" title={t('inv.handheld.countTitle')}>
      <OfflineQueueView state={queue} />
      {ticket && progress && (
        <div data-testid="count-ticket" style={{ fontSize: 16 }}>
          <div>
            <strong>{ticket.ticketNo}</strong> {ticket.recount && <Tag color="orange">{t('inv.handheld.recount')}</Tag>}
          </div>
          <div data-testid="count-progress">{t('inv.handheld.progress', { done: progress.done, total: progress.total })}</div>
          <Progress percent={progress.total === 0 ? 0 : Math.round((progress.done / progress.total) * 100)} showInfo={false} />
          {(step.kind === 'item' || step.kind === 'qty') && <div style={{ fontSize: 22, fontWeight: 600 }}>{t('inv.handheld.at', { location: step.location })}</div>}
          {step.kind === 'qty' && (
            <div data-testid="count-line">
              <strong>{step.line.skuCode}</strong>
              {step.line.lotNo ? ` · ${t('inv.handheld.lot', { lot: step.line.lotNo })}` : ''}
              {step.line.lpn ? ` · ${t('inv.handheld.lpn', { lpn: step.line.lpn })}` : ''}
            </div>
          )}
        </div>
      )}
      {step.kind === 'ticket' && <ScanField key="ticket" testId="scan-field" label={t('inv.handheld.scanTicket')} onScan={(text) => void openTicket({ ticketNo: text.trim() })} />}
      {step.kind === 'location' && (
        <LookupScanField
          key="location"
          testId="scan-field"
          lookup="location"
          only={[...new Set(step.ticket.lines.map((l) => l.locationCode))]}
          onEscape={back}
          label={t('inv.handheld.scanLocation')}
          onScan={(text) => scanLocation(step.ticket, text)}
        />
      )}
      {step.kind === 'item' && (
        <>
          <LookupScanField
            key="item"
            testId="scan-field"
            lookup="sku"
            only={[...new Set(step.ticket.lines.filter((l) => l.locationCode === step.location).map((l) => l.skuCode))]}
            onEscape={back}
            label={t('inv.handheld.scanSku')}
            onScan={(text) => scanItem(step.ticket, step.location, text)}
          />
          <Button block danger style={BIG} data-testid="count-location-empty" onClick={() => void countEmpty(step.ticket, step.location)}>
            {t('inv.handheld.locationEmpty')}
          </Button>
        </>
      )}
      {step.kind === 'qty' && (
        <ScanField key={`qty-${step.line.id}`} testId="scan-field" inputMode="decimal" onEscape={back} label={t('inv.handheld.enterCount')} onScan={(text) => void count(step.ticket, step.location, step.line, text)} />
      )}
      <FeedbackLine feedback={feedback} />
      {step.kind === 'ticket' && (
        <Space direction="vertical" style={{ width: '100%' }}>
          {tickets.length === 0 && <Typography.Text type="secondary">{t('inv.handheld.noTickets')}</Typography.Text>}
          {tickets.map((tk) => (
            <Button key={tk.id} block style={{ ...BIG, height: 'auto', whiteSpace: 'normal' }} data-testid={`ticket-${tk.id}`} onClick={() => void openTicket({ id: tk.id })}>
              {tk.ticketNo} · {t('inv.handheld.locations', { n: tk.locations })}
              {tk.recount ? ` · ${t('inv.handheld.recount')}` : ''}
            </Button>
          ))}
          <Button block style={BIG} data-testid="variance-report" href="#/page/mapTo?moduleCode=inventory&functionCode=cycleCountVariance">
            {t('inv.handheld.varianceReport')}
          </Button>
        </Space>
      )}
      {step.kind === 'location' && progress && (
        <div data-testid="count-pending" style={{ fontSize: 15 }}>
          {t('inv.handheld.toVisit')}: {progress.pending.join(', ')}
        </div>
      )}
      {step.kind !== 'ticket' && (
        <Button block style={BIG} data-testid="handheld-back" onClick={() => setStep({ kind: 'ticket' })}>
          {t('inv.handheld.otherTicket')}
        </Button>
      )}
    </HandheldFrame>
  );
}
