import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { GarmentStatus, LaundryBatch, LaundryCounts, LaundryCustomerInfo, LaundryScanAnswer } from '../../../common/laundry-api.js';
import type { DB } from '../../db/schema.js';

/**
 * The laundry's own tables, and only them: the public routes' services are typed against this view
 * of the database, so no public route can name a warehouse table (stock, orders, users...).
 */
export type LaundryDb = Pick<DB, 'laundry_device' | 'laundry_customer' | 'laundry_batch' | 'laundry_garment' | 'laundry_garment_event'>;

/** The narrowing of a database handle to the laundry's tables. */
export function laundryView(db: Transaction<DB>): Transaction<LaundryDb>;
export function laundryView(db: Kysely<DB>): Kysely<LaundryDb>;
export function laundryView(db: Kysely<DB>): Kysely<LaundryDb> {
  return db;
}

/** The device a public call came from: everything it reads and writes is in this project and warehouse. */
export interface LaundryDevice {
  id: number;
  name: string;
  projectId: number;
  warehouseId: number;
}

/** Who wrote a row: the device, by id and name. */
function by(device: LaundryDevice): string {
  return `device:${device.id}:${device.name}`.slice(0, 200);
}

/** The device of a key hash, revoked or not; undefined for an unknown one. */
export async function findDevice(db: Kysely<LaundryDb>, keyHash: string) {
  return db
    .selectFrom('laundry_device')
    .select(['id', 'name', 'project_id', 'warehouse_id', 'revoked_at', 'last_used_at'])
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
}

/** Notes that the device was used, at most once a minute (the administration lists it). */
export async function touchDevice(db: Kysely<LaundryDb>, deviceId: number): Promise<void> {
  await db
    .updateTable('laundry_device')
    .set({ last_used_at: sql<Date>`now()` })
    .where('id', '=', deviceId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`)]))
    .execute();
}

async function customerOf(db: Kysely<LaundryDb>, device: LaundryDevice, code: string) {
  const customer = await db
    .selectFrom('laundry_customer')
    .select(['id', 'code', 'name'])
    .where('code', '=', code.trim().toUpperCase())
    .where('project_id', '=', device.projectId)
    .where('warehouse_id', '=', device.warehouseId)
    .where('active', '=', true)
    .executeTakeFirst();
  // Another warehouse's customer, a withdrawn one and an unknown code answer alike.
  if (!customer) throw new AppError('LAUNDRY_CUSTOMER_NOT_FOUND', { code });
  return customer;
}

/** The garment of a tag in process in the device's warehouse, locked for its change. */
async function garmentInProcess(trx: Transaction<LaundryDb>, device: LaundryDevice, tag: string) {
  const garment = await trx
    .selectFrom('laundry_garment')
    .innerJoin('laundry_customer', 'laundry_customer.id', 'laundry_garment.customer_id')
    .select(['laundry_garment.id', 'laundry_garment.status', 'laundry_garment.customer_id', 'laundry_customer.name as customer_name'])
    .where('laundry_garment.tag', '=', tag)
    .where('laundry_garment.project_id', '=', device.projectId)
    .where('laundry_garment.warehouse_id', '=', device.warehouseId)
    .where('laundry_garment.status', '<>', 'returned')
    .forUpdate('laundry_garment')
    .executeTakeFirst();
  if (!garment) throw new AppError('LAUNDRY_GARMENT_NOT_FOUND', { tag });
  return garment;
}

function expectStatus(tag: string, status: GarmentStatus, expected: GarmentStatus): void {
  if (status !== expected) throw new AppError('LAUNDRY_WRONG_STATUS', { tag, status, expected });
}

async function recordEvent(trx: Transaction<LaundryDb>, device: LaundryDevice, garmentId: number, from: GarmentStatus | null, to: GarmentStatus, batchId: number | null) {
  await trx.insertInto('laundry_garment_event').values({ garment_id: garmentId, from_status: from, to_status: to, batch_id: batchId, device_id: device.id }).execute();
}

export async function laundryCounts(db: Kysely<LaundryDb>, device: LaundryDevice): Promise<LaundryCounts> {
  const today = sql<Date>`date_trunc('day', now())`;
  const row = await db
    .selectFrom('laundry_garment')
    .select((eb) => [
      eb.fn.countAll<string>().filterWhere('received_at', '>=', today).as('received'),
      eb.fn.countAll<string>().filterWhere('status', '=', 'washing').as('washing'),
      eb.fn.countAll<string>().filterWhere('status', '=', 'cleaned').as('cleaned'),
      eb.fn.countAll<string>().filterWhere('returned_at', '>=', today).as('returned'),
    ])
    .where('project_id', '=', device.projectId)
    .where('warehouse_id', '=', device.warehouseId)
    .executeTakeFirstOrThrow();
  return { received: Number(row.received), washing: Number(row.washing), cleaned: Number(row.cleaned), returned: Number(row.returned) };
}

/** A customer by their code, with their garments (the newest 200), newest first. */
export async function customerInfo(db: Kysely<LaundryDb>, device: LaundryDevice, code: string): Promise<LaundryCustomerInfo> {
  const customer = await customerOf(db, device, code);
  const garments = await db
    .selectFrom('laundry_garment')
    .select(['tag', 'status', 'batch_id', 'received_at', 'cleaned_at', 'returned_at'])
    .where('customer_id', '=', customer.id)
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return {
    code: customer.code,
    name: customer.name,
    garments: garments.map((g) => ({
      tag: g.tag,
      status: g.status,
      batchId: g.batch_id === null ? null : Number(g.batch_id),
      receivedAt: new Date(g.received_at).toISOString(),
      cleanedAt: g.cleaned_at ? new Date(g.cleaned_at).toISOString() : null,
      returnedAt: g.returned_at ? new Date(g.returned_at).toISOString() : null,
    })),
  };
}

/** Receives a garment for a customer: a tag already in process (not returned) is refused. */
export async function receiveGarment(trx: Transaction<LaundryDb>, device: LaundryDevice, input: { customerCode: string; tag: string }): Promise<LaundryScanAnswer> {
  const customer = await customerOf(trx, device, input.customerCode);
  const open = await trx
    .selectFrom('laundry_garment')
    .select('status')
    .where('tag', '=', input.tag)
    .where('warehouse_id', '=', device.warehouseId)
    .where('status', '<>', 'returned')
    .executeTakeFirst();
  if (open) throw new AppError('LAUNDRY_TAG_IN_PROCESS', { tag: input.tag, status: open.status });
  const garment = await trx
    .insertInto('laundry_garment')
    .values({
      project_id: device.projectId,
      warehouse_id: device.warehouseId,
      customer_id: customer.id,
      tag: input.tag,
      status: 'received',
      received_at: sql<Date>`now()`,
      created_by: by(device),
      updated_by: by(device),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recordEvent(trx, device, garment.id, null, 'received', null);
  return { tag: input.tag, status: 'received', customerName: customer.name };
}

async function openBatch(trx: Transaction<LaundryDb>, device: LaundryDevice, batchId: number) {
  const batch = await trx
    .selectFrom('laundry_batch')
    .select(['id', 'status'])
    .where('id', '=', batchId)
    .where('project_id', '=', device.projectId)
    .where('warehouse_id', '=', device.warehouseId)
    .forUpdate()
    .executeTakeFirst();
  if (!batch || batch.status !== 'washing') throw new AppError('LAUNDRY_BATCH_NOT_OPEN', { batchId });
  return batch;
}

/** The batches of the warehouse still washing, oldest first, with their tags. */
export async function openBatches(db: Kysely<LaundryDb>, device: LaundryDevice): Promise<LaundryBatch[]> {
  const batches = await db
    .selectFrom('laundry_batch')
    .select(['id', 'status', 'created_at'])
    .where('project_id', '=', device.projectId)
    .where('warehouse_id', '=', device.warehouseId)
    .where('status', '=', 'washing')
    .orderBy('id')
    .limit(50)
    .execute();
  if (batches.length === 0) return [];
  const tags = await db
    .selectFrom('laundry_garment')
    .select(['batch_id', 'tag'])
    .where(
      'batch_id',
      'in',
      batches.map((b) => b.id),
    )
    .where('status', '=', 'washing')
    .orderBy('id')
    .execute();
  return batches.map((b) => ({
    id: Number(b.id),
    status: b.status,
    startedAt: new Date(b.created_at).toISOString(),
    tags: tags.filter((t) => Number(t.batch_id) === Number(b.id)).map((t) => t.tag),
  }));
}

export async function startBatch(trx: Transaction<LaundryDb>, device: LaundryDevice): Promise<LaundryBatch> {
  const batch = await trx
    .insertInto('laundry_batch')
    .values({ project_id: device.projectId, warehouse_id: device.warehouseId, started_by_device: device.id, created_by: by(device), updated_by: by(device) })
    .returning(['id', 'status', 'created_at'])
    .executeTakeFirstOrThrow();
  return { id: Number(batch.id), status: batch.status, startedAt: new Date(batch.created_at).toISOString(), tags: [] };
}

/** Puts a received garment into a batch that is washing. */
export async function addToBatch(trx: Transaction<LaundryDb>, device: LaundryDevice, input: { batchId: number; tag: string }): Promise<LaundryScanAnswer> {
  await openBatch(trx, device, input.batchId);
  const garment = await garmentInProcess(trx, device, input.tag);
  expectStatus(input.tag, garment.status, 'received');
  await trx
    .updateTable('laundry_garment')
    .set({ status: 'washing', batch_id: input.batchId, washing_at: sql<Date>`now()`, updated_at: sql<Date>`now()`, updated_by: by(device) })
    .where('id', '=', garment.id)
    .execute();
  await recordEvent(trx, device, garment.id, 'received', 'washing', input.batchId);
  return { tag: input.tag, status: 'washing', customerName: garment.customer_name };
}

/** Finishes washing a batch: every garment in it is cleaned, the batch is finished. */
export async function finishBatch(trx: Transaction<LaundryDb>, device: LaundryDevice, batchId: number): Promise<{ batchId: number; cleaned: number }> {
  await openBatch(trx, device, batchId);
  const garments = await trx.selectFrom('laundry_garment').select('id').where('batch_id', '=', batchId).where('status', '=', 'washing').forUpdate().execute();
  if (garments.length === 0) throw new AppError('LAUNDRY_BATCH_EMPTY', { batchId });
  const ids = garments.map((g) => g.id);
  await trx
    .updateTable('laundry_garment')
    .set({ status: 'cleaned', cleaned_at: sql<Date>`now()`, updated_at: sql<Date>`now()`, updated_by: by(device) })
    .where('id', 'in', ids)
    .execute();
  await trx
    .insertInto('laundry_garment_event')
    .values(ids.map((id) => ({ garment_id: id, from_status: 'washing' as const, to_status: 'cleaned' as const, batch_id: batchId, device_id: device.id })))
    .execute();
  await trx
    .updateTable('laundry_batch')
    .set({ status: 'finished', finished_at: sql<Date>`now()`, finished_by_device: device.id, updated_at: sql<Date>`now()`, updated_by: by(device) })
    .where('id', '=', batchId)
    .execute();
  return { batchId, cleaned: ids.length };
}

/** Hands a cleaned garment back to its customer: the customer's code must be the garment's. */
export async function returnGarment(trx: Transaction<LaundryDb>, device: LaundryDevice, input: { customerCode: string; tag: string }): Promise<LaundryScanAnswer> {
  const customer = await customerOf(trx, device, input.customerCode);
  const garment = await garmentInProcess(trx, device, input.tag);
  if (Number(garment.customer_id) !== Number(customer.id)) throw new AppError('LAUNDRY_GARMENT_OTHER_CUSTOMER', { tag: input.tag });
  expectStatus(input.tag, garment.status, 'cleaned');
  await trx
    .updateTable('laundry_garment')
    .set({ status: 'returned', returned_at: sql<Date>`now()`, updated_at: sql<Date>`now()`, updated_by: by(device) })
    .where('id', '=', garment.id)
    .execute();
  await recordEvent(trx, device, garment.id, 'cleaned', 'returned', null);
  return { tag: input.tag, status: 'returned', customerName: customer.name };
}
