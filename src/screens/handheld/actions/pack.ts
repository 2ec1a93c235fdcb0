import { ApiError } from '../../../app/public';
import { parseDimension } from '../../../common/handheld-api';
import { sendScan } from '../../inbound/offline-queue';
import { messageOf } from '../../inbound/handheld';
import { cartonChange, leftToPack, parseQty, type CodeRow, type PackAnswer, type PackCarton } from '../../packing/pack-api';
import * as calls from '../calls';
import { defineFlow, StepRefusal, type Fields, type StepOutcome, type TaskContext } from './types';

/** An order being packed: what /scanPack answers of it, with the carton types and weight units offered. */
export interface PackTask {
  pack: PackAnswer;
  cartonTypes: CodeRow[];
  units: CodeRow[];
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
/** The order's carton a scan names, by its number or its SSCC. */
const cartonNamed = (task: PackTask, code: string) => task.pack.cartons.find((c) => same(c.cartonNo, code) || (c.sscc !== null && same(c.sscc, code)));
const cartonOf = (task: PackTask, fields: Fields) => task.pack.cartons.find((c) => String(c.id) === fields.cartonId);
/** The carton scans go into: the one chosen or opened, else the order's open carton. */
const cartonFields = (carton: PackCarton | null | undefined): Fields => (carton && carton.status === 'open' ? { cartonId: String(carton.id), cartonNo: carton.cartonNo, cartonType: carton.cartonType ?? '' } : {});
/** The item step was skipped (or its carton's own number scanned): the carton is closed. */
const closing = (fields: Fields) => 'sku' in fields && fields.sku.trim() === '';
const leftText = (pack: PackAnswer) =>
  pack.lines
    .filter((l) => leftToPack(l) > 0)
    .map((l) => `${l.skuCode} ${leftToPack(l)}`)
    .join(', ');
const contents = (carton: PackCarton | undefined) => (carton?.lines ?? []).map((l) => `${l.skuCode} × ${Number(l.qty)}`).join(', ');

/** After a close: the order checked complete when all that is picked is packed and no carton is open; the line told. */
async function checkCompleteWhenDone({ t }: TaskContext<PackTask>, pack: PackAnswer): Promise<{ text: string; done: boolean }> {
  if (pack.openCarton || pack.lines.some((l) => leftToPack(l) > 0)) return { text: '', done: false };
  try {
    const checked = await calls.checkComplete(pack.order.id);
    return { text: t('hh.run.orderChecked', { order: checked.order.orderNo, status: t(`outbound.status.${checked.order.status}`) }), done: true };
  } catch (error) {
    return { text: t('hh.run.notChecked', { order: pack.order.orderNo, reason: messageOf(error) }), done: true };
  }
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
    const answer = await calls.packOrder(scanned.trim());
    if (!answer.openCarton && answer.lines.every((l) => leftToPack(l) <= 0)) throw new Error(t('hh.run.nothingToPack', { order: answer.order.orderNo }));
    const [cartonTypes, units] = await Promise.all([calls.cartonTypes().catch(() => [] as CodeRow[]), calls.weightUnits().catch(() => [] as CodeRow[])]);
    return { task: { pack: answer, cartonTypes, units }, fields: { orderNo: answer.order.orderNo, ...cartonFields(answer.openCarton) } };
  },
  steps: {
    'pack.scanCartonType': async (value, { t, task }): Promise<StepOutcome> => {
      const carton = cartonNamed(task, value);
      if (carton) return carton.status === 'open' ? { fields: cartonFields(carton) } : { error: t('hh.run.cartonNotOpen', { carton: carton.cartonNo }) };
      const type = task.cartonTypes.find((c) => same(c.code, value));
      if (!type) return { error: t('hh.run.unknownCartonType', { code: value }) };
      // The carton is opened as its type is scanned, as on /pack.
      try {
        const opened = await calls.openCarton({ soId: task.pack.order.id, cartonType: type.code });
        return { fields: cartonFields(opened.openCarton) };
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
      if (line && leftToPack(line) <= 0) return { error: t('hh.run.nothingLeftOf', { sku: line.skuCode }) };
      return { fields: { sku: value.trim() } };
    },
    'pack.enterQty': (value, { t }) => (parseQty(value) === null ? { error: t('hh.run.badPackQty') } : { fields: { qty: parseQty(value)! } }),
  },
  skipStep: (step, { fields }) => (step.action === 'pack.scanCartonType' && !!fields.cartonId) || (step.action === 'pack.enterQty' && closing(fields)),
  asksDialogs: ({ fields }) => closing(fields),
  missing: ({ t, task, fields }) => {
    if (!closing(fields)) return null;
    if (!fields.cartonId) return { action: 'pack.scanItem', error: t('hh.run.noCartonToClose') };
    // A carton opened at the carton type step is not in the order as read before: nothing is in it yet.
    const carton = cartonOf(task, fields);
    if (!carton || carton.lines.length === 0) return { action: 'pack.scanItem', error: t('hh.run.cartonEmpty', { carton: carton?.cartonNo ?? fields.cartonNo ?? '' }) };
    return null;
  },
  async confirm(context) {
    const { t, task, fields, key, dialog } = context;
    const orderNo = task.pack.order.orderNo;
    if (closing(fields)) {
      const carton = cartonOf(task, fields)!;
      const gross = dialog.grossWeight?.replace(',', '.');
      const net = dialog.netWeight?.replace(',', '.');
      if (!gross || !net) throw new Error(t('hh.run.weightsRequired'));
      const measures = dialog.dimension ? parseDimension(dialog.dimension) : null;
      if (measures && measures.length !== 3) throw new Error(t('hh.run.dimensionsLwh'));
      const unit = task.units[0]?.code;
      if (!unit) throw new Error(t('hh.run.noWeightUnit'));
      const body = {
        cartonId: carton.id,
        grossWeight: gross,
        netWeight: net,
        weightUom: unit,
        ...(measures ? { length: measures[0], width: measures[1], height: measures[2] } : {}),
      };
      const outcome = await sendScan<PackAnswer>({ flow: 'pack', label: `${orderNo} · ${carton.cartonNo} · ${gross}/${net} ${unit}`, path: '/pack/scan/close', body, key });
      const subject = { ...body, orderNo, cartonNo: carton.cartonNo };
      if (outcome.queued) return { queued: true, message: t('inb.offline.stored'), left: null, subject };
      const closed = outcome.answer.cartons.find((c) => c.id === carton.id);
      const checked = await checkCompleteWhenDone(context, outcome.answer);
      const message = [t('hh.run.cartonClosed', { carton: carton.cartonNo, sscc: closed?.sscc ?? '' }), checked.text].filter(Boolean).join(' ');
      return { queued: false, message, left: checked.done ? null : { task: { ...task, pack: outcome.answer }, fields: { orderNo } }, subject };
    }

    // An item into the carton: a carton is opened first when none is (the carton type step skipped).
    let before = cartonOf(task, fields);
    let opened: Fields = {};
    if (!fields.cartonId) {
      try {
        const answer = await calls.openCarton({ soId: task.pack.order.id, cartonType: fields.cartonType || null });
        before = answer.openCarton ?? undefined;
        opened = cartonFields(answer.openCarton);
      } catch (error) {
        if (error instanceof ApiError) throw new StepRefusal(messageOf(error), 'pack.scanCartonType');
        throw error;
      }
    }
    const cartonNo = before?.cartonNo ?? opened.cartonNo ?? fields.cartonNo ?? '';
    const qty = (fields.qty ?? '').trim();
    const body = { cartonId: Number(opened.cartonId ?? fields.cartonId), barcode: fields.sku, ...(qty ? { qty } : {}) };
    const subject = { ...body, orderNo, cartonNo };
    try {
      const outcome = await sendScan<PackAnswer>({ flow: 'pack', label: `${cartonNo} · ${fields.sku}${qty ? ` × ${qty}` : ''}`, path: '/pack/scan/sku', body, key });
      const keep = { orderNo, cartonId: String(body.cartonId), cartonNo, cartonType: fields.cartonType ?? '', ...opened };
      if (outcome.queued) return { queued: true, message: t('inb.offline.stored'), left: { task, fields: keep }, subject };
      const after = outcome.answer.cartons.find((c) => c.id === body.cartonId);
      const items = cartonChange(before, after)
        .map((c) => `${c.skuCode} ${c.qty > 0 ? '+' : ''}${c.qty}`)
        .join(', ');
      return { queued: false, message: t('hh.run.packed', { items, carton: cartonNo }), left: { task: { ...task, pack: outcome.answer }, fields: { ...keep, ...cartonFields(after) } }, subject };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // More than is left of the item asks the quantity again (when the flow has that step); anything else the item.
      const action = error.body.code === 'OVERPACK_NOT_ALLOWED' && context.definition.steps.some((s) => s.action === 'pack.enterQty') ? 'pack.enterQty' : 'pack.scanItem';
      throw new StepRefusal(messageOf(error), action, opened);
    }
  },
  view: ({ t, task, fields }) => {
    const carton = cartonOf(task, fields);
    const left = leftText(task.pack);
    return {
      lines: [
        `${task.pack.order.orderNo} · ${t(`outbound.status.${task.pack.order.status}`)}`,
        fields.cartonNo ? t('hh.run.intoCarton', { carton: fields.cartonNo, items: contents(carton) }) : t('hh.run.noCarton'),
        left ? t('hh.run.leftToPack', { items: left }) : t('hh.run.allPacked'),
      ],
    };
  },
  promptParams: ({ fields }) => ({ carton: fields.cartonNo ?? '' }),
});
