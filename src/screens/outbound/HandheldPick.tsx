import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { looksLikeGs1, parseGs1 } from '../../common/gs1';
import { api, ApiError } from '../../app/public';
import { OfflineQueueView, useScanQueue } from '../inbound/OfflineQueue';
import { sendScan } from '../inbound/offline-queue';
import { BIG, beep, FeedbackLine, HandheldFrame, messageOf, ScanField, type Feedback } from '../inbound/handheld';
import { leftToPick, type ConfirmPickAnswer, type PickTasksAnswer, type PickTaskView } from '../../common/outbound-api';

type Step =
  | { kind: 'list' }
  | { kind: 'location'; task: PickTaskView }
  | { kind: 'sku'; task: PickTaskView }
  | { kind: 'qty'; task: PickTaskView; sku: string }
  | { kind: 'lpn'; task: PickTaskView; sku: string; qty: number }
  | { kind: 'reason'; task: PickTaskView; sku: string; qty: number; lpn: string }
  | { kind: 'rest'; task: PickTaskView; sku: string; qty: number; lpn: string; reason: string };

/**
 * Handheld picking (360x640, keyboard-wedge scanner): the open tasks in zone and location order;
 * scan the location, the SKU (code, UPC or GS1 barcode), the quantity and the LPN or tote. Less
 * than the task asks is a short pick and asks for a reason, then, when the SKU is in stock in other
 * locations, whether to give the rest back or find it elsewhere (Enter: find it elsewhere); more
 * is refused by the server. When finding it elsewhere put stock on hold at the short location, the
 * picker reads exactly what was held and the count that settles it, until the next pick.
 *
 * Through a Wi-Fi dead spot the confirmations wait in the offline queue (docs/handheld.md): the
 * picker goes on, the list shows what is left after them, and they are sent in order once the
 * connection is back; what the server refuses then is listed for the picker to acknowledge.
 */
export default function HandheldPick() {
  const { t } = useTranslation();
  const [tasks, setTasks] = useState<PickTaskView[]>([]);
  const [step, setStep] = useState<Step>({ kind: 'list' });
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  // What the last short pick put on hold, as the server told it in the picker's language.
  const [held, setHeld] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A scanner that reads the tote twice sends a second confirm before the first answers: one at a time.
  const confirming = useRef(false);

  const load = useCallback(async () => {
    // Offline the list stays as it is, less what the waiting scans picked.
    if (!navigator.onLine) return;
    try {
      const answer = await api<PickTasksAnswer>('/pick/tasks', { body: { openOnly: true }, quiet: true });
      setTasks(answer.tasks);
    } catch (error) {
      setFeedback({ tone: 'error', text: messageOf(error) });
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);
  const queue = useScanQueue(load);

  const fail = (text: string) => {
    setFeedback({ tone: 'error', text });
    beep('error');
  };

  const scanLocation = (task: PickTaskView, scanned: string) => {
    if (scanned.trim() !== task.location_code) return fail(t('errors.PICK_WRONG_LOCATION', { location: task.location_code }));
    beep('success');
    setFeedback(null);
    setStep({ kind: 'sku', task });
  };

  const scanQty = (task: PickTaskView, sku: string, scanned: string) => {
    // Digits with up to four decimals only: a scanned barcode (1e3, 0x10) is no quantity.
    const text = scanned.trim().replace(',', '.');
    const qty = /^\d{1,12}(\.\d{1,4})?$/.test(text) ? Number(text) : NaN;
    if (!Number.isFinite(qty)) return fail(t('errors.QTY_NOT_POSITIVE'));
    if (qty > leftToPick(task)) return fail(t('errors.OVER_PICK', { qty: leftToPick(task) }));
    setFeedback(null);
    if (qty === 0) setStep({ kind: 'reason', task, sku, qty, lpn: '' });
    else setStep({ kind: 'lpn', task, sku, qty });
  };

  const confirm = async (task: PickTaskView, sku: string, qty: number, lpn: string, reason: string | null, reallocate = false) => {
    if (confirming.current) return;
    confirming.current = true;
    setBusy(true);
    try {
      const outcome = await sendScan<ConfirmPickAnswer>({
        flow: 'pick',
        label: `${task.order_no}/${task.line_no} · ${task.location_code} · ${task.sku_code} × ${qty}`,
        path: '/pick/confirm',
        body: { taskId: task.id, locationCode: task.location_code, sku, qty: String(qty), toLpn: lpn || null, shortReason: reason, reallocate },
      });
      if (outcome.queued) {
        setFeedback({ tone: 'warning', text: t('inb.offline.stored') });
        beep('warning');
        // A short pick ends the task; otherwise what is left of it after the waiting scan stays to pick.
        setTasks((list) =>
          list.map((x) => (x.id === task.id ? { ...x, picked_qty: String(Number(x.picked_qty) + qty) } : x)).filter((x) => x.id !== task.id || (!reason && leftToPick(x) > 0)),
        );
        setStep({ kind: 'list' });
        return;
      }
      const answer = outcome.answer;
      const done = t('outbound.pick.done', { sku: task.sku_code, qty, order: task.order_no, status: t(`outbound.status.${answer.orderStatus}`) });
      const found = !reallocate
        ? ''
        : answer.newTaskIds.length > 0
          ? t('outbound.pick.foundElsewhere', { qty: Number(answer.reallocatedQty), tasks: answer.newTaskIds.length })
          : t('outbound.pick.notFoundElsewhere');
      setFeedback({ tone: reason ? 'warning' : 'success', text: found ? `${done} ${found}` : done });
      setHeld(answer.heldMessage);
      beep(reason ? 'warning' : 'success');
      setStep({ kind: 'list' });
      await load();
    } catch (error) {
      fail(messageOf(error));
      // A task ended or undone meanwhile (its order unallocated, cancelled or closed) is gone from the list.
      if (error instanceof ApiError && (error.body.code === 'PICK_TASK_CLOSED' || error.body.code === 'PICK_TASK_STALE')) {
        setStep({ kind: 'list' });
        await load();
      } else setStep({ kind: 'sku', task });
    } finally {
      confirming.current = false;
      setBusy(false);
    }
  };

  const scanLpn = (task: PickTaskView, sku: string, qty: number, scanned: string) => {
    const lpn = scanned.trim();
    if (qty < leftToPick(task)) {
      setFeedback({ tone: 'warning', text: t('outbound.pick.shortAsk', { qty: leftToPick(task) - qty }) });
      beep('warning');
      setStep({ kind: 'reason', task, sku, qty, lpn });
      return;
    }
    void confirm(task, sku, qty, lpn, null);
  };

  const enterReason = (task: PickTaskView, sku: string, qty: number, lpn: string, text: string) => {
    const reason = text.trim();
    // Only asked when there is somewhere else to look; otherwise the rest is given back.
    if (Number(task.other_available) > 0) {
      setFeedback({ tone: 'warning', text: t('outbound.pick.restAsk', { qty: leftToPick(task) - qty }) });
      setStep({ kind: 'rest', task, sku, qty, lpn, reason });
      return;
    }
    void confirm(task, sku, qty, lpn, reason);
  };

  // Escape in any scan field starts over (a handheld has no mouse), as the Start over button.
  const startOver = () => {
    if (confirming.current) return;
    setFeedback(null);
    setStep({ kind: 'list' });
  };

  const current = step.kind === 'list' ? null : step.task;
  return (
    <HandheldFrame testId="pick-handheld" title={t('outbound.pick.handheldTitle')}>
      {current && (
        <div data-testid="pick-task" style={{ fontSize: 16 }}>
          <div>
            {current.wave_no ? `${current.wave_no} · ` : ''}
            {current.order_no}/{current.line_no}
          </div>
          <div data-testid="pick-location" style={{ fontSize: 22, fontWeight: 600 }}>
            {current.location_code}
            {current.lpn ? ` · ${current.lpn}` : ''}
          </div>
          <div>
            <strong>{current.sku_code}</strong> · {current.sku_description}
          </div>
          <div data-testid="pick-qty" style={{ fontSize: 22, fontWeight: 600 }}>
            {t('outbound.pick.toPick', { qty: leftToPick(current) })}
          </div>
          <div>{[current.lot_no, current.expiry_date].filter(Boolean).join(' · ')}</div>
        </div>
      )}
      {step.kind === 'location' && <ScanField key="location" testId="scan-field" onEscape={startOver} label={t('outbound.pick.scanLocation')} onScan={(text) => scanLocation(step.task, text)} />}
      {step.kind === 'sku' && (
        <ScanField
          key="sku"
          testId="scan-field"
          onEscape={startOver}
          label={t('outbound.pick.scanSku')}
          onScan={(text) => {
            // A GS1 barcode must parse; its GTIN is matched against the SKU's barcodes by the server.
            if (looksLikeGs1(text) && !parseGs1(text).ok) return fail(t('errors.BARCODE_FORMAT'));
            setFeedback(null);
            setStep({ kind: 'qty', task: step.task, sku: text.trim() });
          }}
        />
      )}
      {step.kind === 'qty' && <ScanField key="qty" testId="scan-field" onEscape={startOver} inputMode="decimal" label={t('outbound.pick.enterQty')} onScan={(text) => scanQty(step.task, step.sku, text)} />}
      {step.kind === 'lpn' && <ScanField key="lpn" testId="scan-field" onEscape={startOver} disabled={busy} label={t('outbound.pick.scanLpn')} onScan={(text) => scanLpn(step.task, step.sku, step.qty, text)} />}
      {step.kind === 'reason' && (
        <ScanField key="reason" testId="scan-field" onEscape={startOver} disabled={busy} label={t('outbound.pick.shortReason')} onScan={(text) => enterReason(step.task, step.sku, step.qty, step.lpn, text)} />
      )}
      {step.kind === 'rest' && (
        <RestChoice
          busy={busy}
          findLabel={t('outbound.pick.findElsewhere')}
          giveBackLabel={t('outbound.pick.giveBack')}
          onChoose={(reallocate) => void confirm(step.task, step.sku, step.qty, step.lpn, step.reason, reallocate)}
        />
      )}
      <OfflineQueueView state={queue} />
      <FeedbackLine feedback={feedback} />
      {held && <Alert data-testid="pick-held" type="warning" showIcon message={held} style={{ fontSize: 16 }} />}
      {step.kind === 'list' ? (
        <Space direction="vertical" style={{ width: '100%' }}>
          {tasks.length === 0 && <Typography.Text type="secondary">{t('outbound.pick.noTasks')}</Typography.Text>}
          {tasks.map((task) => (
            <Button
              key={task.id}
              block
              style={{ ...BIG, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }}
              data-testid={`pick-task-${task.id}`}
              onClick={() => {
                setFeedback(null);
                setStep({ kind: 'location', task });
              }}
            >
              {task.zone ? `${task.zone} · ` : ''}
              {task.location_code} · {task.sku_code} · {leftToPick(task)}
            </Button>
          ))}
        </Space>
      ) : (
        <Button block style={BIG} data-testid="handheld-back" onClick={() => setStep({ kind: 'list' })}>
          {t('outbound.pick.startOver')}
        </Button>
      )}
    </HandheldFrame>
  );
}

/**
 * After a short pick: find the rest elsewhere (the default, focused so that Enter takes it) or give
 * it back. The focus moves only after the Enter that submitted the reason is over: focused at once,
 * the button would receive that key press and choose by itself.
 */
function RestChoice(props: { busy: boolean; findLabel: string; giveBackLabel: string; onChoose: (reallocate: boolean) => void }) {
  const find = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const timer = window.setTimeout(() => find.current?.focus(), 0);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="pick-rest-choice">
      <Button ref={find} block type="primary" disabled={props.busy} style={BIG} data-testid="pick-find-elsewhere" onClick={() => props.onChoose(true)}>
        {props.findLabel}
      </Button>
      <Button block disabled={props.busy} style={BIG} data-testid="pick-give-back" onClick={() => props.onChoose(false)}>
        {props.giveBackLabel}
      </Button>
    </Space>
  );
}
