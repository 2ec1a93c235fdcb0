import type { TFunction } from 'i18next';
import { looksLikeGs1, parseGs1 } from '../../../common/gs1';
import type { HandheldDefinition } from '../../../common/handheld-api';
import type { ConfirmPutawayAnswer, ConfirmPutawayRequest, PutawayTask } from '../../../common/inbound-api';
import { isUnreachable, sendScan, subscribeQueue, type QueuedScan } from '../../inbound/offline-queue';
import * as calls from '../calls';
import { defineFlow, isQty, type Found, type StepOutcome } from './types';

const LAST_LOCATION_KEY = 'wms-handheld-last-location';

/** The LPN of a scan: the SSCC of a GS1 label, else the text scanned. */
export function lpnOf(scanned: string): string {
  if (looksLikeGs1(scanned)) {
    const parsed = parseGs1(scanned);
    if (parsed.ok && parsed.data.sscc) return parsed.data.sscc;
  }
  return scanned.trim();
}

/** The open tasks the server listed last: offline, the list shows these. */
let lastRead: PutawayTask[] = [];

/** The putaways waiting in the offline queue (not applied yet). */
function waitingPutaways(): ConfirmPutawayRequest[] {
  let waiting: QueuedScan[] = [];
  subscribeQueue((state) => (waiting = state.waiting))();
  return waiting.filter((scan) => scan.path === '/putaway/confirm').map((scan) => scan.body as ConfirmPutawayRequest);
}

/** The tasks as they are after a putaway: its quantity (all when none) gone, and the task with it when nothing is left. */
function afterPutaway(tasks: PutawayTask[], put: ConfirmPutawayRequest): PutawayTask[] {
  return tasks
    .map((x) => (x.id === put.taskId ? { ...x, qty: String(Number(x.qty) - Number(put.qty ?? x.qty)) } : x))
    .filter((x) => Number(x.qty) > 0);
}

/** The open putaway tasks, less what the waiting putaways took; without a connection the ones read last. */
async function openTasks(): Promise<PutawayTask[]> {
  try {
    lastRead = await calls.putawayTasks();
  } catch (error) {
    if (!isUnreachable(error) && navigator.onLine) throw error;
  }
  return waitingPutaways().reduce(afterPutaway, lastRead);
}

/** A task with the location the location logic suggests (offline, or without rules: the task's own suggestion). */
async function withSuggestion(t: TFunction, definition: HandheldDefinition, task: PutawayTask, lpn: string): Promise<Found<PutawayTask>> {
  let suggested: string | null = task.suggested_location;
  if (definition.locationLogic.length > 0) {
    try {
      suggested = (await calls.suggestLocation({ rules: definition.locationLogic, skuCode: task.sku_code, lastLocation: localStorage.getItem(LAST_LOCATION_KEY), storage: task.suggested_location })).locationCode;
    } catch {
      // Offline: the task's own suggestion.
    }
  }
  const found: Found<PutawayTask> = { task, fields: { lpn, suggested: suggested ?? '' } };
  // A task tapped in the list whose stock is on an LPN: the LPN is scanned first, unless a step of the configuration scans it.
  if (task.lpn !== '' && lpn === '' && !definition.steps.some((s) => s.action === 'putaway.scanLpn')) found.ask = { field: 'lpn', prompt: t('inb.ui.scanLpn') };
  return found;
}

/**
 * Putaway: the order search finds the task of a scanned LPN, pallet or carton (with the location
 * the location logic suggests); the steps scan the LPN, the location (another location than the
 * suggested one asks for a reason unless a later step takes it) and the quantity (empty: all of
 * the task). The open tasks are listed under the order search (stock received without an LPN has
 * nothing to scan): a tapped task is opened with its suggested location. The confirmation is
 * `POST /putaway/confirm`; while putaways wait in the offline queue the list leaves out what they
 * put away.
 */
export const putaway = defineFlow<PutawayTask>({
  fn: 'putaway',
  async search(scanned, { t, definition }) {
    const code = lpnOf(scanned);
    const found = await calls.findPutawayTask(code);
    const task = (await openTasks()).find((candidate) => candidate.id === found.taskId);
    if (!task) throw new Error(t('errors.NO_RECORD'));
    return withSuggestion(t, definition, task, task.lpn === '' ? '' : code);
  },
  async list({ t, definition }) {
    return (await openTasks()).map((task) => ({
      key: String(task.id),
      label: `${task.sku_code} · ${Number(task.qty)} · ${task.from_location} → ${task.suggested_location ?? '?'}`,
      open: () => withSuggestion(t, definition, task, ''),
    }));
  },
  steps: {
    'putaway.scanLpn': (value) => ({ fields: { lpn: lpnOf(value) } }),
    'putaway.scanLocation': (value, { t, task, fields, definition, index }): StepOutcome => {
      // Another location than the one shown, or than the task's own suggestion (which the server holds the reason to), needs a reason.
      const suggested = [fields.suggested, task.suggested_location].find((location) => location && value !== location);
      if (suggested && !definition.steps.some((s, i) => i > index && s.action === 'putaway.reason')) {
        return { fields: { locationCode: value }, warning: t('inb.ui.notSuggested', { location: suggested }), ask: { field: 'reason', prompt: t('inb.ui.reason', { location: value }) } };
      }
      return { fields: { locationCode: value } };
    },
    'putaway.confirmQty': (value, { t }) => (value !== '' && !isQty(value) ? { error: t('hh.run.badQty') } : { fields: { qty: value } }),
    'putaway.reason': (value) => ({ fields: { reason: value } }),
  },
  // Stock received without an LPN has none to scan.
  skipStep: (step, { task }) => step.action === 'putaway.scanLpn' && task.lpn === '',
  missing: ({ t, fields }) => (fields.locationCode || fields.suggested ? null : { action: 'putaway.scanLocation', error: t('hh.run.noLocation') }),
  async confirm({ t, task, fields, key }) {
    const locationCode = fields.locationCode || fields.suggested;
    const part = (fields.qty ?? '').trim();
    const body = { taskId: task.id, locationCode, lpn: fields.lpn ? lpnOf(fields.lpn) : null, reason: fields.reason || null, ...(part === '' ? {} : { qty: part }) } satisfies ConfirmPutawayRequest;
    const outcome = await sendScan<ConfirmPutawayAnswer>({ flow: 'putaway', label: `${task.asn_no} · ${task.sku_code} × ${part || Number(task.qty)} → ${locationCode}`, path: '/putaway/confirm', body, key });
    localStorage.setItem(LAST_LOCATION_KEY, locationCode);
    if (outcome.queued) return { queued: true, message: t('inb.offline.stored'), left: null, subject: body };
    const answer = outcome.answer;
    const done = { sku: task.sku_code, qty: Number(answer.qty), location: answer.locationCode, status: t(`inb.status.${answer.status}`), left: Number(answer.left) };
    const left = Number(answer.left) > 0;
    return {
      queued: false,
      message: left ? t('inb.ui.putAwayPart', done) : t('inb.ui.putAway', done),
      left: left ? { task: { ...task, qty: answer.left }, fields: { lpn: fields.lpn, suggested: fields.suggested } } : null,
      subject: body,
    };
  },
  view: ({ t, task, fields }) => ({
    lines: [
      `${task.asn_no} · ${task.sku_code} · ${Number(task.qty)}${Number(task.held_qty) > 0 ? ` (${t('inb.ui.held', { qty: Number(task.held_qty) })})` : ''}`,
      `${t('inb.ui.from', { location: task.from_location })}${task.lpn ? ` · ${t('inb.field.lpn')} ${task.lpn}` : ''}`,
    ],
    suggested: fields.suggested || null,
  }),
  // All that is left of the task is proposed, so that Enter puts it all away and a typed quantity replaces it.
  proposed: (step, { task }) => (step.action === 'putaway.confirmQty' ? String(Number(task.qty)) : null),
  promptParams: ({ task }) => ({ qty: Number(task.qty) }),
});
