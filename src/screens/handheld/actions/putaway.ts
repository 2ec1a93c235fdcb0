import { looksLikeGs1, parseGs1 } from '../../../common/gs1';
import type { ConfirmPutawayAnswer, ConfirmPutawayRequest, PutawayTask } from '../../../common/inbound-api';
import { sendScan } from '../../inbound/offline-queue';
import * as calls from '../calls';
import { defineFlow, isQty, type StepOutcome } from './types';

const LAST_LOCATION_KEY = 'wms-handheld-last-location';

/** The LPN of a scan: the SSCC of a GS1 label, else the text scanned. */
export function lpnOf(scanned: string): string {
  if (looksLikeGs1(scanned)) {
    const parsed = parseGs1(scanned);
    if (parsed.ok && parsed.data.sscc) return parsed.data.sscc;
  }
  return scanned.trim();
}

/**
 * Putaway: the order search finds the task of a scanned LPN, pallet or carton (with the location
 * the location logic suggests); the steps scan the LPN, the location (another location than the
 * suggested one asks for a reason unless a later step takes it) and the quantity (empty: all of
 * the task). The confirmation is `POST /putaway/confirm`.
 */
export const putaway = defineFlow<PutawayTask>({
  fn: 'putaway',
  async search(scanned, { t, definition }) {
    const code = lpnOf(scanned);
    const found = await calls.findPutawayTask(code);
    const task = (await calls.putawayTasks()).find((candidate) => candidate.id === found.taskId);
    if (!task) throw new Error(t('errors.NO_RECORD'));
    let suggested: string | null = task.suggested_location;
    if (definition.locationLogic.length > 0) {
      try {
        suggested = (await calls.suggestLocation({ rules: definition.locationLogic, skuCode: task.sku_code, lastLocation: localStorage.getItem(LAST_LOCATION_KEY), storage: task.suggested_location })).locationCode;
      } catch {
        // Offline: the task's own suggestion.
      }
    }
    return { task, fields: { lpn: task.lpn === '' ? '' : code, suggested: suggested ?? '' } };
  },
  steps: {
    'putaway.scanLpn': (value) => ({ fields: { lpn: lpnOf(value) } }),
    'putaway.scanLocation': (value, { t, fields, definition, index }): StepOutcome => {
      const suggested = fields.suggested;
      if (suggested && value !== suggested && !definition.steps.some((s, i) => i > index && s.action === 'putaway.reason')) {
        return { fields: { locationCode: value }, warning: t('inb.ui.notSuggested', { location: suggested }), ask: { field: 'reason', prompt: t('inb.ui.reason', { location: value }) } };
      }
      return { fields: { locationCode: value } };
    },
    'putaway.confirmQty': (value, { t }) => (value !== '' && !isQty(value) ? { error: t('hh.run.badQty') } : { fields: { qty: value } }),
    'putaway.reason': (value) => ({ fields: { reason: value } }),
  },
  missing: ({ t, fields }) => (fields.locationCode || fields.suggested ? null : { action: 'putaway.scanLocation', error: t('hh.run.noLocation') }),
  async confirm({ t, task, fields, key }) {
    const locationCode = fields.locationCode || fields.suggested;
    const part = (fields.qty ?? '').trim();
    const body = { taskId: task.id, locationCode, lpn: fields.lpn || null, reason: fields.reason || null, ...(part === '' ? {} : { qty: part }) } satisfies ConfirmPutawayRequest;
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
    lines: [`${task.asn_no} · ${task.sku_code} · ${Number(task.qty)}`, t('inb.ui.from', { location: task.from_location })],
    suggested: fields.suggested || null,
  }),
  promptParams: ({ task }) => ({ qty: Number(task.qty) }),
});
