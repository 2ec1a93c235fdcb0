import { ApiError } from '../../../app/public';
import { looksLikeGs1 } from '../../../common/gs1';
import { parseDimension } from '../../../common/handheld-api';
import { newScanKey, sendScan } from '../../inbound/offline-queue';
import { messageOf } from '../../inbound/handheld';
import { cartonChange, leftToPack, parseQty, type CodeRow, type PackAnswer, type PackCarton } from '../../packing/pack-api';
import * as calls from '../calls';
import { defineFlow, StepRefusal, type Fields, type StepOutcome, type TaskContext } from './types';

/**
 * A scan of the order waiting in the offline queue, not in `pack` yet: an item into a carton, or a
 * carton's close. A carton is `id:<id>`, or `key:<key>` while it was opened offline (the key of its
 * opening, which names it to the server until its id is known).
 */
type WaitingScan = { kind: 'item'; carton: string; sku: string; qty: number } | { kind: 'close'; carton: string };

/** An order being packed: what /scanPack answers of it, with the carton types and weight units offered. */
export interface PackTask {
  pack: PackAnswer;
  cartonTypes: CodeRow[];
  units: CodeRow[];
  /** The scans of the order waiting in the offline queue since `pack` was answered, in order. */
  waiting?: WaitingScan[];
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
/** The order's carton a scan names, by its number or its SSCC. */
const cartonNamed = (task: PackTask, code: string) => task.pack.cartons.find((c) => same(c.cartonNo, code) || (c.sscc !== null && same(c.sscc, code)));
const cartonOf = (task: PackTask, fields: Fields) => (fields.cartonId ? task.pack.cartons.find((c) => String(c.id) === fields.cartonId) : undefined);
/** The carton scans go into: the one chosen or opened, else the order's open carton. */
const cartonFields = (carton: PackCarton | null | undefined): Fields =>
  carton && carton.status === 'open' ? { cartonId: String(carton.id), cartonKey: '', cartonNo: carton.cartonNo, cartonType: carton.cartonType ?? '' } : {};
/** A carton is open for the scans: one of the server's, or one opened offline (named by the key of its opening). */
const hasCarton = (fields: Fields) => !!fields.cartonId || !!fields.cartonKey;
/** The carton of the scans, as the waiting scans name it. */
const refOf = (fields: Fields) => (fields.cartonId ? `id:${fields.cartonId}` : fields.cartonKey ? `key:${fields.cartonKey}` : '');
/** How a request names the carton: its id, or the key of its opening while its id is not known. */
const cartonName = (fields: Fields): { cartonId: number } | { cartonKey: string } => (fields.cartonId ? { cartonId: Number(fields.cartonId) } : { cartonKey: fields.cartonKey });
/** The item step was skipped (or its carton's own number scanned): the carton is closed. */
const closing = (fields: Fields) => 'sku' in fields && fields.sku.trim() === '';
const round = (n: number) => Math.round(n * 10000) / 10000;
const waitingItems = (task: PackTask) => (task.waiting ?? []).filter((w): w is Extract<WaitingScan, { kind: 'item' }> => w.kind === 'item');

/**
 * What the handheld knows is left to pack of each line: the order as answered less the item scans
 * waiting that name a line's SKU by its code (a barcode or a label is known only to the server);
 * `unknown` when one of them does not.
 */
function reckon(task: PackTask): { left: Map<number, number>; unknown: boolean } {
  const left = new Map(task.pack.lines.map((l) => [l.lineId, leftToPack(l)]));
  let unknown = false;
  for (const item of waitingItems(task)) {
    const line = task.pack.lines.find((l) => same(l.skuCode, item.sku));
    if (!line) unknown = true;
    else left.set(line.lineId, round(left.get(line.lineId)! - item.qty));
  }
  return { left, unknown };
}

/** By what the handheld knows: all that is picked is packed and every carton closed (so the order is to be checked complete). */
function allPacked(task: PackTask): boolean {
  const { left, unknown } = reckon(task);
  if (unknown || [...left.values()].some((n) => n > 0)) return false;
  const waiting = task.waiting ?? [];
  const closed = new Set(waiting.filter((w) => w.kind === 'close').map((w) => w.carton));
  const open = [...task.pack.cartons.filter((c) => c.status === 'open').map((c) => `id:${c.id}`), ...waiting.map((w) => w.carton).filter((c) => c.startsWith('key:'))];
  return open.every((c) => closed.has(c));
}

const leftText = (task: PackTask) => {
  const { left } = reckon(task);
  return task.pack.lines
    .filter((l) => (left.get(l.lineId) ?? 0) > 0)
    .map((l) => `${l.skuCode} ${left.get(l.lineId)}`)
    .join(', ');
};
/** What the carton holds as answered, and the item scans into it still waiting in the queue. */
const contents = (t: TaskContext<PackTask>['t'], task: PackTask, fields: Fields) => {
  const held = (cartonOf(task, fields)?.lines ?? []).map((l) => `${l.skuCode} × ${Number(l.qty)}`);
  const ref = refOf(fields);
  const waiting = waitingItems(task)
    .filter((w) => w.carton === ref)
    .map((w) => `${w.sku} × ${w.qty}`);
  return [...held, ...(waiting.length > 0 ? [t('hh.run.waitingItems', { items: waiting.join(', ') })] : [])].join(', ');
};

/**
 * Opens a carton of the order (`POST /pack/scan/open`) through the offline queue with its own key:
 * answered, the carton opened; waiting, a carton known by that key until the opening is sent.
 */
async function openCartonOf({ t, task }: TaskContext<PackTask>, cartonType: string | null): Promise<{ fields: Fields; opened?: PackCarton }> {
  const key = newScanKey();
  const orderNo = task.pack.order.orderNo;
  const outcome = await sendScan<PackAnswer & { opened: PackCarton }>({
    flow: 'pack',
    label: t('hh.run.openLabel', { order: orderNo, type: cartonType ?? '' }),
    path: '/pack/scan/open',
    body: { soId: task.pack.order.id, cartonType },
    key,
  });
  if (outcome.queued) return { fields: { cartonId: '', cartonKey: key, cartonNo: t('hh.run.waitingCarton'), cartonType: cartonType ?? '' } };
  return { fields: cartonFields(outcome.answer.opened), opened: outcome.answer.opened };
}

/**
 * After a close: the order checked complete when all that is picked is packed and no carton is open
 * (`POST /scanPack/closeOrder` through the offline queue with its key, only as packed: the server
 * refuses it, changing nothing, when something is not packed after all); the line told.
 */
async function checkCompleteWhenDone({ t }: TaskContext<PackTask>, task: PackTask): Promise<{ text: string; done: boolean }> {
  if (!allPacked(task)) return { text: '', done: false };
  const order = task.pack.order;
  try {
    const outcome = await sendScan<PackAnswer>({ flow: 'pack', label: t('hh.run.checkLabel', { order: order.orderNo }), path: '/scanPack/closeOrder', body: { soId: order.id, whenPacked: true } });
    if (outcome.queued) return { text: t('hh.run.checkWaiting', { order: order.orderNo }), done: true };
    return { text: t('hh.run.orderChecked', { order: outcome.answer.order.orderNo, status: t(`outbound.status.${outcome.answer.order.status}`) }), done: true };
  } catch (error) {
    return { text: t('hh.run.notChecked', { order: order.orderNo, reason: messageOf(error) }), done: true };
  }
}

/** The order of a scanned carton (its number, SSCC or GS1-128 label), with that carton. */
async function orderOfCarton(code: string): Promise<{ pack: PackAnswer; carton: PackCarton }> {
  const { carton, ...pack } = await calls.packByCarton(code);
  return { pack, carton };
}

/**
 * Pack (scan and pack, as /pack does): the order search starts packing a scanned order; the steps
 * scan the carton type of a new carton (or an open carton of the order, by number or SSCC; passed
 * over while a carton is open), an item (SKU code, barcode or GS1-128 label: the server parses it)
 * and its quantity (empty: one, or the label's). Each item is a confirmation, `POST /pack/scan/sku`
 * with its idempotency key. A skipped item (or the carton's own number scanned) closes the carton:
 * the dialogs (gross and net weight, dimensions as length × width × height) are asked and make the
 * close, `POST /pack/scan/close` with its key; when all that is picked is packed, the order is then
 * checked complete. Server refusals ask the step again with their message.
 */
export const pack = defineFlow<PackTask>({
  fn: 'pack',
  async search(scanned, { t }) {
    const code = scanned.trim();
    // An order number, else a carton of an order (a GS1-128 label is always a carton's).
    let found: { pack: PackAnswer; carton?: PackCarton };
    if (looksLikeGs1(code)) found = await orderOfCarton(code);
    else {
      try {
        found = { pack: await calls.packOrder(code) };
      } catch (error) {
        if (!(error instanceof ApiError && error.body.code === 'NO_RECORD')) throw error;
        found = await orderOfCarton(code).catch((other: unknown) => {
          throw other instanceof ApiError && other.body.code === 'NO_RECORD' ? error : other;
        });
      }
    }
    const answer = found.pack;
    if (!answer.openCarton && answer.lines.every((l) => leftToPack(l) <= 0)) throw new Error(t('hh.run.nothingToPack', { order: answer.order.orderNo }));
    const [cartonTypes, units] = await Promise.all([calls.cartonTypes().catch(() => [] as CodeRow[]), calls.weightUnits().catch(() => [] as CodeRow[])]);
    return { task: { pack: answer, cartonTypes, units }, fields: { orderNo: answer.order.orderNo, ...cartonFields(found.carton ?? answer.openCarton) } };
  },
  steps: {
    'pack.scanCartonType': async (value, context): Promise<StepOutcome> => {
      const { t, task } = context;
      const carton = cartonNamed(task, value);
      if (carton) return carton.status === 'open' ? { fields: cartonFields(carton) } : { error: t('hh.run.cartonNotOpen', { carton: carton.cartonNo }) };
      const type = task.cartonTypes.find((c) => same(c.code, value));
      if (!type) return { error: t('hh.run.unknownCartonType', { code: value }) };
      // The carton is opened as its type is scanned, as on /pack (offline: once the opening is sent).
      try {
        return { fields: (await openCartonOf(context, type.code)).fields };
      } catch (error) {
        if (error instanceof ApiError) return { error: messageOf(error) };
        throw error;
      }
    },
    'pack.scanItem': (value, { t, task, fields }): StepOutcome => {
      const carton = cartonNamed(task, value);
      if (carton && String(carton.id) === fields.cartonId) return { fields: { sku: '' } };
      if (carton) return { error: t('hh.run.notThisCarton', { carton: carton.cartonNo, current: fields.cartonNo ?? '' }) };
      const line = task.pack.lines.find((l) => same(l.skuCode, value));
      if (line && (reckon(task).left.get(line.lineId) ?? 0) <= 0) return { error: t('hh.run.nothingLeftOf', { sku: line.skuCode }) };
      return { fields: { sku: value.trim() } };
    },
    'pack.enterQty': (value, { t }) => (parseQty(value) === null ? { error: t('hh.run.badPackQty') } : { fields: { qty: parseQty(value)! } }),
  },
  skipStep: (step, { fields }) => (step.action === 'pack.scanCartonType' && hasCarton(fields)) || (step.action === 'pack.enterQty' && closing(fields)),
  asksDialogs: ({ fields }) => closing(fields),
  missing: ({ t, task, fields }) => {
    if (!closing(fields)) return null;
    if (!hasCarton(fields)) return { action: 'pack.scanItem', error: t('hh.run.noCartonToClose') };
    // A carton opened at the carton type step is not in the order as read before: nothing is in it yet, but what waits to be sent into it.
    const carton = cartonOf(task, fields);
    const waiting = waitingItems(task).filter((w) => w.carton === refOf(fields)).length;
    if ((carton?.lines.length ?? 0) + waiting === 0) return { action: 'pack.scanItem', error: t('hh.run.cartonEmpty', { carton: carton?.cartonNo ?? fields.cartonNo ?? '' }) };
    return null;
  },
  async confirm(context) {
    const { t, task, fields, key, dialog } = context;
    const orderNo = task.pack.order.orderNo;
    if (closing(fields)) {
      const cartonNo = cartonOf(task, fields)?.cartonNo ?? fields.cartonNo ?? '';
      const gross = dialog.grossWeight?.replace(',', '.');
      const net = dialog.netWeight?.replace(',', '.');
      if (!gross || !net) throw new Error(t('hh.run.weightsRequired'));
      const measures = dialog.dimension ? parseDimension(dialog.dimension) : null;
      if (measures && measures.length !== 3) throw new Error(t('hh.run.dimensionsLwh'));
      const unit = task.units[0]?.code;
      if (!unit) throw new Error(t('hh.run.noWeightUnit'));
      const body = {
        ...cartonName(fields),
        grossWeight: gross,
        netWeight: net,
        weightUom: unit,
        ...(measures ? { length: measures[0], width: measures[1], height: measures[2] } : {}),
      };
      const outcome = await sendScan<PackAnswer & { cartonId?: number }>({ flow: 'pack', label: `${orderNo} · ${cartonNo} · ${gross}/${net} ${unit}`, path: '/pack/scan/close', body, key });
      const subject = { ...body, orderNo, cartonNo };
      if (outcome.queued) {
        // Waiting: the order is checked complete after it when, by what the handheld knows, all will be packed then.
        const after: PackTask = { ...task, waiting: [...(task.waiting ?? []), { kind: 'close', carton: refOf(fields) }] };
        const checked = await checkCompleteWhenDone(context, after);
        const message = [t('inb.offline.stored'), checked.text].filter(Boolean).join(' ');
        return { queued: true, message, left: checked.done ? null : { task: after, fields: { orderNo } }, subject };
      }
      // Answered: every scan before it was sent; the answer is the order as it stands.
      const id = outcome.answer.cartonId ?? Number(fields.cartonId);
      const closed = outcome.answer.cartons.find((c) => c.id === id);
      const after: PackTask = { ...task, pack: outcome.answer, waiting: [] };
      const checked = await checkCompleteWhenDone(context, after);
      const message = [t('hh.run.cartonClosed', { carton: closed?.cartonNo ?? cartonNo, sscc: closed?.sscc ?? '' }), checked.text].filter(Boolean).join(' ');
      return { queued: false, message, left: checked.done ? null : { task: after, fields: { orderNo } }, subject };
    }

    // An item into the carton: a carton is opened first when none is (the carton type step skipped).
    let before = cartonOf(task, fields);
    let opened: Fields = {};
    if (!hasCarton(fields)) {
      try {
        const answer = await openCartonOf(context, fields.cartonType || null);
        before = answer.opened;
        opened = answer.fields;
      } catch (error) {
        if (error instanceof ApiError) throw new StepRefusal(messageOf(error), 'pack.scanCartonType');
        throw error;
      }
    }
    const into = { ...fields, ...opened };
    const cartonNo = before?.cartonNo ?? into.cartonNo ?? '';
    const qty = (fields.qty ?? '').trim();
    const body = { ...cartonName(into), barcode: fields.sku, ...(qty ? { qty } : {}) };
    const subject = { ...body, orderNo, cartonNo };
    try {
      const outcome = await sendScan<PackAnswer & { cartonId?: number }>({ flow: 'pack', label: `${cartonNo} · ${fields.sku}${qty ? ` × ${qty}` : ''}`, path: '/pack/scan/sku', body, key });
      const keep = { orderNo, cartonId: into.cartonId ?? '', cartonKey: into.cartonKey ?? '', cartonNo, cartonType: into.cartonType ?? '' };
      if (outcome.queued) {
        const waiting: WaitingScan[] = [...(task.waiting ?? []), { kind: 'item', carton: refOf(into), sku: fields.sku, qty: qty ? Number(qty) : 1 }];
        return { queued: true, message: t('inb.offline.stored'), left: { task: { ...task, waiting }, fields: keep }, subject };
      }
      // Answered: every scan before it was sent (a carton opened offline is known by its id now).
      const id = outcome.answer.cartonId ?? Number(into.cartonId);
      const after = outcome.answer.cartons.find((c) => c.id === id);
      const items = cartonChange(before, after)
        .map((c) => `${c.skuCode} ${c.qty > 0 ? '+' : ''}${c.qty}`)
        .join(', ');
      return { queued: false, message: t('hh.run.packed', { items, carton: after?.cartonNo ?? cartonNo }), left: { task: { ...task, pack: outcome.answer, waiting: [] }, fields: { ...keep, ...cartonFields(after) } }, subject };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // More than is left of the item asks the quantity again (when the flow has that step); anything else the item.
      const action = error.body.code === 'OVERPACK_NOT_ALLOWED' && context.definition.steps.some((s) => s.action === 'pack.enterQty') ? 'pack.enterQty' : 'pack.scanItem';
      throw new StepRefusal(messageOf(error), action, opened);
    }
  },
  view: ({ t, task, fields }) => {
    const left = leftText(task);
    return {
      lines: [
        `${task.pack.order.orderNo} · ${t(`outbound.status.${task.pack.order.status}`)}`,
        fields.cartonNo ? t('hh.run.intoCarton', { carton: fields.cartonNo, items: contents(t, task, fields) }) : t('hh.run.noCarton'),
        left ? t('hh.run.leftToPack', { items: left }) : t('hh.run.allPacked'),
      ],
    };
  },
  promptParams: ({ fields }) => ({ carton: fields.cartonNo ?? '' }),
});
