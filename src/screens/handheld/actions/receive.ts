import { ApiError } from '../../../app/public';
import { looksLikeGs1, parseGs1, type Gs1Data } from '../../../common/gs1';
import type { ContainerCarton, ReceivableLine, ReceiveAnswer, ReceiveLineRequest, ScanInAnswer } from '../../../common/inbound-api';
import { messageOf } from '../../inbound/handheld';
import { sendScan } from '../../inbound/offline-queue';
import * as calls from '../calls';
import { lpnOf } from './putaway';
import type { ScanStep } from '../../../common/handheld-api';
import { defineFlow, isQty, StepRefusal, type Choice, type Fields, type StepOutcome, type TaskContext } from './types';

/** The step a refusal of the scan-in asks again: the value the server misses, else the carton. */
const REFUSED_STEP: Record<string, string> = {
  EPC_REQUIRED: 'receive.scanEpc',
  CARTON_TYPE_REQUIRED: 'receive.scanCartonType',
  ANTI_COUNTERFEIT_REQUIRED: 'receive.scanAntiCounterfeit',
};

/** The step a refusal of a line's receipt asks again: the quantity (over receipt) or the location; other refusals ask nothing again. */
const REFUSED_LINE_STEP: Record<string, string> = {
  OVER_RECEIVE: 'receive.enterQty',
  QTY_NOT_POSITIVE: 'receive.enterQty',
  INSUFFICIENT_INVENTORY: 'receive.enterQty',
  LOCATION_NOT_FOUND: 'receive.scanLocation',
  LOCATION_REQUIRED: 'receive.scanLocation',
};

/** Throws a refusal of the server as the step to ask again (one the flow has), other errors as they are. */
function refusal(error: unknown, steps: ScanStep[], fallback: string): never {
  if (!(error instanceof ApiError)) throw error;
  const wanted = REFUSED_STEP[error.body.code] ?? fallback;
  const action = steps.some((s) => s.action === wanted) ? wanted : fallback;
  throw new StepRefusal(messageOf(error), action);
}

/** The steps of the scan-in of a container's cartons, which receiving by ASN line passes over. */
const CARTON_STEPS = ['receive.scanCarton', 'receive.scanEpc', 'receive.scanCartonType', 'receive.scanAntiCounterfeit'];
/** The steps of receiving by ASN line, which the scan-in of a container passes over. */
const LINE_STEPS = ['receive.chooseLine', 'receive.enterQty'];

/** A container being scanned in: its id and its cartons. */
export interface ContainerTask {
  mode: 'container';
  containerId: string;
  cartons: ContainerCarton[];
}

/** The receivable ASN lines of a scanned ASN number, SKU code or barcode, or GS1-128 label (and what the label says). */
export interface LineTask {
  mode: 'lines';
  code: string;
  lines: ReceivableLine[];
  label: Gs1Data;
}

export type ReceiveTask = ContainerTask | LineTask;

const open = (task: ContainerTask) => task.cartons.filter((c) => c.status !== 'received');

const lineOf = (task: ReceiveTask, fields: Fields) => (task.mode === 'lines' ? task.lines.find((l) => String(l.id) === fields.asnLineId) : undefined);
const openQty = (line: ReceivableLine) => Number(line.expected_qty) - Number(line.received_qty);

/** The lines to choose from, as buttons: ASN number, SKU and what is received of what is expected. */
const lineChoices = (task: LineTask): Choice[] =>
  task.lines.map((l) => ({ value: String(l.id), label: `${l.asn_no} / ${l.line_no} · ${l.sku_code} (${Number(l.received_qty)}/${Number(l.expected_qty)})` }));

/** A container of the scanned id with cartons left to receive, or null when the id is no such container. */
async function containerOf(containerId: string): Promise<ContainerTask | null> {
  try {
    const task: ContainerTask = { mode: 'container', containerId, cartons: await calls.containerCartons(containerId) };
    return open(task).length > 0 ? task : null;
  } catch (error) {
    if (error instanceof ApiError && error.body.code === 'CONTAINER_NOT_FOUND_OR_RECEIVED') return null;
    throw error;
  }
}

/**
 * Receive, in two ways that share one configuration. The order search takes a container id, an
 * ASN number, a SKU code or barcode, or a GS1-128 label:
 *
 * - a container with cartons left: its scan-in. The steps scan a carton of it (no carton step: the
 *   whole container), its EPC, carton type and anti-counterfeit code, the receiving location and
 *   an LPN; the confirmation scans the carton (or container) in (`POST /scanin/id`) and receives
 *   the scanned cartons at the location (`POST /scanin/convertToRec`), both through the offline
 *   queue in that order. The line steps (`receive.chooseLine`, `receive.enterQty`) are passed over.
 * - otherwise the receivable ASN lines the text finds (`/rec/batch/editor`; a GS1 label by its
 *   GTIN, its batch, expiry, SSCC, serial and count kept for the receipt): several lines are
 *   offered as buttons (`receive.chooseLine`), then the location, the quantity (`receive.enterQty`;
 *   skipped: the label's count) and an optional LPN (skipped: the label's SSCC). The confirmation
 *   receives the line (`POST /inbound/batch/receive`) through the offline queue; an over receipt is
 *   refused by the server and the quantity asked again. The carton steps are passed over.
 */
export const receive = defineFlow<ReceiveTask>({
  fn: 'receive',
  async search(scanned, { t }) {
    let text = scanned.trim();
    let label: Gs1Data = {};
    if (looksLikeGs1(text)) {
      const parsed = parseGs1(text);
      if (!parsed.ok) throw new Error(t('inb.ui.badBarcode', { reason: parsed.error }));
      label = parsed.data;
      text = label.gtin ?? label.contentGtin ?? text;
    } else {
      const container = await containerOf(text);
      if (container) return { task: container as ReceiveTask, fields: { containerId: text } };
    }
    const lines = (await calls.receivableLines(text)).lines;
    if (lines.length === 0) throw new Error(t('hh.run.nothingToReceive', { code: scanned.trim() }));
    const task: LineTask = { mode: 'lines', code: scanned.trim(), lines, label };
    const fields: Fields = { code: task.code };
    if (lines.length === 1) fields.asnLineId = String(lines[0].id);
    return { task, fields };
  },
  steps: {
    'receive.scanCarton': (value, { t, task }): StepOutcome => {
      if (task.mode !== 'container') return { fields: {} };
      const carton = open(task).find((c) => c.carton_id.toLowerCase() === value.toLowerCase());
      return carton ? { fields: { cartonId: carton.carton_id } } : { error: t('hh.run.notInContainer', { carton: value, container: task.containerId }) };
    },
    'receive.scanEpc': (value) => ({ fields: { epc: value } }),
    'receive.scanCartonType': (value) => ({ fields: { cartonType: value } }),
    'receive.scanAntiCounterfeit': (value) => ({ fields: { antiCounterfeitCode: value } }),
    'receive.chooseLine': (value, { t, task }): StepOutcome => {
      if (task.mode !== 'lines') return { fields: {} };
      const wanted = value.trim().toLowerCase();
      const line = task.lines.find((l) => String(l.id) === wanted || `${l.asn_no}/${l.line_no}`.toLowerCase() === wanted.replace(/\s/g, ''));
      return line ? { fields: { asnLineId: String(line.id) } } : { error: t('hh.run.chooseOne', { choices: lineChoices(task).map((c) => c.label).join(' / ') }) };
    },
    'receive.scanLocation': (value) => ({ fields: { locationCode: value } }),
    'receive.enterQty': (value, { t }): StepOutcome => (isQty(value) ? { fields: { qty: value.trim() } } : { error: t('hh.run.badReceiveQty') }),
    'receive.scanLpn': (value) => ({ fields: { lpn: value === '' ? '' : lpnOf(value) } }),
  },
  // A container's scan-in passes over the line steps, receiving by line the carton steps; a single line is not chosen.
  skipStep: (step, { task, fields }) =>
    task.mode === 'container' ? LINE_STEPS.includes(step.action) : CARTON_STEPS.includes(step.action) || (step.action === 'receive.chooseLine' && lineOf(task, fields) !== undefined),
  choices: (step, { task }) => (step.action === 'receive.chooseLine' && task.mode === 'lines' ? lineChoices(task) : null),
  missing: ({ t, task, fields }) => {
    if (task.mode === 'lines' && !lineOf(task, fields)) return { action: 'receive.chooseLine', error: t('inb.ui.chooseLine') };
    if (!fields.locationCode) return { action: 'receive.scanLocation', error: t('hh.run.noLocation') };
    if (task.mode === 'lines' && !(fields.qty ?? '').trim() && !task.label.count) return { action: 'receive.enterQty', error: t('hh.run.badReceiveQty') };
    return null;
  },
  async confirm(context) {
    return context.task.mode === 'lines' ? confirmLine({ ...context, task: context.task }) : confirmContainer({ ...context, task: context.task });
  },
  view: ({ t, task, fields }) => {
    if (task.mode === 'lines') {
      const line = lineOf(task, fields);
      const label = task.label;
      const kept = [label.batch, label.expiry, label.sscc, label.serial].filter(Boolean).join(' · ');
      return {
        lines: [
          line ? `${line.asn_no} / ${line.line_no} · ${line.sku_code} · ${t('inb.ui.openQty', { qty: openQty(line) })}` : `${task.code} · ${t('hh.run.linesFound', { n: task.lines.length })}`,
          ...(kept ? [kept] : []),
          ...(label.count ? [t('hh.run.labelCount', { qty: label.count })] : []),
        ],
      };
    }
    const carton = task.cartons.find((c) => c.carton_id === fields.cartonId);
    return {
      lines: [
        `${task.containerId} · ${[...new Set(task.cartons.map((c) => c.asn_no))].join(', ')}`,
        t('hh.run.cartonsLeft', { n: open(task).length }),
        ...(carton ? [`${carton.carton_id} · ${carton.sku_code} × ${Number(carton.qty)}`] : []),
      ],
    };
  },
  // The quantity's prompt names the label's count, which a skip takes.
  promptParams: ({ task }): Record<string, string | number> => (task.mode === 'lines' && task.label.count ? { context: 'label', qty: task.label.count } : {}),
});

type Confirming<Task> = TaskContext<Task> & { key: string };

/** The scan-in of the scanned carton (or the whole container), then its receipt at the location. */
async function confirmContainer({ t, task, fields, key, definition }: Confirming<ContainerTask>) {
  const carton = fields.cartonId ?? '';
  const code = carton || task.containerId;
  const text = (name: string) => (fields[name] ?? '').trim() || null;
  const scanIn = carton
    ? { code, epc: text('epc'), cartonType: text('cartonType'), antiCounterfeitCode: text('antiCounterfeitCode') }
    : { code, cartonType: text('cartonType') };
  // A refusal (an EPC, carton type or anti-counterfeit code the item needs, a carton received meanwhile) asks its step again.
  const scanned = await sendScan<ScanInAnswer>({ flow: 'receive', label: `${t('hh.fn.receive')} · ${code}`, path: '/scanin/id', body: scanIn }).catch((error: unknown) =>
    refusal(error, definition.steps, 'receive.scanCarton'),
  );
  const body = { containerId: task.containerId, locationCode: fields.locationCode, lpn: text('lpn') };
  const outcome = await sendScan<ReceiveAnswer>({ flow: 'receive', label: `${task.containerId} → ${fields.locationCode}`, path: '/scanin/convertToRec', body, key }).catch((error: unknown) =>
    refusal(error, definition.steps, 'receive.scanLocation'),
  );
  const stay = (next: ContainerTask) => (open(next).length > 0 ? { task: next as ReceiveTask, fields: { containerId: task.containerId } } : null);
  if (scanned.queued || outcome.queued) {
    const left: ContainerTask = { ...task, cartons: task.cartons.map((c) => (c.carton_id === carton || carton === '' ? { ...c, status: 'received' as const } : c)) };
    return { queued: true, message: t('inb.offline.stored'), left: stay(left), subject: body };
  }
  const receipts = outcome.answer.receipts;
  const cartons = await calls.containerCartons(task.containerId).catch(() => [] as ContainerCarton[]);
  return {
    queued: false,
    message: t('hh.run.received', { receipt: receipts.map((r) => r.receiptNo).join(', '), container: task.containerId, location: fields.locationCode }),
    left: stay({ mode: 'container', containerId: task.containerId, cartons }),
    subject: body,
  };
}

/**
 * The receipt of the chosen line at the location: the quantity typed (else the label's count), the
 * LPN scanned (else the label's SSCC), the label's batch, expiry and serial (as the trace id). A
 * refusal of the quantity or the location asks that step again.
 */
async function confirmLine({ t, task, fields, key }: Confirming<LineTask>) {
  const line = lineOf(task, fields)!;
  const { label } = task;
  const qty = (fields.qty ?? '').trim() || String(label.count);
  const receipt: ReceiveLineRequest & { traceId: string | null } = {
    asnLineId: line.id,
    qty,
    locationCode: fields.locationCode,
    lotNo: label.batch ?? null,
    expiryDate: label.expiry ?? null,
    lpn: (fields.lpn ?? '').trim() || label.sscc || null,
    traceId: label.serial ?? null,
  };
  const outcome = await sendScan<ReceiveAnswer>({
    flow: 'receive',
    label: `${line.asn_no} · ${line.sku_code} × ${qty} → ${fields.locationCode}`,
    path: '/inbound/batch/receive',
    body: { lines: [receipt] },
    key,
  }).catch((error: unknown) => {
    const action = error instanceof ApiError ? REFUSED_LINE_STEP[error.body.code] : undefined;
    throw action ? new StepRefusal(messageOf(error), action) : error;
  });
  const subject = { asnNo: line.asn_no, skuCode: line.sku_code, ...receipt };
  if (outcome.queued) return { queued: true, message: t('inb.offline.stored'), left: null, subject };
  const done = outcome.answer.receipts[0];
  return {
    queued: false,
    message: t('inb.ui.received', { qty, sku: line.sku_code, receipt: done.receiptNo, status: t(`inb.status.${done.status}`) }),
    left: null,
    subject,
  };
}
