import { useCallback, useEffect, useState } from 'react';
import { Button, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { looksLikeGs1, parseGs1 } from '../../common/gs1';
import type { ConfirmPutawayAnswer, ConfirmPutawayRequest, PutawayTask as Task } from '../../common/inbound-api';
import { BIG, beep, FeedbackLine, HandheldFrame, messageOf, ScanField, useFeedback } from './handheld';
import * as calls from './inbound-calls';
import { sendScan } from './offline-queue';
import { OfflineQueueView, useScanQueue } from './OfflineQueue';

type Step =
  | { kind: 'pick' }
  | { kind: 'lpn'; task: Task }
  | { kind: 'location'; task: Task; lpn: string }
  | { kind: 'reason'; task: Task; lpn: string; locationCode: string };

/** A scanned LPN: the SSCC of a GS1-128 pallet label, or the code as scanned. */
function lpnOf(scanned: string): string {
  if (looksLikeGs1(scanned)) {
    const parsed = parseGs1(scanned);
    if (parsed.ok && parsed.data.sscc) return parsed.data.sscc;
  }
  return scanned.trim();
}

/**
 * Handheld putaway (360x640, keyboard-wedge scanner): scan the LPN, pallet or carton (or tap a
 * task), see the suggested location, scan the location; another location than the suggested one
 * asks for a reason. The quantity field (left empty: the whole task) puts away part of the task;
 * the rest stays open. The stock moves from the receiving location and the ASN follows. Through a
 * Wi-Fi dead spot the confirmations wait in the offline queue and are sent in order once the
 * connection is back (docs/handheld.md).
 */
export default function PutawayScreen() {
  const { t } = useTranslation();
  const [tasks, setTasks] = useState<Task[]>([]);
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const { feedback, setFeedback, tell, fail } = useFeedback();
  /** Part of the task to put away; empty for all of it. */
  const [qty, setQty] = useState('');

  /** Fetches the open tasks and shows them; answers them too. */
  const showTasks = useCallback(async () => {
    const fresh = await calls.putawayTasks();
    setTasks(fresh);
    return fresh;
  }, []);

  /** `showTasks`, a failure shown on the feedback line. */
  const load = useCallback(async () => {
    // Offline the list stays as it is, less what the waiting scans put away.
    if (!navigator.onLine) return;
    try {
      await showTasks();
    } catch (error) {
      setFeedback({ tone: 'error', text: messageOf(error) });
    }
  }, [showTasks, setFeedback]);

  useEffect(() => {
    void load();
  }, [load]);
  const queue = useScanQueue(load);

  const choose = (task: Task) => {
    setFeedback(null);
    setQty('');
    setStep(task.lpn === '' ? { kind: 'location', task, lpn: '' } : { kind: 'lpn', task });
  };

  const scanLpn = async (scanned: string) => {
    const code = lpnOf(scanned);
    try {
      const found = await calls.findPutawayTask(code);
      const task = (await showTasks()).find((candidate) => candidate.id === found.taskId);
      if (!task) return fail(t('errors.NO_RECORD'));
      beep('success');
      setFeedback(null);
      setQty('');
      setStep({ kind: 'location', task, lpn: task.lpn === '' ? '' : code });
    } catch (error) {
      fail(error);
    }
  };

  const confirm = async (task: Task, lpn: string, locationCode: string, reason: string | null) => {
    try {
      const part = qty.trim();
      const outcome = await sendScan<ConfirmPutawayAnswer>({
        flow: 'putaway',
        label: `${task.asn_no} · ${task.sku_code} × ${part || Number(task.qty)} → ${locationCode}`,
        path: '/putaway/confirm',
        body: { taskId: task.id, locationCode, lpn: lpn || null, reason, ...(part === '' ? {} : { qty: part }) } satisfies ConfirmPutawayRequest,
      });
      if (outcome.queued) {
        tell('warning', t('inb.offline.stored'));
        setQty('');
        setStep({ kind: 'pick' });
        // What is left of the task after the waiting scan stays in the list.
        setTasks((list) => list.map((x) => (x.id === task.id ? { ...x, qty: String(Number(x.qty) - Number(part || x.qty)) } : x)).filter((x) => Number(x.qty) > 0));
        return;
      }
      const answer = outcome.answer;
      const done = { sku: task.sku_code, qty: Number(answer.qty), location: answer.locationCode, status: t(`inb.status.${answer.status}`), left: Number(answer.left) };
      tell('success', Number(answer.left) > 0 ? t('inb.ui.putAwayPart', done) : t('inb.ui.putAway', done));
      setQty('');
      setStep({ kind: 'pick' });
      await load();
    } catch (error) {
      fail(error);
    }
  };

  const scanLocation = (task: Task, lpn: string, scanned: string) => {
    const code = scanned.trim();
    if (task.suggested_location && code !== task.suggested_location) {
      tell('warning', t('inb.ui.notSuggested', { location: task.suggested_location }));
      setStep({ kind: 'reason', task, lpn, locationCode: code });
      return;
    }
    void confirm(task, lpn, code, null);
  };

  const current = step.kind === 'pick' ? null : step.task;

  return (
    <HandheldFrame testId="putaway-screen" title={t('inb.ui.putawayTitle')}>
      {current && (
        <div data-testid="putaway-task" style={{ fontSize: 16 }}>
          <div>
            {current.asn_no} · <strong>{current.sku_code}</strong> · {Number(current.qty)}
            {Number(current.held_qty) > 0 ? ` (${t('inb.ui.held', { qty: Number(current.held_qty) })})` : ''}
          </div>
          <div>
            {t('inb.ui.from', { location: current.from_location })}
            {current.lpn ? ` · ${t('inb.field.lpn')} ${current.lpn}` : ''}
          </div>
          <div data-testid="putaway-suggested" style={{ fontSize: 22, fontWeight: 600 }}>
            {current.suggested_location ? t('inb.ui.suggested', { location: current.suggested_location }) : t('inb.ui.noSuggestion')}
          </div>
          <label style={{ display: 'block', marginTop: 8 }}>
            <div style={{ fontSize: 16, marginBottom: 4 }}>{t('inb.ui.putawayQty', { qty: Number(current.qty) })}</div>
            <Input
              data-testid="putaway-qty"
              size="large"
              style={BIG}
              inputMode="decimal"
              autoComplete="off"
              placeholder={String(Number(current.qty))}
              value={qty}
              onChange={(event) => setQty(event.target.value)}
            />
          </label>
        </div>
      )}
      {step.kind === 'pick' && <ScanField key="lpn-any" testId="scan-field" label={t('inb.ui.scanLpn')} onScan={(text) => void scanLpn(text)} />}
      {step.kind === 'lpn' && <ScanField key="lpn" testId="scan-field" label={t('inb.ui.scanLpn')} onScan={(text) => setStep({ kind: 'location', task: step.task, lpn: lpnOf(text) })} />}
      {step.kind === 'location' && <ScanField key="location" testId="scan-field" label={t('inb.ui.scanLocation')} onScan={(text) => scanLocation(step.task, step.lpn, text)} />}
      {step.kind === 'reason' && (
        <ScanField key="reason" testId="scan-field" label={t('inb.ui.reason', { location: step.locationCode })} onScan={(text) => void confirm(step.task, step.lpn, step.locationCode, text.trim())} />
      )}
      <OfflineQueueView state={queue} />
      <FeedbackLine feedback={feedback} />
      {step.kind === 'pick' ? (
        <Space direction="vertical" style={{ width: '100%' }}>
          {tasks.length === 0 && <Typography.Text type="secondary">{t('inb.ui.noTasks')}</Typography.Text>}
          {tasks.map((task) => (
            <Button key={task.id} block style={{ ...BIG, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }} data-testid={`task-${task.id}`} onClick={() => choose(task)}>
              {task.sku_code} · {Number(task.qty)} · {task.from_location} → {task.suggested_location ?? '?'}
            </Button>
          ))}
        </Space>
      ) : (
        <Button block style={BIG} data-testid="handheld-back" onClick={() => setStep({ kind: 'pick' })}>
          {t('inb.ui.startOver')}
        </Button>
      )}
    </HandheldFrame>
  );
}
