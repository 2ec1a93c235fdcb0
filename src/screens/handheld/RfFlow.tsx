import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { looksLikeGs1, parseGs1 } from '../../common/gs1';
import { DIALOG_FIELDS, type DeviceSessionRow, type DialogField, type HandheldFlowAnswer, type HandheldFunction, type ScanStep } from '../../common/handheld-api';
import type { ConfirmPutawayAnswer, ConfirmPutawayRequest, PutawayTask as Task } from '../../common/inbound-api';
import { BIG, beep, FeedbackLine, HandheldFrame, messageOf, ScanInput, useFeedback } from '../inbound/handheld';
import { sendScan } from '../inbound/offline-queue';
import { OfflineQueueView, useScanQueue } from '../inbound/OfflineQueue';
import * as calls from './calls';

/** The flows the runtime has actions for; the others are configured but not run here yet. */
const FN: HandheldFunction = 'putaway';
const DEVICE_KEY = 'wms-handheld-device';
const LAST_LOCATION_KEY = 'wms-handheld-last-location';

/** What the scans of one task filled so far (the target fields of the actions). */
interface Fields {
  task: Task | null;
  lpn: string;
  locationCode: string;
  qty: string;
  reason: string | null;
  suggested: string | null;
}
const EMPTY: Fields = { task: null, lpn: '', locationCode: '', qty: '', reason: null, suggested: null };

/** Where the runtime is: the order search, a step of the configuration, the implied reason, the dialogs. */
type Stage = { kind: 'search' } | { kind: 'step'; index: number } | { kind: 'reason'; next: number } | { kind: 'dialogs' };

function lpnOf(scanned: string): string {
  if (looksLikeGs1(scanned)) {
    const parsed = parseGs1(scanned);
    if (parsed.ok && parsed.data.sscc) return parsed.data.sscc;
  }
  return scanned.trim();
}

/**
 * /rfFlow, the one handheld runtime (360x640, keyboard-wedge scanner): it runs the published
 * configuration of the flow (docs/handheld.md, "Configured flows"), its order search, its scanning
 * steps in their order with their prompts, its dialogs and its location suggestion. The code keeps
 * only the actions: what a step does with a scan. The configuration is read again at the start of
 * every task, so a publish reaches the next scan without a restart. The handheld signs in once per
 * shift with its device id; every scan records the device's last scan time. Confirmations go
 * through the offline queue with their idempotency keys.
 */
export default function RfFlow() {
  const { t } = useTranslation();
  const [device, setDevice] = useState<DeviceSessionRow | null | undefined>(undefined);
  const [deviceId, setDeviceId] = useState(() => localStorage.getItem(DEVICE_KEY) ?? '');
  const [flow, setFlow] = useState<HandheldFlowAnswer | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'search' });
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [scan, setScan] = useState('');
  const [dialog, setDialog] = useState<Partial<Record<DialogField, string>>>({});
  const { feedback, setFeedback, tell, fail } = useFeedback();
  const busy = useRef(false);
  const queue = useScanQueue();

  const loadFlow = useCallback(async () => {
    try {
      setFlow(await calls.flowOf(FN));
    } catch (error) {
      // Offline the flow last read stays.
      if (navigator.onLine) setFeedback({ tone: 'error', text: messageOf(error) });
    }
  }, [setFeedback]);

  useEffect(() => {
    void (async () => {
      try {
        setDevice(await calls.mySession());
      } catch {
        setDevice(null);
      }
      await loadFlow();
    })();
  }, [loadFlow]);

  const touch = () => {
    if (device) void calls.recordScan(device.deviceId, FN).catch(() => undefined);
  };

  const restart = () => {
    setFields(EMPTY);
    setDialog({});
    setStage({ kind: 'search' });
    // The next task follows what is published now.
    void loadFlow();
  };

  if (device === undefined || flow === null) return <HandheldFrame testId="rf-flow-loading" title={t('hh.run.title')}>{null}</HandheldFrame>;

  if (device === null) {
    const submit = async (text: string) => {
      const id = text.trim();
      if (!id) return;
      try {
        const session = await calls.signIn(id, FN);
        localStorage.setItem(DEVICE_KEY, id);
        setDevice(session);
        setFeedback(null);
      } catch (error) {
        fail(error);
      }
    };
    return (
      <HandheldFrame testId="rf-sign-in" title={t('hh.run.signInTitle')}>
        <ScanInput label={t('hh.run.deviceId')} testId="rf-device-id" value={deviceId} onChange={setDeviceId} onScan={(text) => void submit(text)} />
        <Button type="primary" block style={BIG} data-testid="rf-sign-in-button" onClick={() => void submit(deviceId)}>
          {t('hh.run.signIn')}
        </Button>
        <FeedbackLine feedback={feedback} />
      </HandheldFrame>
    );
  }

  const definition = flow.definition;
  const steps = definition.steps;
  const shownDialogs = DIALOG_FIELDS.filter((d) => definition.dialogs[d].show);

  /** After step `index`: the next step, the dialogs, or the confirmation. */
  const after = (index: number, filled: Fields) => {
    if (index + 1 < steps.length) return setStage({ kind: 'step', index: index + 1 });
    if (shownDialogs.length > 0) return setStage({ kind: 'dialogs' });
    void confirm(filled);
  };

  const confirm = async (filled: Fields) => {
    const task = filled.task;
    if (!task) return restart();
    const locationCode = filled.locationCode || filled.suggested || '';
    if (!locationCode) {
      fail(t('hh.run.noLocation'));
      return setStage({ kind: 'step', index: Math.max(0, steps.findIndex((s) => s.action === 'putaway.scanLocation')) });
    }
    const part = filled.qty.trim();
    try {
      const outcome = await sendScan<ConfirmPutawayAnswer>({
        flow: 'putaway',
        label: `${task.asn_no} · ${task.sku_code} × ${part || Number(task.qty)} → ${locationCode}`,
        path: '/putaway/confirm',
        body: { taskId: task.id, locationCode, lpn: filled.lpn || null, reason: filled.reason, ...(part === '' ? {} : { qty: part }) } satisfies ConfirmPutawayRequest,
      });
      localStorage.setItem(LAST_LOCATION_KEY, locationCode);
      if (outcome.queued) tell('warning', t('inb.offline.stored'));
      else {
        const answer = outcome.answer;
        const done = { sku: task.sku_code, qty: Number(answer.qty), location: answer.locationCode, status: t(`inb.status.${answer.status}`), left: Number(answer.left) };
        tell('success', Number(answer.left) > 0 ? t('inb.ui.putAwayPart', done) : t('inb.ui.putAway', done));
      }
      if (definition.flow.restartAfterConfirm || outcome.queued || Number(outcome.answer.left) <= 0) restart();
      else {
        setFields({ ...filled, locationCode: '', qty: '', reason: null, task: { ...task, qty: outcome.answer.left } });
        setStage({ kind: 'step', index: 0 });
      }
    } catch (error) {
      fail(error);
    }
  };

  /** The order search's action: the task of the scanned code, with the location the location logic suggests. */
  const search = async (scanned: string) => {
    const code = lpnOf(scanned);
    const found = await calls.findPutawayTask(code);
    const task = (await calls.putawayTasks()).find((candidate) => candidate.id === found.taskId);
    if (!task) throw new Error(t('errors.NO_RECORD'));
    await start(task, task.lpn === '' ? '' : code);
  };

  const start = async (task: Task, lpn: string) => {
    let suggested: string | null = task.suggested_location;
    if (definition.locationLogic.length > 0) {
      try {
        suggested = (await calls.suggestLocation({ rules: definition.locationLogic, skuCode: task.sku_code, lastLocation: localStorage.getItem(LAST_LOCATION_KEY), storage: task.suggested_location })).locationCode;
      } catch {
        // Offline: the task's own suggestion.
      }
    }
    const filled = { ...EMPTY, task, lpn, suggested };
    setFields(filled);
    beep('success');
    setFeedback(null);
    if (steps.length === 0) return after(-1, filled);
    setStage({ kind: 'step', index: 0 });
  };

  /** A step's action: what it does with the scan, filling its target field. */
  const runStep = (step: ScanStep, index: number, scanned: string) => {
    const value = scanned.trim();
    const filled = { ...fields };
    switch (step.action) {
      case 'putaway.scanLpn':
        filled.lpn = lpnOf(value);
        break;
      case 'putaway.scanLocation':
        filled.locationCode = value;
        if (filled.suggested && value !== filled.suggested && !steps.some((s, i) => i > index && s.action === 'putaway.reason')) {
          setFields(filled);
          tell('warning', t('inb.ui.notSuggested', { location: filled.suggested }));
          return setStage({ kind: 'reason', next: index });
        }
        break;
      case 'putaway.confirmQty':
        if (value !== '' && !(Number(value) > 0)) return fail(t('hh.run.badQty'));
        filled.qty = value;
        break;
      case 'putaway.reason':
        filled.reason = value || null;
        break;
      default:
        return fail(t('hh.run.noAction', { action: step.action }));
    }
    setFields(filled);
    setFeedback(null);
    after(index, filled);
  };

  const onScan = async (text: string) => {
    if (busy.current) return;
    busy.current = true;
    touch();
    try {
      if (stage.kind === 'search') await search(text);
      else if (stage.kind === 'step') runStep(steps[stage.index], stage.index, text);
      else if (stage.kind === 'reason') {
        const filled = { ...fields, reason: text.trim() };
        setFields(filled);
        after(stage.next, filled);
      }
    } catch (error) {
      fail(error);
    } finally {
      busy.current = false;
    }
  };

  const task = fields.task;
  const promptOf = (step: ScanStep) => step.prompt.trim() || t(`hh.action.${step.action}`, { qty: task ? Number(task.qty) : '' });
  const current: ScanStep | null = stage.kind === 'search' ? definition.orderSearch : stage.kind === 'step' ? steps[stage.index] : null;
  const prompt = stage.kind === 'reason' ? t('inb.ui.reason', { location: fields.locationCode }) : current ? promptOf(current) : t('hh.action.putaway.findTask');

  const finishDialogs = () => {
    const missing = shownDialogs.find((d) => definition.dialogs[d].mandatory && !(Number(dialog[d]) > 0));
    if (missing) return fail(t('hh.run.required', { field: t(`hh.dialog.${missing}`) }));
    void confirm(fields);
  };

  return (
    <HandheldFrame testId="rf-flow" title={t('hh.run.title')}>
      <Typography.Text type="secondary" data-testid="rf-version">
        {flow.version ? t('hh.run.version', { code: flow.code, version: flow.version }) : t('hh.run.shipped')} · {device.deviceId}
      </Typography.Text>
      {task && (
        <div data-testid="rf-task" style={{ fontSize: 16 }}>
          <div>
            {task.asn_no} · <strong>{task.sku_code}</strong> · {Number(task.qty)}
          </div>
          <div>{t('inb.ui.from', { location: task.from_location })}</div>
          <div data-testid="rf-suggested" data-location={fields.suggested ?? ''} style={{ fontSize: 22, fontWeight: 600 }}>
            {fields.suggested ? t('inb.ui.suggested', { location: fields.suggested }) : t('inb.ui.noSuggestion')}
          </div>
        </div>
      )}
      {stage.kind === 'dialogs' ? (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="rf-dialogs">
          {shownDialogs.map((d) => (
            <label key={d} style={{ display: 'block' }}>
              <div style={{ fontSize: 16 }}>
                {t(`hh.dialog.${d}`)}
                {definition.dialogs[d].mandatory ? ' *' : ''}
              </div>
              <Input data-testid={`rf-dialog-${d}`} size="large" style={BIG} inputMode="decimal" value={dialog[d] ?? ''} onChange={(e) => setDialog({ ...dialog, [d]: e.target.value })} onPressEnter={finishDialogs} />
            </label>
          ))}
          <Button type="primary" block style={BIG} data-testid="rf-dialogs-ok" onClick={finishDialogs}>
            {t('hh.run.confirm')}
          </Button>
        </Space>
      ) : (
        <div data-testid="rf-prompt" data-step={stage.kind === 'step' ? steps[stage.index].scanName : stage.kind}>
          <ScanInput key={`${stage.kind}-${stage.kind === 'step' ? stage.index : ''}`} label={prompt} testId="scan-field" value={scan} onChange={setScan} onScan={(text) => void onScan(text)} onEscape={restart} />
        </div>
      )}
      {stage.kind === 'step' && steps[stage.index].optional && (
        <Button block style={BIG} data-testid="rf-skip" onClick={() => runStep(steps[stage.index], stage.index, '')}>
          {t('hh.run.skip')}
        </Button>
      )}
      <OfflineQueueView state={queue} />
      <FeedbackLine feedback={feedback} />
      {stage.kind !== 'search' && (
        <Button block style={BIG} data-testid="handheld-back" onClick={restart}>
          {t('inb.ui.startOver')}
        </Button>
      )}
      <Button
        block
        data-testid="rf-sign-out"
        onClick={() =>
          void calls.signOut().then(
            () => setDevice(null),
            (error: unknown) => fail(error),
          )
        }
      >
        {t('hh.run.signOut')}
      </Button>
    </HandheldFrame>
  );
}
