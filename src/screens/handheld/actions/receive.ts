import { ApiError } from '../../../app/public';
import type { ContainerCarton, ReceiveResult, ScanInAnswer } from '../../../common/inbound-api';
import { messageOf } from '../../inbound/handheld';
import { sendScan } from '../../inbound/offline-queue';
import * as calls from '../calls';
import { lpnOf } from './putaway';
import type { ScanStep } from '../../../common/handheld-api';
import { defineFlow, StepRefusal, type StepOutcome } from './types';

/** The step a refusal of the scan-in asks again: the value the server misses, else the carton. */
const REFUSED_STEP: Record<string, string> = {
  EPC_REQUIRED: 'receive.scanEpc',
  CARTON_TYPE_REQUIRED: 'receive.scanCartonType',
  ANTI_COUNTERFEIT_REQUIRED: 'receive.scanAntiCounterfeit',
};

/** Throws a refusal of the server as the step to ask again (one the flow has), other errors as they are. */
function refusal(error: unknown, steps: ScanStep[], fallback: string): never {
  if (!(error instanceof ApiError)) throw error;
  const wanted = REFUSED_STEP[error.body.code] ?? fallback;
  const action = steps.some((s) => s.action === wanted) ? wanted : fallback;
  throw new StepRefusal(messageOf(error), action);
}

/** A container being scanned in: its id and its cartons. */
export interface ReceiveTask {
  containerId: string;
  cartons: ContainerCarton[];
}

const open = (task: ReceiveTask) => task.cartons.filter((c) => c.status !== 'received');

/**
 * Receive (scan-in against an ASN): the order search finds the container of a scanned container
 * id and its cartons; the steps scan a carton of it (no carton step: the whole container), its
 * EPC, carton type and anti-counterfeit code, the receiving location and an LPN. The confirmation
 * scans the carton (or container) in (`POST /scanin/id`) and receives the scanned cartons of the
 * container at the location (`POST /scanin/convertToRec`, whose key the dialog values are kept by),
 * both through the offline queue in that order.
 */
export const receive = defineFlow<ReceiveTask>({
  fn: 'receive',
  async search(scanned, { t }) {
    const containerId = scanned.trim();
    const cartons = await calls.containerCartons(containerId);
    const task = { containerId, cartons };
    if (open(task).length === 0) throw new Error(t('hh.run.noContainer', { container: containerId }));
    return { task, fields: { containerId } };
  },
  steps: {
    'receive.scanCarton': (value, { t, task }): StepOutcome => {
      const carton = open(task).find((c) => c.carton_id.toLowerCase() === value.toLowerCase());
      return carton ? { fields: { cartonId: carton.carton_id } } : { error: t('hh.run.notInContainer', { carton: value, container: task.containerId }) };
    },
    'receive.scanEpc': (value) => ({ fields: { epc: value } }),
    'receive.scanCartonType': (value) => ({ fields: { cartonType: value } }),
    'receive.scanAntiCounterfeit': (value) => ({ fields: { antiCounterfeitCode: value } }),
    'receive.scanLocation': (value) => ({ fields: { locationCode: value } }),
    'receive.scanLpn': (value) => ({ fields: { lpn: value === '' ? '' : lpnOf(value) } }),
  },
  missing: ({ t, fields }) => (fields.locationCode ? null : { action: 'receive.scanLocation', error: t('hh.run.noLocation') }),
  async confirm({ t, task, fields, key, definition }) {
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
    const outcome = await sendScan<{ receipts: ReceiveResult[] }>({ flow: 'receive', label: `${task.containerId} → ${fields.locationCode}`, path: '/scanin/convertToRec', body, key }).catch((error: unknown) =>
      refusal(error, definition.steps, 'receive.scanLocation'),
    );
    if (scanned.queued || outcome.queued) {
      const left = { ...task, cartons: task.cartons.map((c) => (c.carton_id === carton || carton === '' ? { ...c, status: 'received' as const } : c)) };
      return { queued: true, message: t('inb.offline.stored'), left: open(left).length > 0 ? { task: left, fields: { containerId: task.containerId } } : null, subject: body };
    }
    const receipts = outcome.answer.receipts;
    const cartons = await calls.containerCartons(task.containerId).catch(() => [] as ContainerCarton[]);
    const next = { containerId: task.containerId, cartons };
    return {
      queued: false,
      message: t('hh.run.received', { receipt: receipts.map((r) => r.receiptNo).join(', '), container: task.containerId, location: fields.locationCode }),
      left: open(next).length > 0 ? { task: next, fields: { containerId: task.containerId } } : null,
      subject: body,
    };
  },
  view: ({ t, task, fields }) => {
    const carton = task.cartons.find((c) => c.carton_id === fields.cartonId);
    return {
      lines: [
        `${task.containerId} · ${[...new Set(task.cartons.map((c) => c.asn_no))].join(', ')}`,
        t('hh.run.cartonsLeft', { n: open(task).length }),
        ...(carton ? [`${carton.carton_id} · ${carton.sku_code} × ${Number(carton.qty)}`] : []),
      ],
    };
  },
});
