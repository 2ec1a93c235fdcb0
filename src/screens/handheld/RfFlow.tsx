import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Input, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import {
  DIALOG_FIELDS,
  dialogValueValid,
  HANDHELD_ACTIONS,
  RUNTIME_FUNCTIONS,
  isRuntimeFunction,
  type DeviceSessionRow,
  type DialogValues,
  type HandheldFlowAnswer,
  type RuntimeFunction,
  type ScanStep,
  type ScanValueRow,
} from '../../common/handheld-api';
import { ApiError } from '../../app/public';
import { BIG, beep, FeedbackLine, HandheldFrame, messageOf, ScanInput, useFeedback } from '../inbound/handheld';
import { holdQueue, newScanKey, sendScan } from '../inbound/offline-queue';
import { OfflineQueueView, useScanQueue } from '../inbound/OfflineQueue';
import { FLOWS, StepRefusal, type Fields, type ListedTask } from './actions';
import type { Found, Question } from './actions/types';
import * as calls from './calls';
import { LookupMatches, useLookupMatches } from '../inventory/lookup';
import { ChoiceButtons } from './ChoiceButtons';

const DEVICE_KEY = 'wms-handheld-device';
const FN_KEY = 'wms-handheld-function';

/** Where the runtime is: the order search, a step of the configuration, a question a step asked (e.g. a reason; `more`: the questions after it), the dialogs. */
type Stage = { kind: 'search' } | { kind: 'step'; index: number } | ({ kind: 'ask'; next: number; more: Question[] } & Question) | { kind: 'dialogs' };

/** A supervisor ended this device's session on /rfDevices: the handheld signs in again. */
const sessionEnded = (error: unknown): error is ApiError => error instanceof ApiError && error.body.code === 'HH_SESSION_ENDED';

/** The function to run: the URL's `fn`, else the one last run on this handheld, else putaway. */
function initialFunction(asked: string | null | undefined): RuntimeFunction {
  if (asked && isRuntimeFunction(asked)) return asked;
  const last = localStorage.getItem(FN_KEY);
  return last && isRuntimeFunction(last) ? last : 'putaway';
}

/**
 * /rfFlow, the one handheld runtime (360x640, keyboard-wedge scanner): the operator picks the
 * function (receive, putaway, move, count, pick, pack, load; or `?fn=` of the URL) and the runtime runs its
 * published configuration (docs/handheld.md, "Configured flows"): the order search, the scanning
 * steps in their order with their prompts, the dialogs, the confirmation. The code keeps only the
 * actions (./actions, one module per function): what a step does with a scan. The configuration
 * is read again at the start of every task, so a publish reaches the next scan without a restart.
 * The handheld signs in once per shift with its device id; every scan records the device's last
 * scan time. Confirmations go through the offline queue with their idempotency keys, and the
 * dialog values are stored with the confirmation by its key. When a supervisor ended the device's
 * session, the next scan is refused: the handheld shows its sign-in with the reason, and the scans
 * waiting in the offline queue are kept and sent once it is signed in again. A screen that opens
 * the runtime for one function (the handheld tab of /pick) names it in `only`: no other is offered.
 */
export default function RfFlow({ only }: { only?: RuntimeFunction } = {}) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [fn, setFn] = useState<RuntimeFunction>(() => initialFunction(only ?? params.get('fn')));
  const [device, setDevice] = useState<DeviceSessionRow | null | undefined>(undefined);
  const [deviceId, setDeviceId] = useState(() => localStorage.getItem(DEVICE_KEY) ?? '');
  const [flow, setFlow] = useState<HandheldFlowAnswer | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'search' });
  const [task, setTask] = useState<unknown>(null);
  const [fields, setFields] = useState<Fields>({});
  const [scan, setScan] = useState('');
  // The stage whose scan field shows: a new one starts with the value the action proposes, or empty.
  const [shownStage, setShownStage] = useState<Stage>(stage);
  const [dialog, setDialog] = useState<DialogValues>({});
  const [stored, setStored] = useState<ScanValueRow | null>(null);
  // The open tasks the function offers under its order search (none: it offers no list).
  const [listed, setListed] = useState<ListedTask<unknown>[] | null>(null);
  // Why the handheld is asked to sign in again (its session ended by a supervisor).
  const [ended, setEnded] = useState<string | null>(null);
  const { feedback, setFeedback, tell, fail } = useFeedback();
  const busy = useRef(false);
  // Bumped when waiting scans were applied: what the list shows is read again.
  const [applied, setApplied] = useState(0);
  const queue = useScanQueue(useCallback(() => setApplied((n) => n + 1), []));
  const actions = FLOWS[fn];

  const loadFlow = useCallback(
    async (of: RuntimeFunction) => {
      try {
        const answer = await calls.flowOf(of);
        setFlow(answer);
      } catch (error) {
        // Offline the flow last read stays.
        if (navigator.onLine) setFeedback({ tone: 'error', text: messageOf(error) });
      }
    },
    [setFeedback],
  );

  useEffect(() => {
    void (async () => {
      try {
        setDevice(await calls.mySession());
      } catch {
        setDevice(null);
      }
    })();
  }, []);

  // Signed out, the waiting scans stay in the queue; they are sent once the device is signed in.
  const signedIn = Boolean(device);
  useEffect(() => holdQueue(!signedIn), [signedIn]);
  useEffect(() => () => holdQueue(false), []);

  useEffect(() => {
    setFlow(null);
    void loadFlow(fn);
  }, [fn, loadFlow]);

  // The list is read afresh whenever the order search is shown again and when waiting scans were sent.
  const searching = stage.kind === 'search' && flow !== null && Boolean(device);
  const waiting = queue.waiting.length;
  useEffect(() => {
    const lister = FLOWS[fn].list;
    if (!searching || !lister || !flow) {
      if (!lister) setListed(null);
      return;
    }
    let current = true;
    lister({ t, definition: flow.definition }).then(
      (tasks) => current && setListed(tasks),
      () => undefined, // Offline: the last list stays.
    );
    return () => {
      current = false;
    };
  }, [fn, searching, flow, t, applied, waiting]);

  // Waiting scans applied: the open task is read again when the function can (e.g. the count ticket), unless another was opened meanwhile.
  const taskNow = useRef<unknown>(null);
  taskNow.current = task;
  useEffect(() => {
    const refresh = FLOWS[fn].refresh;
    const open = taskNow.current;
    if (applied === 0 || !refresh || open === null) return;
    let current = true;
    refresh(open).then(
      (fresh) => current && taskNow.current === open && setTask(fresh),
      () => undefined, // Out of reach again: the task stays as the handheld knows it.
    );
    return () => {
      current = false;
    };
  }, [fn, applied]);

  /** Records the scan on the device's session; only a session a supervisor ended refuses it (offline it is not recorded). */
  const touch = async () => {
    if (!device) return;
    try {
      await calls.recordScan(device.deviceId, fn);
    } catch (error) {
      if (sessionEnded(error)) throw error;
    }
  };

  /** Leaves the task: nothing scanned, nothing told, the order search asked. */
  const clearTask = () => {
    setTask(null);
    setFields({});
    setDialog({});
    setStored(null);
    setFeedback(null);
    setStage({ kind: 'search' });
  };

  const endSession = (error: ApiError) => {
    holdQueue(true);
    setEnded(error.body.message);
    // The same device signs in again: its id is ready, one press signs it in.
    setDeviceId(localStorage.getItem(DEVICE_KEY) ?? '');
    clearTask();
    setDevice(null);
    beep('error');
  };

  const restart = () => {
    setTask(null);
    setFields({});
    setDialog({});
    setStage({ kind: 'search' });
    // The next task follows what is published now.
    void loadFlow(fn);
  };

  const choose = (next: RuntimeFunction) => {
    if (next === fn || only) return;
    localStorage.setItem(FN_KEY, next);
    setParams({ fn: next }, { replace: true });
    clearTask();
    setFn(next);
  };

  // The type-ahead of the scan asked now (the order search's or the step's action), when the function offers one.
  const asked = flow === null ? null : stage.kind === 'search' ? (flow.definition.orderSearch?.action ?? HANDHELD_ACTIONS.find((a) => a.fn === fn && a.kind === 'search')?.name) : stage.kind === 'step' ? flow.definition.steps[stage.index]?.action : undefined;
  const lookup = asked && flow ? (actions.lookup?.(asked, { t, definition: flow.definition, task, fields }) ?? null) : null;
  const matches = useLookupMatches(lookup?.kind ?? 'location', lookup ? scan : '', lookup?.only);

  const title = t('hh.run.title', { fn: t(`hh.fn.${fn}`) });
  if (device === undefined || flow === null) return <HandheldFrame testId="rf-flow-loading" title={title}>{null}</HandheldFrame>;

  if (device === null) {
    const submit = async (text: string) => {
      const id = text.trim();
      if (!id) return;
      try {
        const session = await calls.signIn(id, fn);
        localStorage.setItem(DEVICE_KEY, id);
        setEnded(null);
        setDevice(session);
        setFeedback(null);
      } catch (error) {
        fail(error);
      }
    };
    return (
      <HandheldFrame testId="rf-sign-in" title={t('hh.run.signInTitle')}>
        {ended && <Alert data-testid="rf-session-ended" type="warning" showIcon message={ended} style={{ fontSize: 16 }} />}
        {queue.waiting.length > 0 && (
          <Alert data-testid="rf-scans-kept" data-waiting={queue.waiting.length} type="info" showIcon message={t('hh.run.scansKept', { count: queue.waiting.length })} />
        )}
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
  const context = (filled: Fields, of: unknown = task) => ({ t, definition, task: of, fields: filled });
  /** The first step from `index` on that the task needs now (an action may pass over a step); `steps.length` when none is left. */
  const stepFrom = (index: number, filled: Fields, of: unknown = task) => {
    let next = index;
    while (next < steps.length && actions.skipStep?.(steps[next], context(filled, of))) next += 1;
    return next;
  };
  /** The dialog values entered (empty ones left out). */
  const entered = () => Object.fromEntries(shownDialogs.filter((d) => (dialog[d] ?? '').trim() !== '').map((d) => [d, dialog[d]!.trim()])) as DialogValues;

  /** The dialog values entered, stored with the confirmation by its idempotency key (behind it in the offline queue). */
  const storeDialogValues = async (key: string, subject: Record<string, unknown>) => {
    const values = entered();
    if (Object.keys(values).length === 0) return;
    const outcome = await sendScan<ScanValueRow>({ flow: fn, label: `${t(`hh.fn.${fn}`)} · ${Object.values(values).join(' / ')}`, path: '/handheld/scanValue/record', body: { scanKey: key, fn, subject, values } });
    // Read back as stored, to show under the confirmation's message.
    if (!outcome.queued) setStored((await calls.scanValues({ fn, scanKey: key }))[0] ?? outcome.answer);
  };

  const confirm = async (filled: Fields) => {
    if (task === null) return restart();
    const missing = actions.missing?.(context(filled));
    if (missing) {
      fail(missing.error);
      const back = steps.findIndex((s) => s.action === missing.action);
      return setStage(back >= 0 ? { kind: 'step', index: back } : { kind: 'search' });
    }
    try {
      const key = newScanKey();
      const outcome = await actions.confirm({ ...context(filled), key, dialog: entered() });
      tell(outcome.queued || outcome.warning ? 'warning' : 'success', outcome.message);
      setStored(null);
      try {
        await storeDialogValues(key, outcome.subject);
      } catch (error) {
        fail(error);
      }
      // A confirmation waiting in the offline queue stays on what the handheld knows is left of the task.
      if (definition.flow.restartAfterConfirm || !outcome.left) restart();
      else {
        setTask(outcome.left.task);
        setFields(outcome.left.fields);
        setDialog({});
        const next = stepFrom(0, outcome.left.fields, outcome.left.task);
        setStage(steps.length > 0 ? { kind: 'step', index: next < steps.length ? next : 0 } : { kind: 'search' });
      }
    } catch (error) {
      if (sessionEnded(error)) {
        endSession(error);
        return;
      }
      fail(error);
      // A refusal of what a step scanned asks that step again.
      const back = error instanceof StepRefusal ? steps.findIndex((s) => s.action === error.action) : -1;
      if (back >= 0) {
        setFields({ ...filled, ...(error as StepRefusal).fields });
        setStage({ kind: 'step', index: back });
      }
    }
  };

  /** After step `index`: the next step, the dialogs, or the confirmation (awaited, so that a scan during it is not taken). */
  const after = async (index: number, filled: Fields) => {
    const next = stepFrom(index + 1, filled);
    if (next < steps.length) return setStage({ kind: 'step', index: next });
    if (shownDialogs.length > 0 && (actions.asksDialogs?.(context(filled)) ?? true)) return setStage({ kind: 'dialogs' });
    await confirm(filled);
  };

  /** The order search's action: the task of the scanned code. */
  const search = (scanned: string) => actions.search(scanned, { t, definition }).then(begin);

  /** Works on a task the order search or the list found (its warning told, its question asked first). */
  const begin = async (found: Found<unknown>) => {
    setTask(found.task);
    setFields(found.fields);
    setStored(null);
    if (found.warning) tell('warning', found.warning);
    else {
      beep('success');
      setFeedback(null);
    }
    if (found.ask) return setStage({ kind: 'ask', ...found.ask, next: -1, more: [] });
    if (steps.length === 0) return after(-1, found.fields);
    const first = stepFrom(0, found.fields, found.task);
    setStage({ kind: 'step', index: first < steps.length ? first : 0 });
  };

  /** A step's action: what it does with the scan, filling its target field. */
  const runStep = async (step: ScanStep, index: number, scanned: string) => {
    const value = scanned.trim();
    const action = actions.steps[step.action];
    if (!action) return fail(t('hh.run.noAction', { action: step.action }));
    if (value === '' && !step.optional) return fail(t('hh.run.required', { field: step.scanName }));
    const outcome = value === '' ? { fields: { [step.targetField]: '' } } : await action(value, { ...context(fields), step, index });
    if ('error' in outcome) return fail(outcome.error);
    const filled = { ...fields, ...(outcome.fields ?? { [step.targetField]: value }) };
    setFields(filled);
    // A warning of the step (e.g. a line counted before, counted again) stays in view for the next scan.
    if (outcome.warning) tell('warning', outcome.warning);
    else setFeedback(null);
    const [question, ...more] = outcome.ask === undefined ? [] : [outcome.ask].flat();
    if (question) return setStage({ kind: 'ask', ...question, next: index, more });
    await after(index, filled);
  };

  /** A task of the list tapped: opened as if its code were scanned. */
  const openListed = async (item: ListedTask<unknown>) => {
    if (busy.current) return;
    busy.current = true;
    try {
      await touch();
      await begin(await item.open());
    } catch (error) {
      if (sessionEnded(error)) endSession(error);
      else fail(error);
    } finally {
      busy.current = false;
    }
  };

  const onScan = async (text: string) => {
    if (busy.current) return;
    busy.current = true;
    try {
      await touch();
      if (stage.kind === 'search') await search(text);
      else if (stage.kind === 'step') await runStep(steps[stage.index], stage.index, text);
      else if (stage.kind === 'ask') {
        const filled = { ...fields, [stage.field]: text.trim() };
        setFields(filled);
        const [question, ...more] = stage.more;
        if (question) setStage({ kind: 'ask', ...question, next: stage.next, more });
        else await after(stage.next, filled);
      }
    } catch (error) {
      if (sessionEnded(error)) endSession(error);
      else fail(error);
    } finally {
      busy.current = false;
    }
  };

  if (shownStage !== stage) {
    setShownStage(stage);
    setScan((stage.kind === 'step' && task !== null ? actions.proposed?.(steps[stage.index], context(fields)) : null) ?? '');
  }

  const view = task === null ? null : actions.view(context(fields));
  const promptParams = task === null ? {} : (actions.promptParams?.(context(fields)) ?? {});
  const promptOf = (step: ScanStep) => step.prompt.trim() || t(`hh.action.${step.action}`, { qty: '', ...promptParams });
  const current: ScanStep | null = stage.kind === 'search' ? definition.orderSearch : stage.kind === 'step' ? steps[stage.index] : null;
  // Without an order search in the configuration, the function's own search action asks for the scan.
  const searchAction = HANDHELD_ACTIONS.find((a) => a.fn === fn && a.kind === 'search')?.name ?? '';
  const prompt = stage.kind === 'ask' ? stage.prompt : current ? promptOf(current) : t(`hh.action.${searchAction}`);
  // A question or step answered with a button (e.g. where a short pick's rest comes from) shows its choices instead of the scan field.
  const choices = stage.kind === 'ask' ? stage.choices : stage.kind === 'step' && task !== null ? actions.choices?.(steps[stage.index], context(fields)) : null;

  const finishDialogs = () => {
    const missing = shownDialogs.find((d) => definition.dialogs[d].mandatory && (dialog[d] ?? '').trim() === '');
    if (missing) return fail(t('hh.run.required', { field: t(`hh.dialog.${missing}`) }));
    const wrong = shownDialogs.find((d) => (dialog[d] ?? '').trim() !== '' && !dialogValueValid(d, dialog[d]!));
    if (wrong) return fail(t(wrong === 'dimension' ? 'hh.run.badDimension' : 'hh.run.badValue', { field: t(`hh.dialog.${wrong}`) }));
    void confirm(fields);
  };

  return (
    <HandheldFrame testId="rf-flow" title={title}>
      {!only && (
        <Radio.Group size="small" buttonStyle="solid" value={fn} data-testid="rf-functions" onChange={(e) => choose(e.target.value as RuntimeFunction)}>
          {RUNTIME_FUNCTIONS.map((f) => (
            <Radio.Button key={f} value={f} data-testid={`rf-fn-${f}`}>
              {t(`hh.fn.${f}`)}
            </Radio.Button>
          ))}
        </Radio.Group>
      )}
      <Typography.Text type="secondary" data-testid="rf-version">
        {flow.version ? t('hh.run.version', { code: flow.code, version: flow.version }) : t('hh.run.shipped')} · {device.deviceId}
      </Typography.Text>
      {view && (
        <div data-testid="rf-task" style={{ fontSize: 16 }}>
          {view.lines.map((line, i) => (
            <div key={i}>{line}</div>
          ))}
          {view.suggested !== undefined && (
            <div data-testid="rf-suggested" data-location={view.suggested ?? ''} style={{ fontSize: 22, fontWeight: 600 }}>
              {view.suggested ? t('inb.ui.suggested', { location: view.suggested }) : t('inb.ui.noSuggestion')}
            </div>
          )}
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
              <Input data-testid={`rf-dialog-${d}`} size="large" style={BIG} inputMode={d === 'dimension' ? 'text' : 'decimal'} value={dialog[d] ?? ''} onChange={(e) => setDialog({ ...dialog, [d]: e.target.value })} onPressEnter={finishDialogs} />
            </label>
          ))}
          <Button type="primary" block style={BIG} data-testid="rf-dialogs-ok" onClick={finishDialogs}>
            {t('hh.run.confirm')}
          </Button>
        </Space>
      ) : (
        <div data-testid="rf-prompt" data-step={stage.kind === 'step' ? steps[stage.index].scanName : stage.kind === 'ask' ? stage.field : stage.kind}>
          {choices ? (
            <ChoiceButtons key={`${fn}-${stage.kind}-${stage.kind === 'step' ? stage.index : stage.kind === 'ask' ? stage.field : ''}`} prompt={prompt} choices={choices} onChoose={(value) => void onScan(value)} onEscape={restart} />
          ) : (
            <>
              <ScanInput key={`${fn}-${stage.kind}-${stage.kind === 'step' ? stage.index : ''}`} label={prompt} testId="scan-field" value={scan} onChange={setScan} onScan={(text) => void onScan(text)} onEscape={restart} />
              {scan.trim() !== '' && (
                <LookupMatches
                  testId="scan-field"
                  matches={matches}
                  onChoose={(code) => {
                    setScan('');
                    void onScan(code);
                  }}
                />
              )}
            </>
          )}
        </div>
      )}
      {stage.kind === 'search' && listed && (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="rf-list" data-count={listed.length}>
          {listed.length === 0 ? (
            <Typography.Text type="secondary">{t('hh.run.listEmpty')}</Typography.Text>
          ) : (
            listed.map((item) => (
              <Button key={item.key} block style={BIG} data-testid="rf-list-item" data-key={item.key} onClick={() => void openListed(item)}>
                {item.label}
              </Button>
            ))
          )}
        </Space>
      )}
      {stage.kind === 'step' && steps[stage.index].optional && (
        <Button block style={BIG} data-testid="rf-skip" onClick={() => void runStep(steps[stage.index], stage.index, '').catch((error: unknown) => fail(error))}>
          {t('hh.run.skip')}
        </Button>
      )}
      <OfflineQueueView state={queue} />
      <FeedbackLine feedback={feedback} />
      {stored && (
        <div data-testid="rf-stored-values" data-key={stored.scanKey} style={{ fontSize: 14 }}>
          {t('hh.run.valuesStored', {
            values: DIALOG_FIELDS.filter((d) => stored.values[d] !== undefined)
              .map((d) => `${t(`hh.dialog.${d}`)} ${stored.values[d]}`)
              .join(', '),
          })}
        </div>
      )}
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
