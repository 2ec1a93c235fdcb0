import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { afterCommit, inTransaction } from '../../db/transaction.js';
import { sendRaw } from './printer-client.js';
import type { Language } from '../../../common/languages.js';
import { labelPdf } from './label-pdf.js';
import { queuedSender } from '../../area-kit/queued-sender.js';
import { findActivePrinters, findAutoLabelPrinter, findJobDocument, findJobsOfWarehouse, findPrinter, findPrinterAddress, findPrinterOfJob, insertPrintJob } from './printing.repository.js';
import type { PrintJobStatus } from './printing.tables.js';
import { cartonLabelZpl, palletLabelZpl, type CartonLabel, type LabelKind } from './zpl.js';
import { zplCaptions } from './zpl-captions.js';
import { printPublished, type TemplateInputs } from '../template/index.js';

/** After this many attempts a job is no longer sent by the queue's job, only on request (retry). */
export const MAX_AUTOMATIC_ATTEMPTS = 10;

/** A document kind: a short name such as `cartonLabel`. */
const DOCUMENT_KIND = /^[a-z][A-Za-z0-9]{0,39}$/;

export interface PrintRequest {
  warehouseId: number;
  printerId: number;
  /** What the document is, e.g. `cartonLabel`. */
  documentKind: string;
  /** ZPL text (sent as UTF-8) or the bytes of a document. */
  payload: string | Uint8Array;
  /** What it was printed for (an SSCC, an order number), at most 100 characters. */
  reference?: string | null;
  /** The login of who asks for it. */
  by: string;
}

/**
 * Puts a document on the print queue of a warehouse's printer, in the caller's transaction: it is
 * printed only if the caller commits, and kept until a printer took it. With `sendWith` (the
 * database), it is sent once the transaction committed, without waiting for it; otherwise the
 * queue's job (`printing.sendQueued`) or a retry sends it. Answers the job's id.
 */
export async function enqueuePrint(trx: Transaction<DB>, request: PrintRequest, options: { sendWith?: Kysely<DB> } = {}): Promise<number> {
  if (!DOCUMENT_KIND.test(request.documentKind)) throw new Error(`print document kind "${request.documentKind}" is not a short name`);
  const printer = await findPrinter(trx, request.warehouseId, request.printerId);
  if (!printer || !printer.active) throw new AppError('PRINTER_NOT_FOUND');
  const payload = typeof request.payload === 'string' ? Buffer.from(request.payload, 'utf8') : request.payload;
  const id = await insertPrintJob(trx, {
    warehouse_id: request.warehouseId,
    printer_id: request.printerId,
    document_kind: request.documentKind,
    reference: request.reference?.slice(0, 100) ?? null,
    payload,
    copy_of: null,
    by: request.by,
  });
  const db = options.sendWith;
  if (db) afterCommit(trx, () => void sendPrintJobs(db, [id], { by: request.by }).catch(() => undefined));
  return id;
}

/**
 * Records, in the caller's transaction, a document that could not be made (its template failed to
 * render, its data could not be read): a print job of the printer that is `failed` from the start,
 * with no document, the error `PRINT_RENDER_FAILED` and what went wrong, so the print queue shows
 * it instead of the document silently missing. It is never sent; print the document again once
 * its cause is fixed. Answers the job's id.
 */
export async function recordFailedPrint(trx: Transaction<DB>, request: Omit<PrintRequest, 'payload'> & { error: string }): Promise<number> {
  if (!DOCUMENT_KIND.test(request.documentKind)) throw new Error(`print document kind "${request.documentKind}" is not a short name`);
  const printer = await findPrinter(trx, request.warehouseId, request.printerId);
  if (!printer) throw new AppError('PRINTER_NOT_FOUND');
  return insertPrintJob(trx, {
    warehouse_id: request.warehouseId,
    printer_id: request.printerId,
    document_kind: request.documentKind,
    reference: request.reference?.slice(0, 100) ?? null,
    payload: new Uint8Array(0),
    copy_of: null,
    by: request.by,
    failed: { code: 'PRINT_RENDER_FAILED', detail: request.error.slice(0, 1000) },
  });
}

export interface PrintLabelRequest {
  warehouseId: number;
  /** The login of who asks for it. */
  by: string;
  kind: LabelKind;
  /**
   * The label, or how to read it: read only once a printer is found, so that printing on its own
   * initiative costs nothing (and cannot fail what asked for it) where no printer prints labels.
   */
  label: CartonLabel | (() => Promise<CartonLabel>);
  /** The printer to print on; without it, the warehouse's printer marked for automatic carton labels. */
  printerId?: number | null;
  /** Printing on its own initiative (a carton closed): without a printer for automatic labels nothing is printed. */
  auto?: boolean;
  /**
   * The language of the printing user (default English): a PDF label's captions are in it, a ZPL
   * label's too when they are in Latin script, else in English (`zplCaptions`).
   */
  language?: Language;
  /**
   * The project the label is printed for: a PDF label prints through the project's published
   * `cartonLabel` or `palletLabel` template when it has one (docs/templates.md), else the built-in
   * layout. ZPL labels are always the built-in ZPL.
   */
  projectId?: number | null;
}

/**
 * The data a carton or pallet label template prints: `title`, `shipFrom`, `shipTo` (name and
 * lines), `order`, `unit` ("1 of 3"), `sscc` ("(00) ..."), `barcode` and `qr` (the SSCC with its
 * AI, 00 followed by the 18 digits), `content` (GTIN, lot, expiry, count) and `grossWeight`.
 */
export function labelInputs(label: CartonLabel, kind: LabelKind): TemplateInputs {
  const content = label.content ? [label.content.gtin && `GTIN ${label.content.gtin}`, label.content.lot && `LOT ${label.content.lot}`, label.content.expiry && `EXP ${label.content.expiry}`, label.content.qty !== undefined && `QTY ${label.content.qty}`].filter(Boolean).join('  ') : '';
  return {
    title: kind === 'pallet' ? 'PALLET' : 'CARTON',
    shipFrom: label.shipFrom ?? '',
    shipTo: [label.shipTo.name, ...label.shipTo.lines.slice(0, 5)].filter(Boolean).join('\n'),
    address: [label.shipTo.name, ...label.shipTo.lines.slice(0, 5)].filter(Boolean).join('\n'),
    order: label.orderNo,
    unit: `${label.cartonNo} of ${label.cartonCount}`,
    sscc: `(00) ${label.sscc}`,
    barcode: `00${label.sscc}`,
    qr: `00${label.sscc}`,
    content,
    grossWeight: label.grossWeight ? `${label.grossWeight.value} ${label.grossWeight.uom}` : '',
  };
}

/**
 * Prints a carton or pallet label: on the given printer, else on the warehouse's printer marked
 * for automatic carton labels; as ZPL on a label printer (`raw_zpl`), as a 4 x 6 inch PDF on a
 * document printer (`pdf`). The job is queued in the caller's transaction (`enqueuePrint`) and,
 * with `sendWith`, sent once it committed. Answers the job's id, or null when `auto` is set and
 * the warehouse has no such printer (nothing printed). A printer that is not the warehouse's or is
 * inactive, or no printer without `auto`, answers PRINTER_NOT_FOUND.
 */
export async function printLabel(trx: Transaction<DB>, request: PrintLabelRequest, options: { sendWith?: Kysely<DB> } = {}): Promise<number | null> {
  const printer = request.printerId != null ? await findPrinter(trx, request.warehouseId, request.printerId) : await findAutoLabelPrinter(trx, request.warehouseId);
  if (!printer || !printer.active) {
    if (request.auto && request.printerId == null) return null;
    throw new AppError('PRINTER_NOT_FOUND');
  }
  const label = typeof request.label === 'function' ? await request.label() : request.label;
  const payload =
    printer.printer_type === 'pdf'
      ? ((request.projectId != null ? await printPublished(trx, request.projectId, request.kind === 'pallet' ? 'palletLabel' : 'cartonLabel', [labelInputs(label, request.kind)], request.language ?? 'en') : null) ??
        (await labelPdf(label, request.kind, request.language ?? 'en')))
      : request.kind === 'pallet'
        ? palletLabelZpl(label, zplCaptions(request.language ?? 'en'))
        : cartonLabelZpl(label, zplCaptions(request.language ?? 'en'));
  return enqueuePrint(
    trx,
    { warehouseId: request.warehouseId, printerId: Number(printer.id), documentKind: `${request.kind}Label`, payload, reference: label.sscc, by: request.by },
    options,
  );
}

/** The active printers of a warehouse a label may be printed on, by name. */
export async function labelPrinters(db: Kysely<DB>, warehouseId: number): Promise<Array<{ id: number; name: string; type: string; autoLabels: boolean }>> {
  const rows = await findActivePrinters(db, warehouseId);
  return rows.map((r) => ({ id: Number(r.id), name: r.name, type: r.printer_type, autoLabels: r.auto_print_labels }));
}

/** The printer (id and name) a print job of the warehouse was queued for, or null. */
export async function printerOfJob(db: Kysely<DB> | Transaction<DB>, warehouseId: number, jobId: number): Promise<{ id: number; name: string } | null> {
  const row = await findPrinterOfJob(db, warehouseId, jobId);
  return row ? { id: Number(row.id), name: row.name } : null;
}

/** A job's document: a PDF as it is, ZPL (or any other text) as UTF-8 text. */
export async function printJobDocument(db: Kysely<DB>, warehouseId: number, id: number): Promise<{ contentType: string; fileName: string; body: Buffer }> {
  const job = await findJobDocument(db, warehouseId, id);
  if (!job) throw new AppError('NO_RECORD');
  const body = Buffer.from(job.payload);
  const pdf = body.subarray(0, 5).toString('latin1') === '%PDF-';
  const name = `${job.document_kind}-${String(job.reference ?? job.id).replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return pdf ? { contentType: 'application/pdf', fileName: `${name}.pdf`, body } : { contentType: 'text/plain; charset=utf-8', fileName: `${name}.zpl.txt`, body };
}

/** What became of one job a sender was asked to send. */
export type SendOutcome = { id: number; status: PrintJobStatus; error?: 'PRINTER_UNAVAILABLE'; detail?: string } | { id: number; status: 'busy' };

/** The print queue: a sender holds a job for up to 30 seconds while its printer takes it. */
const printSender = queuedSender({
  table: 'print_job',
  claimSeconds: 30,
  maxAttempts: MAX_AUTOMATIC_ATTEMPTS,
  columns: ['printer_id', 'payload'],
  target: (trx, job) => findPrinterAddress(trx, job.printer_id),
  // A printer that failed once is not tried again in the same call: its other jobs stay queued at once.
  destinationOf: (job) => Number(job.printer_id),
  async deliver(job, printer) {
    if (!printer.active) throw new Error(`printer ${printer.name} is inactive`);
    await sendRaw(printer.ip, printer.port, job.payload);
  },
  sentColumns: (by) => ({ sent_by: by, last_error_code: null }),
  unsentColumns: { last_error_code: 'PRINTER_UNAVAILABLE' },
});

/**
 * Sends print jobs, each to its printer's raw port, one after the other. A job another sender
 * holds, or whose status is not among `statuses` (default: queued), is left (`busy`). A printer
 * that refuses or does not take the document in time leaves the job queued with the error
 * PRINTER_UNAVAILABLE (failed once it had `MAX_AUTOMATIC_ATTEMPTS` attempts), and so the printer's
 * later jobs of the same call without trying it again; nothing is lost.
 */
export async function sendPrintJobs(db: Kysely<DB>, ids: number[], options: { by: string; statuses?: PrintJobStatus[] }): Promise<SendOutcome[]> {
  const outcomes = await printSender.send(db, ids, options);
  return outcomes.map((o) => ('error' in o ? { id: o.id, status: o.status, error: 'PRINTER_UNAVAILABLE', detail: o.error } : o));
}

/** Sends the queued jobs no sender holds, oldest first, at most `limit`. */
export async function sendQueuedJobs(db: Kysely<DB>, limit: number): Promise<SendOutcome[]> {
  return sendPrintJobs(db, await printSender.queuedIds(db, limit), { by: 'system' });
}

/** Sends a warehouse's queued or failed jobs again now; a job of another warehouse or one already sent is refused. */
export async function retryPrintJobs(db: Kysely<DB>, warehouseId: number, ids: number[], by: string): Promise<SendOutcome[]> {
  const jobs = await findJobsOfWarehouse(db, warehouseId, ids);
  if (jobs.length !== new Set(ids).size) throw new AppError('NO_RECORD');
  if (jobs.some((j) => j.status === 'sent')) throw new AppError('DATA_NOT_CHANGED');
  // A document that could not be made has nothing to send: it is printed again from its source.
  if (jobs.some((j) => j.payload.length === 0)) throw new AppError('PRINT_RENDER_FAILED');
  return sendPrintJobs(db, jobs.map((j) => Number(j.id)), { by, statuses: ['queued', 'failed'] });
}

/** Prints sent jobs of a warehouse again: each gets a new job, a copy of it, which is sent at once. */
export async function reprintPrintJobs(db: Kysely<DB>, warehouseId: number, ids: number[], by: string): Promise<SendOutcome[]> {
  const copies = await inTransaction(db, async (trx) => {
    const jobs = await findJobsOfWarehouse(trx, warehouseId, ids);
    if (jobs.length !== new Set(ids).size) throw new AppError('NO_RECORD');
    const made: number[] = [];
    for (const job of jobs) {
      if (job.status !== 'sent') throw new AppError('DATA_NOT_CHANGED');
      made.push(
        await insertPrintJob(trx, {
          warehouse_id: warehouseId,
          printer_id: Number(job.printer_id),
          document_kind: job.document_kind,
          reference: job.reference,
          payload: job.payload,
          copy_of: Number(job.id),
          by,
        }),
      );
    }
    return made;
  });
  return sendPrintJobs(db, copies, { by });
}
