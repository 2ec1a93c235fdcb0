import { looksLikeGs1, parseGs1 } from '../../../common/gs1';
import { leftToPick, type ConfirmPickAnswer, type PickTaskView } from '../../../common/outbound-api';
import { sendScan, subscribeQueue, type QueuedScan } from '../../inbound/offline-queue';
import * as calls from '../calls';
import { defineFlow, isQty, type Fields, type StepOutcome, type TaskContext } from './types';

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

/**
 * Pick: the order search finds the open pick tasks of a scanned task number, order or wave (in
 * zone and location order); the steps scan the location picked from (any location of the tasks;
 * the task there is taken), the SKU (its code, a barcode or a GS1 label: the server matches it),
 * the quantity picked (empty: all the task has left; less asks for the short pick's reason unless
 * a later step takes it) and the tote or LPN picked into. The confirmation is `POST /pick/confirm`;
 * a short pick looks for the rest elsewhere when the SKU is free in other locations, as the
 * handheld pick screen's default. Without a connection the tasks last read are used, and what the
 * waiting picks took is left out.
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
      if (short && !definition.steps.some((s, i) => i > index && s.action === 'pick.shortReason')) {
        return { fields: { qty }, warning: t('outbound.pick.shortAsk', { qty: leftToPick(open) - Number(qty) }), ask: { field: 'reason', prompt: t('outbound.pick.shortReason') } };
      }
      return { fields: { qty } };
    },
    'pick.scanTote': (value) => ({ fields: { toLpn: value } }),
    'pick.shortReason': (value) => ({ fields: { reason: value } }),
  },
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
    return null;
  },
  async confirm(context) {
    const { t, task, fields, key } = context;
    const open = current(task, fields)!;
    const short = shortOf(context);
    const qty = (fields.qty ?? '').trim() || String(leftToPick(open));
    const shortReason = short ? fields.reason.trim() : null;
    const reallocate = short && Number(open.other_available) > 0;
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
