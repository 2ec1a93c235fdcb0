import type { TFunction } from 'i18next';
import { looksLikeGs1, parseGs1 } from '../../../common/gs1';
import { PICK_REST_CHOICES, type HandheldDefinition, type PickRest } from '../../../common/handheld-api';
import { leftToPick, type ConfirmPickAnswer, type PickTaskView } from '../../../common/outbound-api';
import { sendScan, subscribeQueue, type QueuedScan } from '../../inbound/offline-queue';
import * as calls from '../calls';
import { defineFlow, isQty, type Choice, type Fields, type Question, type StepOutcome, type TaskContext } from './types';

/** The open pick tasks of a scanned task number, order or wave, in pick order (zone, location sequence). */
export interface PickTask {
  code: string;
  tasks: PickTaskView[];
}

const same = (a: string | null | undefined, b: string) => (a ?? '').trim().toLowerCase() === b.trim().toLowerCase();

/** The open tasks the server listed last: offline, the order search finds its tasks here. */
let lastRead: PickTaskView[] = [];

interface PickBody {
  taskId: number;
  qty: string;
  shortReason: string | null;
}

/** The picks waiting in the offline queue (not applied yet). */
function waitingPicks(): PickBody[] {
  let waiting: QueuedScan[] = [];
  subscribeQueue((state) => (waiting = state.waiting))();
  return waiting.filter((scan) => scan.path === '/pick/confirm').map((scan) => scan.body as PickBody);
}

/** The tasks as they are after a pick: its quantity picked, and gone when nothing is left or it was a short pick. */
function afterPick(tasks: PickTaskView[], pick: PickBody): PickTaskView[] {
  return tasks
    .map((x) => (x.id === pick.taskId ? { ...x, picked_qty: String(Number(x.picked_qty) + Number(pick.qty)) } : x))
    .filter((x) => x.id !== pick.taskId || (!pick.shortReason && leftToPick(x) > 0));
}

/** The open tasks of a task number, order number or wave number, less what the waiting picks took. */
async function tasksOf(code: string): Promise<PickTask> {
  let open: PickTaskView[];
  try {
    open = (await calls.openPickTasks()).tasks;
    lastRead = open;
  } catch (error) {
    // Without a connection the list last read is all the handheld has.
    if (navigator.onLine) throw error;
    open = lastRead;
  }
  const matching = open.filter((x) => String(x.id) === code.trim() || same(x.order_no, code) || same(x.wave_no, code));
  return { code: code.trim(), tasks: waitingPicks().reduce(afterPick, matching) };
}

/** The task the scans so far point at: the one of the scanned location and SKU, else the next in pick order. */
function current(task: PickTask, fields: Fields): PickTaskView | undefined {
  return task.tasks.find((x) => String(x.id) === fields.taskId) ?? task.tasks[0];
}

const shortOf = (context: TaskContext<PickTask>) => {
  const open = current(context.task, context.fields);
  return Boolean(open && (context.fields.qty ?? '') !== '' && Number(context.fields.qty) < leftToPick(open));
};

/** A short pick whose rest may be looked for elsewhere: the SKU is free in other locations (else the rest is given back, unasked). */
const restOpen = (context: TaskContext<PickTask>) => shortOf(context) && Number(current(context.task, context.fields)?.other_available ?? 0) > 0;

const hasStep = (definition: HandheldDefinition, action: string, after = -1) => definition.steps.some((s, i) => i > after && s.action === action);

/** Where the rest of a short pick goes: find it elsewhere (the default, first) or give it back. */
const restChoices = (t: TFunction): Choice[] => [
  { value: 'elsewhere', label: t('outbound.pick.findElsewhere') },
  { value: 'giveBack', label: t('outbound.pick.giveBack') },
];

/** The question after a short pick's reason when no step of the configuration asks where the rest goes. */
const restQuestion = (t: TFunction, open: PickTaskView, qty: string): Question => ({
  field: 'rest',
  prompt: t('outbound.pick.restAsk', { qty: leftToPick(open) - Number(qty) }),
  choices: restChoices(t),
});

/**
 * Pick: the order search finds the open pick tasks of a scanned task number, order or wave (in
 * zone and location order); the steps scan the location picked from (any location of the tasks;
 * the task there is taken), the SKU (its code, a barcode or a GS1 label: the server matches it),
 * the quantity picked (empty: all the task has left; less asks for the short pick's reason unless
 * a later step takes it) and the tote or LPN picked into. When the SKU of a short pick is free in
 * other locations, the picker chooses where the rest goes: looked for elsewhere (allocated again
 * from other stock, a new task; the default, Enter) or given back (unallocated). A `pick.shortRest`
 * step of the configuration asks it where it stands (skipped: elsewhere), else it is asked right
 * after the reason. The confirmation is `POST /pick/confirm`. Without a connection the tasks last
 * read are used, and what the waiting picks took is left out.
 */
export const pick = defineFlow<PickTask>({
  fn: 'pick',
  async search(scanned, { t }) {
    const task = await tasksOf(scanned);
    if (task.tasks.length === 0) throw new Error(t('hh.run.noPickTask', { code: task.code }));
    return { task, fields: { code: task.code } };
  },
  steps: {
    'pick.scanLocation': (value, { t, task, fields }): StepOutcome => {
      const next = current(task, fields);
      const there = task.tasks.find((x) => same(x.location_code, value));
      if (!there) return { error: t('errors.PICK_WRONG_LOCATION', { location: next?.location_code ?? '' }) };
      return { fields: { locationCode: there.location_code, taskId: String(there.id) } };
    },
    'pick.scanItem': (value, { t, task, fields }): StepOutcome => {
      if (looksLikeGs1(value) && !parseGs1(value).ok) return { error: t('errors.BARCODE_FORMAT') };
      const open = current(task, fields);
      const location = fields.locationCode || open?.location_code;
      // The task of this SKU at the location; a barcode is matched to its SKU by the server.
      const bySku = task.tasks.find((x) => same(x.location_code, location ?? '') && same(x.sku_code, value));
      return { fields: { sku: value, ...(bySku ? { taskId: String(bySku.id), locationCode: bySku.location_code } : {}) } };
    },
    'pick.confirmQty': (value, { t, task, fields, definition, index }): StepOutcome => {
      const open = current(task, fields);
      if (!open) return { error: t('hh.run.noPickTask', { code: task.code }) };
      if (value !== '' && !isQty(value, true)) return { error: t('errors.QTY_NOT_POSITIVE') };
      if (Number(value) > leftToPick(open)) return { error: t('errors.OVER_PICK', { qty: leftToPick(open) }) };
      const qty = value === '' ? '' : value.trim();
      const short = qty !== '' && Number(qty) < leftToPick(open);
      if (short && !hasStep(definition, 'pick.shortReason', index)) {
        // The reason, then (when no step asks it and there is somewhere else to look) where the rest goes.
        const ask: Question[] = [{ field: 'reason', prompt: t('outbound.pick.shortReason') }];
        if (!hasStep(definition, 'pick.shortRest') && Number(open.other_available) > 0) ask.push(restQuestion(t, open, qty));
        return { fields: { qty }, warning: t('outbound.pick.shortAsk', { qty: leftToPick(open) - Number(qty) }), ask: ask.length === 1 ? ask[0] : ask };
      }
      return { fields: { qty } };
    },
    'pick.scanTote': (value) => ({ fields: { toLpn: value } }),
    'pick.shortReason': (value, context): StepOutcome => {
      const open = current(context.task, context.fields);
      // A reason step of a short pick asks where the rest goes unless a step of its own does.
      if (open && restOpen(context) && !hasStep(context.definition, 'pick.shortRest')) return { fields: { reason: value }, ask: restQuestion(context.t, open, context.fields.qty) };
      return { fields: { reason: value } };
    },
    'pick.shortRest': (value, { t }): StepOutcome => {
      const chosen = restChoices(t).find((c) => c.value.toLowerCase() === value.toLowerCase() || c.label.toLowerCase() === value.toLowerCase());
      if (!chosen) return { error: t('hh.run.chooseOne', { choices: restChoices(t).map((c) => c.label).join(' / ') }) };
      return { fields: { rest: chosen.value } };
    },
  },
  // Where the rest goes is asked only of a short pick that may look elsewhere, and answered with a button.
  skipStep: (step, context) => step.action === 'pick.shortRest' && !restOpen(context),
  choices: (step, { t }) => (step.action === 'pick.shortRest' ? restChoices(t) : null),
  missing: (context) => {
    const { t, task, fields, definition } = context;
    const open = current(task, fields);
    if (!open) return { action: 'pick.scanLocation', error: t('hh.run.noPickTask', { code: task.code }) };
    if (!fields.locationCode) return { action: 'pick.scanLocation', error: t('hh.run.noLocation') };
    if (!fields.sku) return { action: 'pick.scanItem', error: t('hh.run.noItem') };
    if (shortOf(context) && !(fields.reason ?? '').trim()) {
      // Back to the reason step, or to the quantity, whose short pick asks for it.
      const action = definition.steps.some((s) => s.action === 'pick.shortReason') ? 'pick.shortReason' : 'pick.confirmQty';
      return { action, error: t('outbound.pick.shortAsk', { qty: leftToPick(open) - Number(fields.qty) }) };
    }
    if (restOpen(context) && fields.rest === undefined) {
      // Where the rest goes was not asked yet (its step stood before the quantity): its step, or the quantity again.
      const action = hasStep(definition, 'pick.shortRest') ? 'pick.shortRest' : 'pick.confirmQty';
      return { action, error: t('outbound.pick.restAsk', { qty: leftToPick(open) - Number(fields.qty) }) };
    }
    return null;
  },
  async confirm(context) {
    const { t, task, fields, key } = context;
    const open = current(task, fields)!;
    const short = shortOf(context);
    const qty = (fields.qty ?? '').trim() || String(leftToPick(open));
    const shortReason = short ? fields.reason.trim() : null;
    // A skipped step of where the rest goes takes the default: elsewhere.
    const restTo: PickRest = (PICK_REST_CHOICES as readonly string[]).includes(fields.rest ?? '') ? (fields.rest as PickRest) : 'elsewhere';
    const reallocate = short && Number(open.other_available) > 0 && restTo === 'elsewhere';
    const body = { taskId: open.id, locationCode: open.location_code, sku: fields.sku, qty, toLpn: (fields.toLpn ?? '').trim() || null, shortReason, reallocate };
    const outcome = await sendScan<ConfirmPickAnswer>({
      flow: 'pick',
      label: `${open.order_no}/${open.line_no} · ${open.location_code} · ${open.sku_code} × ${Number(qty)}`,
      path: '/pick/confirm',
      body,
      key,
    });
    let rest: PickTask;
    let message: string;
    if (outcome.queued) {
      lastRead = afterPick(lastRead, body);
      rest = { ...task, tasks: afterPick(task.tasks, body) };
      message = t('inb.offline.stored');
    } else {
      const answer = outcome.answer;
      rest = await tasksOf(task.code).catch(() => ({ ...task, tasks: afterPick(task.tasks, body) }));
      message = t('outbound.pick.done', { sku: open.sku_code, qty: Number(qty), order: open.order_no, status: t(`outbound.status.${answer.orderStatus}`) });
      if (reallocate) {
        message += ` ${answer.newTaskIds.length > 0 ? t('outbound.pick.foundElsewhere', { qty: Number(answer.reallocatedQty), tasks: answer.newTaskIds.length }) : t('outbound.pick.notFoundElsewhere')}`;
      }
      if (answer.heldMessage) message += ` ${answer.heldMessage}`;
    }
    return {
      queued: outcome.queued,
      message,
      warning: short,
      left: rest.tasks.length > 0 ? { task: rest, fields: { code: task.code } } : null,
      subject: body,
    };
  },
  view: ({ t, task, fields }) => {
    const open = current(task, fields);
    return {
      lines: [
        `${task.code} · ${t('hh.run.tasksLeft', { n: task.tasks.length })}`,
        ...(open
          ? [
              `${open.wave_no ? `${open.wave_no} · ` : ''}${open.order_no}/${open.line_no}`,
              `${open.location_code}${open.lpn ? ` · ${open.lpn}` : ''} · ${open.sku_code} · ${t('outbound.pick.toPick', { qty: leftToPick(open) })}`,
              ...(open.lot_no || open.expiry_date ? [[open.lot_no, open.expiry_date].filter(Boolean).join(' · ')] : []),
            ]
          : []),
      ],
    };
  },
  promptParams: ({ task, fields }) => {
    const open = current(task, fields);
    return { qty: open ? leftToPick(open) : '' };
  },
});
