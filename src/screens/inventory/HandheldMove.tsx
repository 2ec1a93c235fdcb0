import { useState } from 'react';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { looksLikeGs1, parseGs1 } from '../../common/gs1';
import type { HandheldMoveAnswer, HandheldStockAnswer, HandheldStockRow } from '../../common/inventory-api';
import { api } from '../../app/public';
import { BIG, beep, FeedbackLine, HandheldFrame, messageOf, ScanField, type Feedback, type Tone } from '../inbound/handheld';
import { isUnreachable, sendScan } from '../inbound/offline-queue';
import { OfflineQueueView, useScanQueue } from '../inbound/OfflineQueue';
import { LookupScanField } from './lookup';

/** What the operator scanned for the item: a SKU (code, barcode or GTIN), maybe a lot, an LPN, a label count. */
interface Item {
  sku: string;
  skuCode: string;
  lotNo: string | null;
  lpn: string | null;
  rows: HandheldStockRow[];
  defaultQty: string | null;
}

type Step =
  | { kind: 'from' }
  | { kind: 'item'; from: string; rows: HandheldStockRow[] }
  | { kind: 'qty'; from: string; item: Item }
  | { kind: 'to'; from: string; item: Item; qty: string };

const sum = (rows: HandheldStockRow[]) => rows.reduce((total, r) => total + Number(r.available), 0);

/**
 * Handheld move (360x640, keyboard-wedge scanner): scan the from-location, the SKU, a GS1-128
 * label (GTIN, batch, SSCC, count) or an LPN, the quantity (proposed: what is free when the
 * location holds one lot of it), and the to-location; Enter moves the stock as a move document
 * confirmed at once (there must be enough inventory). Typing part of a location or SKU code lists
 * the matches (the SKUs the from-location holds) to tap instead.
 *
 * Without a connection the move goes through the offline queue (docs/handheld.md): the locations
 * and the item are taken as scanned (the stock cannot be looked up, the quantity is typed), the
 * move waits with its idempotency key and is checked by the server when it is sent; a refusal then
 * is listed with its reason.
 */
export default function HandheldMove() {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'from' });
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const queue = useScanQueue();

  const say = (tone: Tone, text: string) => {
    setFeedback({ tone, text });
    beep(tone);
  };

  const startOver = () => {
    setFeedback(null);
    setStep({ kind: 'from' });
  };

  const scanFrom = async (scanned: string) => {
    const location = scanned.trim();
    try {
      const answer = await api<HandheldStockAnswer>('/inventory/handheld/stock', { body: { location }, quiet: true });
      if (answer.rows.length === 0) return say('warning', t('inv.handheld.nothingAt', { location: answer.location }));
      setFeedback(null);
      beep('success');
      setStep({ kind: 'item', from: answer.location, rows: answer.rows });
    } catch (error) {
      if (!isUnreachable(error)) return say('error', messageOf(error));
      // No connection: the location is taken as scanned, its stock is checked when the move is sent.
      say('warning', t('inv.handheld.unchecked'));
      setStep({ kind: 'item', from: location, rows: [] });
    }
  };

  const scanItem = async (from: string, rows: HandheldStockRow[], scanned: string) => {
    const text = scanned.trim();
    let sku: string | null = null;
    let lotNo: string | null = null;
    let lpn: string | null = null;
    let count: number | null = null;
    if (looksLikeGs1(scanned)) {
      const parsed = parseGs1(scanned);
      if (!parsed.ok) return say('error', t('inv.handheld.badBarcode', { reason: parsed.error }));
      sku = parsed.data.gtin ?? parsed.data.contentGtin ?? null;
      lotNo = parsed.data.batch ?? null;
      lpn = parsed.data.sscc ?? null;
      count = parsed.data.count ?? null;
    } else if (rows.some((r) => r.lpn !== '' && r.lpn === text)) {
      lpn = text;
    } else {
      sku = text;
    }
    if (sku === null) {
      // An LPN alone names the SKU when the pallet holds one.
      const skus = [...new Set(rows.filter((r) => r.lpn === lpn).map((r) => r.sku_code))];
      if (skus.length !== 1) return say('error', t('inv.handheld.lpnNotHere', { lpn, location: from }));
      sku = skus[0];
    }
    try {
      const answer = await api<HandheldStockAnswer>('/inventory/handheld/stock', { body: { location: from, sku, lotNo, lpn }, quiet: true });
      if (answer.rows.length === 0) return say('warning', t('inv.handheld.notAt', { sku: answer.sku, location: from }));
      const lots = new Set(answer.rows.map((r) => `${r.lot_no ?? ''}|${r.lpn}`));
      const defaultQty = count !== null ? String(count) : lots.size === 1 ? String(sum(answer.rows)) : null;
      setFeedback(null);
      beep('success');
      setStep({ kind: 'qty', from, item: { sku, skuCode: answer.sku ?? sku, lotNo, lpn, rows: answer.rows, defaultQty } });
    } catch (error) {
      if (!isUnreachable(error)) return say('error', messageOf(error));
      say('warning', t('inv.handheld.unchecked'));
      setStep({ kind: 'qty', from, item: { sku, skuCode: sku, lotNo, lpn, rows: [], defaultQty: count !== null ? String(count) : null } });
    }
  };

  const enterQty = (from: string, item: Item, typed: string) => {
    const qty = typed.trim();
    if (!/^\d+(\.\d+)?$/.test(qty) || Number(qty) <= 0) return say('error', t('errors.QTY_NOT_POSITIVE'));
    setFeedback(null);
    setStep({ kind: 'to', from, item, qty });
  };

  const move = async (from: string, item: Item, qty: string, scanned: string) => {
    const toLocation = scanned.trim();
    try {
      const outcome = await sendScan<HandheldMoveAnswer>({
        flow: 'move',
        label: `${from} → ${toLocation} · ${item.skuCode}${item.lotNo ? ` · ${item.lotNo}` : ''}${item.lpn ? ` · ${item.lpn}` : ''} × ${qty}`,
        path: '/inventory/handheld/move',
        body: { fromLocation: from, sku: item.sku, lotNo: item.lotNo, lpn: item.lpn, qty, toLocation },
      });
      if (outcome.queued) say('warning', t('inb.offline.stored'));
      else say('success', t('inv.handheld.moved', { qty, sku: item.skuCode, from, to: toLocation, docNo: outcome.answer.docNo }));
      setStep({ kind: 'from' });
    } catch (error) {
      // Refused (not enough stock, unknown location): nothing moved; the quantity may be corrected.
      say('error', messageOf(error));
      setStep({ kind: 'qty', from, item: { ...item, defaultQty: qty } });
    }
  };

  const item = step.kind === 'qty' || step.kind === 'to' ? step.item : null;
  const rows = step.kind === 'item' ? step.rows : (item?.rows ?? []);
  // The SKU look-up offers what the from-location holds: anything else could not be moved from it.
  const skusAt = [...new Set(rows.map((r) => r.sku_code))];

  return (
    <HandheldFrame testId="handheld-move" title={t('inv.handheld.moveTitle')}>
      <OfflineQueueView state={queue} />
      {step.kind !== 'from' && (
        <div data-testid="move-summary" style={{ fontSize: 16 }}>
          <div>{t('inv.handheld.from', { location: step.from })}</div>
          {item && (
            <div>
              <strong>{item.skuCode}</strong>
              {item.lotNo ? ` · ${t('inv.handheld.lot', { lot: item.lotNo })}` : ''}
              {item.lpn ? ` · ${t('inv.handheld.lpn', { lpn: item.lpn })}` : ''}
              {item.rows.length > 0 && ` · ${t('inv.handheld.available', { qty: sum(item.rows) })}`}
            </div>
          )}
          {step.kind === 'to' && <div style={{ fontSize: 22, fontWeight: 600 }}>{t('inv.handheld.qty', { qty: step.qty })}</div>}
        </div>
      )}
      {step.kind === 'from' && <LookupScanField key="from" testId="scan-field" lookup="location" label={t('inv.handheld.scanFrom')} onScan={(text) => void scanFrom(text)} />}
      {step.kind === 'item' && (
        <LookupScanField
          key="item"
          testId="scan-field"
          lookup="sku"
          only={skusAt}
          onEscape={startOver}
          label={t('inv.handheld.scanItem')}
          onScan={(text) => void scanItem(step.from, step.rows, text)}
        />
      )}
      {step.kind === 'qty' && (
        <ScanField
          key={`qty-${step.item.defaultQty ?? ''}`}
          testId="scan-field"
          inputMode="decimal"
          onEscape={startOver}
          label={t('inv.handheld.enterQty')}
          initial={step.item.defaultQty ?? undefined}
          onScan={(text) => enterQty(step.from, step.item, text)}
        />
      )}
      {step.kind === 'to' && (
        <LookupScanField key="to" testId="scan-field" lookup="location" onEscape={startOver} label={t('inv.handheld.scanTo')} onScan={(text) => void move(step.from, step.item, step.qty, text)} />
      )}
      <FeedbackLine feedback={feedback} />
      {rows.length > 0 && (
        <div data-testid="move-stock" style={{ fontSize: 15 }}>
          {rows.map((r) => (
            <div key={`${r.sku_code}|${r.lot_no ?? ''}|${r.lpn}`}>
              {r.sku_code}
              {r.lot_no ? ` · ${r.lot_no}` : ''}
              {r.lpn ? ` · ${r.lpn}` : ''} · {Number(r.available)}
            </div>
          ))}
        </div>
      )}
      {step.kind !== 'from' && (
        <Button block style={BIG} data-testid="handheld-back" onClick={startOver}>
          {t('inv.handheld.startOver')}
        </Button>
      )}
    </HandheldFrame>
  );
}
