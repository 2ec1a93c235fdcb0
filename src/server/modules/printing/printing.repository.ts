import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { PrintJobStatus } from './printing.tables.js';

export async function findPrinter(db: Kysely<DB> | Transaction<DB>, warehouseId: number, printerId: number) {
  return db.selectFrom('printer').select(['id', 'name', 'ip', 'port', 'printer_type', 'active']).where('id', '=', printerId).where('warehouse_id', '=', warehouseId).executeTakeFirst();
}

/** The active printer of a warehouse marked for automatic carton labels, if any. */
export async function findAutoLabelPrinter(db: Kysely<DB> | Transaction<DB>, warehouseId: number) {
  return db
    .selectFrom('printer')
    .select(['id', 'name', 'ip', 'port', 'printer_type', 'active'])
    .where('warehouse_id', '=', warehouseId)
    .where('auto_print_labels', '=', true)
    .where('active', '=', true)
    .orderBy('id')
    .executeTakeFirst();
}

/** The active printers of a warehouse by name: id, name, type and whether it prints carton labels automatically. */
export async function findActivePrinters(db: Kysely<DB> | Transaction<DB>, warehouseId: number) {
  return db.selectFrom('printer').select(['id', 'name', 'printer_type', 'auto_print_labels']).where('warehouse_id', '=', warehouseId).where('active', '=', true).orderBy('name').orderBy('id').execute();
}

/** The printer a job of the warehouse was queued for. */
export async function findPrinterOfJob(db: Kysely<DB> | Transaction<DB>, warehouseId: number, jobId: number) {
  return db
    .selectFrom('print_job')
    .innerJoin('printer', 'printer.id', 'print_job.printer_id')
    .select(['printer.id', 'printer.name'])
    .where('print_job.id', '=', jobId)
    .where('print_job.warehouse_id', '=', warehouseId)
    .executeTakeFirst();
}

/** A job's document as it was sent to the printer, if the job is of the warehouse. */
export async function findJobDocument(db: Kysely<DB>, warehouseId: number, id: number) {
  return db.selectFrom('print_job').select(['id', 'document_kind', 'reference', 'payload']).where('id', '=', id).where('warehouse_id', '=', warehouseId).executeTakeFirst();
}

export async function insertPrintJob(
  trx: Transaction<DB>,
  row: { warehouse_id: number; printer_id: number; document_kind: string; reference: string | null; payload: Uint8Array; copy_of: number | null; by: string; failed?: { code: string; detail: string } },
): Promise<number> {
  const { by, failed, ...values } = row;
  const inserted = await trx
    .insertInto('print_job')
    .values({ ...values, created_by: by, updated_by: by, ...(failed ? { status: 'failed' as const, last_error_code: failed.code, last_error: failed.detail } : {}) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** The printer a job is sent to. */
export async function findPrinterAddress(trx: Transaction<DB>, printerId: number) {
  return trx.selectFrom('printer').select(['ip', 'port', 'active', 'name']).where('id', '=', printerId).executeTakeFirstOrThrow();
}

/** The jobs of a warehouse among `ids`, with their status. */
export async function findJobsOfWarehouse(db: Kysely<DB> | Transaction<DB>, warehouseId: number, ids: number[]) {
  return db
    .selectFrom('print_job')
    .select(['id', 'status', 'printer_id', 'document_kind', 'reference', 'payload'])
    .where('warehouse_id', '=', warehouseId)
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
}

/** The print jobs of a warehouse, newest first, without their payload. */
export async function listPrintJobs(db: Kysely<DB>, warehouseId: number, filter: { status?: PrintJobStatus; limit: number }) {
  let query = db
    .selectFrom('print_job as j')
    .innerJoin('printer as p', 'p.id', 'j.printer_id')
    .select([
      'j.id',
      'j.printer_id',
      'p.name as printer_name',
      'j.document_kind',
      'j.reference',
      'j.status',
      'j.attempts',
      'j.last_error',
      'j.last_error_code',
      'j.created_at',
      'j.created_by',
      'j.sent_at',
      'j.sent_by',
      'j.copy_of',
    ])
    .where('j.warehouse_id', '=', warehouseId);
  if (filter.status) query = query.where('j.status', '=', filter.status);
  return query.orderBy('j.id', 'desc').limit(filter.limit).execute();
}
