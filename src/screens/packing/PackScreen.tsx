import { useCallback, useEffect, useRef, useState, type HTMLAttributes } from 'react';
import { Alert, Button, Checkbox, Segmented, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, ApiError, fetchBlob, showConfirm, useRights } from '../../app/public';
import { BIG, beep, FeedbackLine, messageOf, type Feedback, type Tone } from '../inbound/handheld';
import { amount, cartonChange, leftToPack, parseQty, type CodeRow, type PackAnswer, type PackCarton } from './pack-api';
import { CloseCartonForm, type CloseValues } from './CloseCartonForm';
import { PackScanField } from './PackScanField';
import { sendScan } from '../inbound/offline-queue';
import { OfflineQueueView, useScanQueue } from '../inbound/OfflineQueue';
import { useNarrow, useWindowKeys } from '../shared/screen-hooks';
import { ScanScreenLayout } from '../shared/ScanScreenLayout';

/**
 * The steps of the flow. Escape steps back: quantity → scan → order (→ wave when packing by wave);
 * the carton type and the close form step back to the scan; the anti-counterfeit code, the collar
 * barcode and the carton to reopen back to the scan; the card back to the carton type.
 */
type Step = 'wave' | 'order' | 'carton' | 'item' | 'qty' | 'close' | 'code' | 'collar' | 'card' | 'reopen';

/** An item scan waiting for the second scan its SKU asks for (its anti-counterfeit code, its collar). */
interface PendingItem {
  barcode: string;
  qty: string | null;
  antiCounterfeitCode?: string;
  collarBarcode?: string;
}

/** Keys that work in every step (a handheld's function keys). */
const KEY_CLOSE = 'F2';
const KEY_NEW_CARTON = 'F4';
const KEY_COMPLETE = 'F8';
const KEY_REOPEN = 'F6';
const KEY_CARD = 'F7';
/** A big target whose caption wraps rather than widen the handheld's two columns. */
const WRAP = { ...BIG, height: 'auto', whiteSpace: 'normal' } as const;

/**
 * /pack: scan and pack. Scan the order number (or the wave id, then the order number), choose the
 * carton type to open a carton, scan SKU codes, barcodes or GS1-128 labels into it (a quantity
 * first with +, taking out with -), close it with its weights and dimensions, and check the order
 * complete. The order's lines with what is left to pack and every carton with its contents stay in
 * view. Made for a keyboard-wedge scanner: the focus returns to the scan field, Enter submits,
 * Escape steps back, and every outcome beeps. A 360 px wide display gets one column with big
 * targets; a desk gets the flow beside the lists. An item whose units carry an anti-counterfeit code
 * asks for the code as a second scan, an item with a woolen collar barcode for the collar; F6 reopens
 * a closed carton to append to it (after a confirmation), F7 scans the card the next carton carries.
 * A scan whose call gets no answer says "not saved" and keeps its text in the field, except an item
 * scan: while the browser is offline, while pack scans wait already, or when its call gets no answer
 * (the server out of reach while the browser thinks it is online) it goes to the offline queue
 * (docs/handheld.md): it is listed as waiting, the carton's contents leave it out until it applies,
 * and the order is read again then. "Pack list" opens the order's pack list (PDF) once a carton of
 * it is closed with something in it.
 */
export default function PackScreen() {
  const { t } = useTranslation();
  const rights = useRights('packing.pack');
  const narrow = useNarrow();
  const [step, setStep] = useState<Step>('order');
  const [byWave, setByWave] = useState(false);
  const [waveNo, setWaveNo] = useState<string | null>(null);
  const [packPicked, setPackPicked] = useState(false);
  const [pack, setPack] = useState<PackAnswer | null>(null);
  const [target, setTarget] = useState<number | null>(null);
  const [qty, setQty] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const [cartonTypes, setCartonTypes] = useState<CodeRow[]>([]);
  const [units, setUnits] = useState<CodeRow[]>([]);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [busy, setBusy] = useState(false);
  // Cancelling a check-complete: the two questions, asked before the confirmation (the scan field
  // waits meanwhile, so that it does not take the focus from them).
  const [cancelling, setCancelling] = useState(false);
  const [removeCartons, setRemoveCartons] = useState(false);
  const [moveStockBack, setMoveStockBack] = useState(false);
  // An item scan waiting for its anti-counterfeit code or collar barcode.
  const [pending, setPending] = useState<PendingItem | null>(null);
  // The card the next carton opened carries.
  const [cardId, setCardId] = useState<string | null>(null);
  // A scanner that sends twice before the first answer: one call at a time.
  const calling = useRef(false);
  // The last call got no answer (the network): nothing was saved.
  const lost = useRef(false);
  // The order on screen, read again when waiting pack scans apply.
  const shown = useRef<{ orderNo: string; waveNo: string | null; packPicked: boolean } | null>(null);
  shown.current = pack ? { orderNo: pack.order.orderNo, waveNo: byWave ? waveNo : null, packPicked } : null;
  const queue = useScanQueue(
    useCallback(async () => {
      const order = shown.current;
      if (!order) return;
      const answer = await api<PackAnswer>('/scanPack', { body: order, quiet: true }).catch(() => null);
      if (answer && shown.current?.orderNo === answer.order.orderNo) setPack(answer);
    }, []),
  );

  useEffect(() => {
    if (!rights.view) return;
    void api<{ rows: CodeRow[] }>('/pack/carton/type', { quiet: true })
      .then((answer) => setCartonTypes(answer.rows))
      .catch(() => undefined);
    void api<{ rows: CodeRow[] }>('/pack/scan/wgtUom', { quiet: true })
      .then((answer) => setUnits(answer.rows))
      .catch(() => undefined);
  }, [rights.view]);

  const tell = useCallback((tone: Tone, text: string) => {
    setFeedback({ tone, text });
    beep(tone);
  }, []);

  /**
   * Runs one call; its refusal is shown in the user's language with the error beep. A call that got
   * no answer from the server says the data is not saved (`lost`).
   */
  const run = async <T,>(work: () => Promise<T>): Promise<T | undefined> => {
    if (calling.current) return undefined;
    calling.current = true;
    lost.current = false;
    setBusy(true);
    try {
      return await work();
    } catch (error) {
      if (error instanceof ApiError) tell('error', messageOf(error));
      else {
        lost.current = true;
        tell('error', t('errors.NOT_SAVED'));
      }
      return undefined;
    } finally {
      calling.current = false;
      setBusy(false);
    }
  };

  const cartonOf = (answer: PackAnswer | null, id: number | null) => answer?.cartons.find((c) => c.id === id);
  const targetCarton = cartonOf(pack, target);
  // An order whose packing is checked complete (packed or partially packed) may have that cancelled.
  const checkCompleted = pack !== null && (pack.order.status === 'packed' || pack.order.status === 'partial_packed');
  // The pack list lists closed cartons: it prints once one holds something.
  const somethingPacked = pack !== null && pack.cartons.some((c) => c.status === 'closed' && c.lines.length > 0);

  /** After an answer: the carton to scan into stays, else the open one; without one the next carton is chosen. */
  const take = (answer: PackAnswer, keep: number | null) => {
    setPack(answer);
    const stays = keep !== null && answer.cartons.some((c) => c.id === keep) ? keep : (answer.openCarton?.id ?? null);
    setTarget(stays);
    return stays;
  };

  /**
   * A check-completed order is not packed again; the edit right may look at it to cancel its
   * check-complete. Answers the order, or null (the refusal told) when it is not check-completed.
   */
  const checkCompletedOrder = async (orderNo: string, refusal: unknown) => {
    const answer = await run(() => api<PackAnswer>('/scanPack', { body: { orderNo, waveNo: byWave ? waveNo : null, checkCompleted: true }, quiet: true }));
    if (!answer) return tell('error', messageOf(refusal));
    take(answer, null);
    setStep('order');
    tell('warning', t('packing.screen.cancelCcFirst', { orderNo: answer.order.orderNo }));
  };

  const startOrder = async (scanned: string) => {
    const orderNo = scanned.trim();
    let refusal: unknown = null;
    const answer = await run(() =>
      api<PackAnswer>('/scanPack', { body: { orderNo, waveNo: byWave ? waveNo : null, packPicked }, quiet: true }).catch((error: unknown) => {
        const code = (error as { body?: { code?: string } }).body?.code;
        if (!rights.edit || (code !== 'PACK_CANCEL_CHECK_COMPLETE_FIRST' && code !== 'ORDER_STATUS_ERROR')) throw error;
        refusal = error;
        return undefined;
      }),
    );
    if (refusal) return checkCompletedOrder(orderNo, refusal);
    if (!answer) return !lost.current;
    const open = take(answer, null);
    setQty(null);
    setRemoving(false);
    tell('success', t('packing.screen.orderStarted', { orderNo: answer.order.orderNo }));
    // Looking only: the order stays in view and the next order can be scanned.
    if (!rights.edit) setStep('order');
    else setStep(open === null ? 'carton' : 'item');
  };

  const openCarton = async (cartonType: string | null) => {
    if (!pack || !rights.edit) return;
    const answer = await run(() =>
      api<PackAnswer>('/pack/scan/open', { body: { soId: pack.order.id, cartonType, packPicked, ...(cardId ? { cardId } : {}) }, quiet: true }).catch((error: unknown) => {
        // A card still on another open carton is replaced: the next one is scanned.
        if (error instanceof ApiError && error.body.code === 'CARD_REPLACE') setCardId(null);
        throw error;
      }),
    );
    if (!answer?.openCarton) return !lost.current;
    setCardId(null);
    take(answer, answer.openCarton.id);
    tell('success', t('packing.screen.cartonOpened', { cartonNo: answer.openCarton.cartonNo }));
    setStep('item');
  };

  const scanCartonType = (scanned: string) => {
    const code = scanned.trim();
    const carton = cartonOfCode(code);
    if (carton) return chooseCarton(carton);
    const known = cartonTypes.find((c) => c.code.toLowerCase() === code.toLowerCase());
    if (!known) return tell('error', t('packing.screen.unknownCartonType', { code }));
    return openCarton(known.code);
  };

  /** The order's carton a scan names, by its number or its SSCC. */
  const cartonOfCode = (code: string) => pack?.cartons.find((c) => c.cartonNo === code || (c.sscc !== null && c.sscc === code));

  /** A scanned carton number makes that carton the one scans go into; a closed one takes nothing. */
  const chooseCarton = (carton: PackCarton) => {
    setTarget(carton.id);
    setStep('item');
    if (carton.status === 'open') tell('success', t('packing.screen.cartonChosen', { cartonNo: carton.cartonNo }));
    else tell('warning', t('packing.screen.cartonChosenClosed', { cartonNo: carton.cartonNo }));
  };

  const scanItem = async (scanned: string) => {
    if (!pack) return;
    const code = scanned.trim();
    const carton = cartonOfCode(code);
    if (carton) return chooseCarton(carton);
    if (target === null) return tell('error', t('packing.screen.noCarton'));
    // A quantity counts for one scan, taken or refused.
    setQty(null);
    return sendItem({ barcode: code, qty });
  };

  /**
   * Packs (or takes out) a scanned item. When its SKU asks for an anti-counterfeit code or a collar
   * barcode the scan waits for it in a step of its own; a wrong code or collar is asked again, any
   * other refusal goes back to the item scan. Answers false when the call got no answer.
   */
  const sendItem = async (item: PendingItem): Promise<boolean> => {
    if (!pack || target === null) return true;
    const before = cartonOf(pack, target);
    const url = removing ? '/pack/scan/remove' : '/pack/scan/sku';
    const outcome: { asks?: 'code' | 'collar'; refusal?: string; message?: string } = {};
    const body = {
      cartonId: target,
      barcode: item.barcode,
      ...(item.qty ? { qty: item.qty } : {}),
      ...(!removing && item.antiCounterfeitCode ? { antiCounterfeitCode: item.antiCounterfeitCode } : {}),
      ...(!removing && item.collarBarcode ? { collarBarcode: item.collarBarcode } : {}),
    };
    // A scan that packs goes through the offline queue with its idempotency key: it waits there
    // when the browser is offline, when pack scans wait already, and when the call gets no answer
    // (a dead spot while the browser still thinks it is online). A refusal of the server is shown.
    const label = `${before?.cartonNo ?? ''} · ${item.barcode}${item.qty ? ` × ${item.qty}` : ''}`;
    const send: () => Promise<PackAnswer | null> = removing
      ? () => api<PackAnswer>(url, { body, quiet: true })
      : () => sendScan<PackAnswer>({ flow: 'pack', label, path: url, body }).then((outcome) => (outcome.queued ? null : outcome.answer));
    const answer = await run(() =>
      send().catch((error: unknown) => {
        const code = error instanceof ApiError ? error.body.code : undefined;
        if (code === 'PACK_ANTI_COUNTERFEIT_REQUIRED' || code === 'PACK_COLLAR_REQUIRED') {
          outcome.asks = code === 'PACK_ANTI_COUNTERFEIT_REQUIRED' ? 'code' : 'collar';
          outcome.message = messageOf(error);
          return undefined;
        }
        outcome.refusal = code;
        throw error;
      }),
    );
    if (answer === null) {
      setPending(null);
      setStep('item');
      tell('warning', t('inb.offline.stored'));
      return true;
    }
    if (outcome.asks) {
      setPending(item);
      setStep(outcome.asks);
      tell('warning', outcome.message ?? '');
      return true;
    }
    if (!answer) {
      if (lost.current) return false;
      // A code already packed, or a collar that does not match, is scanned again; anything else ends the item.
      const again = (step === 'code' && outcome.refusal === 'PACK_ANTI_COUNTERFEIT_USED') || (step === 'collar' && outcome.refusal === 'PACK_COLLAR_MISMATCH');
      if (!again) {
        setPending(null);
        if (step === 'code' || step === 'collar') setStep('item');
      }
      return true;
    }
    setPending(null);
    setStep('item');
    take(answer, target);
    const changes = cartonChange(before, cartonOf(answer, target));
    const text = changes.map((c) => `${c.skuCode} ${c.qty > 0 ? '+' : ''}${c.qty}`).join(', ');
    tell('success', t(removing ? 'packing.screen.removed' : 'packing.screen.packed', { items: text, cartonNo: before?.cartonNo ?? '' }));
    return true;
  };

  /** The second scan of an item: its anti-counterfeit code, or its collar barcode. */
  const scanSecond = (scanned: string) => {
    if (!pending) return;
    const code = scanned.trim();
    if (step === 'code') return sendItem({ ...pending, antiCounterfeitCode: code });
    return sendItem({ ...pending, collarBarcode: code });
  };

  const enterQty = (typed: string) => {
    const value = parseQty(typed);
    if (value === null) return tell('error', t('errors.QTY_NOT_POSITIVE'));
    setQty(value);
    setFeedback(null);
    setStep('item');
  };

  const closeCarton = async (values: CloseValues) => {
    if (!targetCarton) return;
    const answer = await run(() => api<PackAnswer & { label?: { jobId: number; printerName: string } | null }>('/pack/scan/close', { body: { cartonId: targetCarton.id, ...values }, quiet: true }));
    if (!answer) return;
    take(answer, null);
    const closed = t('packing.screen.cartonClosed', { cartonNo: targetCarton.cartonNo });
    // The label printed on its own when the warehouse has a printer for automatic carton labels.
    tell('success', answer.label ? `${closed} ${t('packing.screen.labelSent', { printer: answer.label.printerName })}` : closed);
    setStep('carton');
  };

  /** Opens the order's pack list (PDF): its closed cartons and what each holds. */
  const printPackList = async () => {
    if (!pack) return;
    // Opened before the answer arrives so that the browser does not block it as a pop-up.
    const view = window.open('', '_blank');
    try {
      const file = await fetchBlob('/pack/list.pdf', { query: { soId: pack.order.id }, quiet: true });
      const url = URL.createObjectURL(file.blob);
      if (view) view.location.href = url;
      else window.location.assign(url);
    } catch (error) {
      view?.close();
      tell('error', messageOf(error));
    }
  };

  const checkComplete = async () => {
    if (!pack || !rights.edit || calling.current) return;
    const picked = pack.lines.reduce((sum, l) => sum + amount(l.picked), 0);
    const packed = pack.lines.reduce((sum, l) => sum + amount(l.packed), 0);
    const partial = pack.order.status !== 'picked' || pack.lines.some((l) => leftToPack(l) > 0);
    const ok = await showConfirm({
      id: 'pack-complete-confirm',
      content: t(partial ? 'packing.screen.completePartialAsk' : 'packing.screen.completeAsk', { orderNo: pack.order.orderNo, packed, picked }),
      okText: t('packing.screen.checkComplete'),
      cancelText: t('ui.engine.cancel'),
    });
    if (!ok) return;
    const answer = await run(() => api<PackAnswer>('/scanPack/closeOrder', { body: { soId: pack.order.id }, quiet: true }));
    if (!answer) return;
    take(answer, null);
    tell(answer.order.status === 'packed' ? 'success' : 'warning', t('packing.screen.completed', { orderNo: answer.order.orderNo, status: t(`outbound.status.${answer.order.status}`) }));
    setStep('order');
  };

  /** Queues the ship notice (EDI) of the check-completed order now, and says whether one was queued. */
  const sendEdi = async () => {
    if (!pack || !rights.edit || calling.current) return;
    const answer = await run(() => api<{ messageId: number | null; queued: boolean }>('/packHeader/extender/scanPackSendEdi', { body: { soId: pack.order.id }, quiet: true }));
    if (!answer) return;
    if (answer.queued) tell('success', t('packing.screen.sendEdiDone', { orderNo: pack.order.orderNo, messageId: answer.messageId ?? '' }));
    else tell('warning', t('packing.screen.sendEdiNone', { orderNo: pack.order.orderNo }));
  };

  /** Cancels the order's check-complete as the two questions were answered, after a confirmation. */
  const cancelCheckComplete = async () => {
    if (!pack || !rights.edit || calling.current) return;
    const moveBack = removeCartons && moveStockBack;
    const ok = await showConfirm({
      id: 'pack-cancel-cc-confirm',
      content: t(removeCartons ? (moveBack ? 'packing.screen.cancelCcAskMove' : 'packing.screen.cancelCcAskRemove') : 'packing.screen.cancelCcAskKeep', { orderNo: pack.order.orderNo }),
      okText: t('packing.screen.cancelCc'),
      cancelText: t('ui.engine.cancel'),
    });
    if (!ok) return;
    const soId = pack.order.id;
    const answer = await run(() =>
      api<{ order: { id: number; orderNo: string; status: string }; removedCartons: string[] }>('/so/cancelCheckComplete', { body: { soId, removeCartons, moveStockBack: moveBack }, quiet: true }),
    );
    if (!answer) return;
    setCancelling(false);
    setPack(null);
    setTarget(null);
    tell('success', t('packing.screen.cancelCcDone', { orderNo: answer.order.orderNo, status: t(`outbound.status.${answer.order.status}`), count: answer.removedCartons.length }));
    setStep(byWave ? 'wave' : 'order');
  };

  const toClose = () => {
    if (!targetCarton || !rights.edit) return;
    if (targetCarton.status !== 'open') return tell('error', t('errors.CARTON_CLOSED'));
    setStep('close');
  };

  const toNewCarton = () => {
    if (!pack || !rights.edit) return;
    setStep('carton');
  };

  /** Reopens a closed carton of the order to append to it, after a confirmation; it keeps its SSCC. */
  const reopen = async (carton: PackCarton) => {
    if (!pack || !rights.edit || calling.current) return;
    const ok = await showConfirm({
      id: 'pack-reopen-confirm',
      content: t('packing.screen.reopenAsk', { cartonNo: carton.cartonNo, sscc: carton.sscc ?? '' }),
      okText: t('packing.screen.reopenCarton'),
      cancelText: t('ui.engine.cancel'),
    });
    if (!ok) return;
    return reopenCall({ soId: pack.order.id, cartonId: carton.id });
  };

  const reopenCall = async (body: { soId: number; cartonId?: number; carton?: string }): Promise<boolean> => {
    const answer = await run(() => api<PackAnswer & { reopened: PackCarton }>('/pack/scan/reopen', { body, quiet: true }));
    if (!answer) return !lost.current;
    take(answer, answer.reopened.id);
    tell('success', t('packing.screen.reopened', { cartonNo: answer.reopened.cartonNo }));
    setStep('item');
    return true;
  };

  /** F6: the chosen closed carton is reopened; without one, the carton to reopen is scanned. */
  const toReopen = () => {
    if (!pack || !rights.edit) return;
    if (targetCarton && targetCarton.status === 'closed') return void reopen(targetCarton);
    setFeedback(null);
    setStep('reopen');
  };

  /**
   * A scanned carton number or SSCC to reopen: a closed carton of the order is reopened after the
   * confirmation, an open one is chosen; any other the server answers (another order's SSCC holds
   * no mixed-pack orders).
   */
  const scanReopen = async (scanned: string) => {
    if (!pack) return;
    const code = scanned.trim();
    const mine = cartonOfCode(code);
    if (mine && mine.status === 'open') return chooseCarton(mine);
    if (mine) return reopen(mine);
    return reopenCall({ soId: pack.order.id, carton: code });
  };

  /** F7: the card the next carton carries is scanned. */
  const toCard = () => {
    if (!pack || !rights.edit) return;
    setFeedback(null);
    setStep('card');
  };

  const scanCard = (scanned: string) => {
    const card = scanned.trim();
    setCardId(card);
    tell('success', t('packing.screen.cardSet', { cardId: card }));
    setStep('carton');
  };

  /** Escape: one step back. */
  const back = () => {
    setFeedback(null);
    if (step === 'qty' || step === 'close') return setStep(pack ? 'item' : 'order');
    if (step === 'code' || step === 'collar') {
      setPending(null);
      return setStep('item');
    }
    if (step === 'card') return setStep('carton');
    if (step === 'reopen') return setStep(target !== null ? 'item' : 'carton');
    if (step === 'item' || step === 'carton') {
      setQty(null);
      setRemoving(false);
      return setStep('order');
    }
    if (step === 'order' && byWave) {
      setWaveNo(null);
      return setStep('wave');
    }
  };

  // The function keys work whatever has the focus, except in a popup.
  useWindowKeys((event) => {
    if (document.querySelector('.ant-modal-wrap')) return;
    const active = pack !== null && pack.order.status !== 'packed' && (step === 'item' || step === 'carton' || step === 'qty');
    if (!active) return;
    if (event.key === KEY_CLOSE) toClose();
    else if (event.key === KEY_NEW_CARTON) toNewCarton();
    else if (event.key === KEY_COMPLETE) void checkComplete();
    else if (event.key === KEY_REOPEN) toReopen();
    else if (event.key === KEY_CARD && step === 'carton') toCard();
    else return;
    event.preventDefault();
  });

  const scanKeys = (key: string): boolean => {
    if (step !== 'item' || !rights.edit) return false;
    if (key === '+') {
      setStep('qty');
      return true;
    }
    if (key === '-') {
      setRemoving((was) => !was);
      return true;
    }
    return false;
  };

  const flow = (
    <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="pack-flow" data-step={step}>
      {step === 'order' && !pack && (
        <Segmented
          block
          data-testid="pack-mode"
          value={byWave ? 'wave' : 'order'}
          options={[
            { value: 'order', label: t('packing.screen.byOrder') },
            { value: 'wave', label: t('packing.screen.byWave') },
          ]}
          onChange={(value) => {
            const wave = value === 'wave';
            setByWave(wave);
            setWaveNo(null);
            setStep(wave ? 'wave' : 'order');
          }}
        />
      )}
      {step === 'wave' && (
        <PackScanField
          key="wave"
          label={t('packing.screen.scanWave')}
          onEscape={() => {
            setByWave(false);
            setStep('order');
          }}
          onScan={(text) => {
            setWaveNo(text.trim());
            setFeedback(null);
            beep('success');
            setStep('order');
          }}
        />
      )}
      {step === 'order' && (
        <>
          {byWave && waveNo && (
            <Typography.Text data-testid="pack-wave">
              {t('packing.screen.wave')}: <strong>{waveNo}</strong>
            </Typography.Text>
          )}
          <PackScanField key="order" label={t('packing.screen.scanOrder')} disabled={busy || cancelling} onEscape={back} onScan={(text) => void startOrder(text)} />
          <Checkbox data-testid="pack-picked-only" checked={packPicked} onChange={(event) => setPackPicked(event.target.checked)}>
            {t('packing.screen.packPicked')}
          </Checkbox>
        </>
      )}
      {step === 'carton' && (
        <>
          {cardId && (
            <Tag color="purple" data-testid="pack-card" style={{ fontSize: 16, padding: 4 }}>
              {t('packing.screen.card', { cardId })}
            </Tag>
          )}
          <PackScanField key="carton" label={t('packing.screen.scanCartonType')} disabled={busy || !rights.edit} onEscape={back} onScan={scanCartonType} />
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(96px, 1fr))', gap: 8 }}>
            {cartonTypes.map((type) => (
              <Button key={type.code} style={BIG} disabled={busy || !rights.edit} data-testid={`pack-carton-type-${type.code}`} onClick={() => void openCarton(type.code)}>
                {type.code}
                <span style={{ fontSize: 12, marginLeft: 4 }}>{type.description}</span>
              </Button>
            ))}
            <Button style={BIG} disabled={busy || !rights.edit} data-testid="pack-carton-type-none" onClick={() => void openCarton(null)}>
              {t('packing.screen.noType')}
            </Button>
          </div>
        </>
      )}
      {(step === 'item' || step === 'qty') && targetCarton && (
        <div data-testid="pack-target" data-status={targetCarton.status} style={{ fontSize: 18 }}>
          {t('packing.screen.into')}: <strong>{targetCarton.cartonNo}</strong> {targetCarton.cartonType ? `· ${targetCarton.cartonType}` : ''}{' '}
          <Tag color={targetCarton.status === 'open' ? 'green' : 'default'}>{t(`packing.screen.cartonStatus.${targetCarton.status}`)}</Tag>
        </div>
      )}
      {step === 'item' && (
        <>
          {(qty || removing) && (
            <Space wrap>
              {removing && (
                <Tag color="red" data-testid="pack-removing" style={{ fontSize: 16, padding: 4 }}>
                  {t('packing.screen.removing')}
                </Tag>
              )}
              {qty && (
                <Tag color="blue" data-testid="pack-next-qty" style={{ fontSize: 16, padding: 4 }}>
                  {t('packing.screen.nextQty', { qty })}
                </Tag>
              )}
            </Space>
          )}
          <PackScanField key="item" label={t(removing ? 'packing.screen.scanRemove' : 'packing.screen.scanItem')} disabled={busy || !rights.edit} onEscape={back} onKey={scanKeys} onScan={scanItem} />
        </>
      )}
      {(step === 'code' || step === 'collar') && pending && (
        <>
          <Typography.Text data-testid="pack-pending">{t('packing.screen.pendingItem', { barcode: pending.barcode })}</Typography.Text>
          <PackScanField key={step} label={t(step === 'code' ? 'packing.screen.scanAntiCounterfeit' : 'packing.screen.scanCollar')} disabled={busy} onEscape={back} onScan={scanSecond} />
        </>
      )}
      {step === 'card' && <PackScanField key="card" label={t('packing.screen.scanCard')} onEscape={back} onScan={scanCard} />}
      {step === 'reopen' && <PackScanField key="reopen" label={t('packing.screen.scanReopen')} disabled={busy} onEscape={back} onScan={scanReopen} />}
      {step === 'qty' && <PackScanField key="qty" inputMode="decimal" label={t('packing.screen.enterQty')} onEscape={back} onScan={enterQty} />}
      {step === 'close' && targetCarton && (
        <CloseCartonForm carton={targetCarton} cartonTypes={cartonTypes} units={units} busy={busy} narrow={narrow} onSubmit={(values) => void closeCarton(values)} onCancel={back} />
      )}
      <FeedbackLine feedback={feedback} />
      <OfflineQueueView state={queue} showWaiting="pack" />
      {pack && (
        <Button style={BIG} data-testid="pack-list" disabled={busy || !somethingPacked} onClick={() => void printPackList()}>
          {t('packing.screen.packList')}
        </Button>
      )}
      {pack && rights.edit && checkCompleted && (
        <Space direction="vertical" data-testid="pack-cancel-cc-panel" style={{ width: '100%' }}>
          {!cancelling ? (
            <Space wrap>
              <Button style={BIG} type="primary" data-testid="pack-send-edi" disabled={busy} onClick={() => void sendEdi()}>
                {t('packing.screen.sendEdi')}
              </Button>
              <Button style={BIG} danger data-testid="pack-cancel-cc" onClick={() => setCancelling(true)}>
                {t('packing.screen.cancelCc')}
              </Button>
            </Space>
          ) : (
            <div
              onKeyDown={(event) => {
                if (event.key === 'Escape') setCancelling(false);
              }}
            >
              <Checkbox data-testid="pack-cancel-cc-remove" style={{ fontSize: 16 }} checked={removeCartons} autoFocus onChange={(event) => setRemoveCartons(event.target.checked)}>
                {t('packing.screen.cancelCcRemove')}
              </Checkbox>
              <Checkbox data-testid="pack-cancel-cc-move" style={{ fontSize: 16 }} checked={removeCartons && moveStockBack} disabled={!removeCartons} onChange={(event) => setMoveStockBack(event.target.checked)}>
                {t('packing.screen.cancelCcMove')}
              </Checkbox>
              <Space wrap style={{ marginTop: 8 }}>
                <Button style={BIG} danger type="primary" data-testid="pack-cancel-cc-ok" disabled={busy} onClick={() => void cancelCheckComplete()}>
                  {t('packing.screen.cancelCc')}
                </Button>
                <Button style={BIG} data-testid="pack-cancel-cc-back" onClick={() => setCancelling(false)}>
                  {t('packing.screen.back')} [Esc]
                </Button>
              </Space>
            </div>
          )}
        </Space>
      )}
      {!rights.edit && rights.view && <Alert type="info" showIcon message={t('packing.screen.viewOnly')} />}
      {pack && rights.edit && step !== 'close' && (
        <div style={{ display: 'grid', gridTemplateColumns: narrow ? 'repeat(2, minmax(0, 1fr))' : 'repeat(4, 1fr)', gap: 8 }}>
          {step === 'item' && (
            <>
              <Button style={BIG} data-testid="pack-qty" onClick={() => setStep('qty')}>
                {t('packing.screen.qtyButton')} [+]
              </Button>
              <Button style={BIG} data-testid="pack-remove-mode" danger={removing} onClick={() => setRemoving((was) => !was)}>
                {t('packing.screen.removeButton')} [-]
              </Button>
            </>
          )}
          <Button style={BIG} data-testid="pack-close-carton" disabled={!targetCarton || targetCarton.status !== 'open'} onClick={toClose}>
            {t('packing.screen.closeCarton')} [{KEY_CLOSE}]
          </Button>
          <Button style={BIG} data-testid="pack-new-carton" onClick={toNewCarton}>
            {t('packing.screen.newCarton')} [{KEY_NEW_CARTON}]
          </Button>
          <Button style={WRAP} data-testid="pack-reopen" onClick={toReopen}>
            {t('packing.screen.reopenCarton')} [{KEY_REOPEN}]
          </Button>
          {step === 'carton' && (
            <Button style={WRAP} data-testid="pack-card-button" onClick={toCard}>
              {t('packing.screen.cardButton')} [{KEY_CARD}]
            </Button>
          )}
          <Button style={BIG} type="primary" data-testid="pack-complete" onClick={() => void checkComplete()}>
            {t('packing.screen.checkComplete')} [{KEY_COMPLETE}]
          </Button>
          <Button
            style={BIG}
            data-testid="pack-cancel"
            onClick={() => {
              setFeedback(null);
              setPack(null);
              setTarget(null);
              setQty(null);
              setRemoving(false);
              setStep(byWave ? 'wave' : 'order');
            }}
          >
            {t('packing.screen.cancel')} [Esc]
          </Button>
        </div>
      )}
    </Space>
  );

  const details = pack && <PackDetails pack={pack} target={target} narrow={narrow} onChoose={(carton) => chooseCarton(carton)} />;
  return <ScanScreenLayout testId="pack-screen" title={t('packing.screen.title')} narrow={narrow} flow={flow} details={details} />;
}

/** The order with its lines (what is left to pack) and its cartons with what each holds. */
function PackDetails({ pack, target, narrow, onChoose }: { pack: PackAnswer; target: number | null; narrow: boolean; onChoose: (carton: PackCarton) => void }) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="pack-details">
      <div style={{ fontSize: 16 }}>
        <strong data-testid="pack-order-no">{pack.order.orderNo}</strong>
        {pack.order.waveNo ? ` · ${pack.order.waveNo}` : ''} ·{' '}
        <Tag data-testid="pack-order-status" data-status={pack.order.status} color={pack.order.status === 'packed' ? 'green' : pack.order.status === 'partial_packed' ? 'orange' : 'blue'}>
          {t(`outbound.status.${pack.order.status}`)}
        </Tag>
      </div>
      <Table
        data-testid="pack-lines"
        size="small"
        pagination={false}
        rowKey="lineId"
        dataSource={pack.lines}
        onRow={(line) => ({ 'data-testid': `pack-line-${line.lineNo}`, 'data-left': leftToPack(line) }) as HTMLAttributes<HTMLElement>}
        columns={[
          ...(narrow ? [] : [{ title: '#', dataIndex: 'lineNo', width: 48 }]),
          { title: t('packing.screen.sku'), dataIndex: 'skuCode', ellipsis: true },
          ...(narrow ? [] : [{ title: t('packing.screen.ordered'), dataIndex: 'ordered', align: 'right' as const }]),
          { title: t('packing.screen.picked'), dataIndex: 'picked', align: 'right' as const },
          { title: t('packing.screen.packedQty'), dataIndex: 'packed', align: 'right' as const },
          {
            title: t('packing.screen.left'),
            key: 'left',
            align: 'right' as const,
            render: (_: unknown, line) => {
              const left = leftToPack(line);
              return <strong style={{ color: left > 0 ? '#d46b08' : '#389e0d' }}>{left}</strong>;
            },
          },
        ]}
      />
      <Typography.Text strong>{t('packing.screen.cartons', { count: pack.cartons.length })}</Typography.Text>
      {pack.cartons.length === 0 && <Typography.Text type="secondary">{t('packing.screen.noCartons')}</Typography.Text>}
      <div style={{ display: 'grid', gridTemplateColumns: narrow ? '1fr' : 'repeat(auto-fill, minmax(220px, 1fr))', gap: 8 }}>
        {pack.cartons.map((carton) => (
          <div
            key={carton.id}
            data-testid={`pack-carton-${carton.cartonNo}`}
            data-status={carton.status}
            onClick={() => onChoose(carton)}
            style={{ border: `2px solid ${carton.id === target ? '#1677ff' : '#d9d9d9'}`, borderRadius: 6, padding: 8, cursor: 'pointer' }}
          >
            <div>
              <strong>{carton.cartonNo}</strong> {carton.cartonType ? `· ${carton.cartonType} ` : ''}
              <Tag color={carton.status === 'open' ? 'green' : 'default'}>{t(`packing.screen.cartonStatus.${carton.status}`)}</Tag>
            </div>
            {carton.lines.map((line) => (
              <div key={line.soLineId} data-testid="pack-carton-line">
                {line.skuCode} × {line.qty}
              </div>
            ))}
            {carton.status === 'closed' && (
              <div style={{ fontSize: 12, color: '#666' }}>
                {carton.grossWeight}/{carton.netWeight} {carton.weightUom}
                {carton.length ? ` · ${carton.length}×${carton.width ?? ''}×${carton.height ?? ''}` : ''}
              </div>
            )}
          </div>
        ))}
      </div>
    </Space>
  );
}
