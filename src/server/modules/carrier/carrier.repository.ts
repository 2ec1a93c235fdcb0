import type { Kysely, Transaction } from 'kysely';
import { whereInScope } from '../../db/scoped-rows.js';
import type { DB } from '../../db/schema.js';
import type { CarrierParcel } from './carrier-adapter.js';

/** The carrier area's SQL: its own tables, and the orders and cartons it sends as parcels (read model `carrier.parcels`). */

type Db = Kysely<DB> | Transaction<DB>;

export interface Place {
  projectId: number;
  warehouseId: number;
}

export async function findAccount(db: Db, projectId: number, accountId: number) {
  return db
    .selectFrom('carrier_account as a')
    .leftJoin('carrier_credential as c', 'c.carrier_account_id', 'a.id')
    .select(['a.id', 'a.code', 'a.base_url', 'a.timeout_ms', 'a.active', 'c.secret'])
    .where('a.id', '=', accountId)
    .where('a.project_id', '=', projectId)
    .executeTakeFirst();
}

/** Adds or replaces the credential of an account. */
export async function saveCredential(trx: Transaction<DB>, accountId: number, secret: string, by: string): Promise<void> {
  await trx
    .insertInto('carrier_credential')
    .values({ carrier_account_id: accountId, secret, created_by: by, updated_by: by })
    .onConflict((oc) => oc.column('carrier_account_id').doUpdateSet({ secret, updated_by: by, updated_at: new Date() }))
    .execute();
}

export async function hasCredential(db: Db, accountId: number): Promise<boolean> {
  return (await db.selectFrom('carrier_credential').select('id').where('carrier_account_id', '=', accountId).executeTakeFirst()) !== undefined;
}

export async function setBooked(trx: Transaction<DB>, shipmentId: number, carrierShipmentId: string, by: string): Promise<void> {
  await trx.updateTable('carrier_shipment').set({ carrier_shipment_id: carrierShipmentId, status: 'booked', updated_by: by, updated_at: new Date() }).where('id', '=', shipmentId).execute();
}

export async function setCancelled(trx: Transaction<DB>, shipmentId: number, by: string): Promise<void> {
  await trx.deleteFrom('carrier_parcel').where('shipment_id', '=', shipmentId).execute();
  await trx.updateTable('carrier_shipment').set({ status: 'cancelled', updated_by: by, updated_at: new Date() }).where('id', '=', shipmentId).execute();
}

export async function shipmentsByReference(db: Db, place: Place, reference: string) {
  return db
    .selectFrom('carrier_shipment as s')
    .innerJoin('carrier_account as a', 'a.id', 's.carrier_account_id')
    .select(['s.id', 's.shipment_no', 's.shipment_reference', 's.carrier_shipment_id', 's.status', 's.carrier_account_id', 'a.code as carrier_code'])
    .$call((q) => whereInScope(q, 's', place))
    .where('s.shipment_reference', '=', reference)
    .orderBy('s.id')
    .execute();
}

export async function shipmentSummary(db: Db, shipmentId: number) {
  return db
    .selectFrom('carrier_shipment as s')
    .innerJoin('carrier_account as a', 'a.id', 's.carrier_account_id')
    .select(['s.id', 's.shipment_no', 's.shipment_reference', 's.carrier_shipment_id', 's.status', 'a.code as carrier_code'])
    .where('s.id', '=', shipmentId)
    .executeTakeFirst();
}

/** The parcels of a shipment with their order numbers. */
export async function parcelsOfShipment(db: Db, shipmentId: number) {
  return db
    .selectFrom('carrier_parcel as p')
    .innerJoin('so_header as h', 'h.id', 'p.so_id')
    .select(['p.id', 'p.so_id', 'h.order_no', 'p.carton_id', 'p.carton_no', 'p.parcel_id', 'p.tracking_no'])
    .where('p.shipment_id', '=', shipmentId)
    .orderBy('p.id')
    .execute();
}

/** The parcels of orders, on whatever shipment. */
export async function parcelsOfOrders(db: Db, soIds: number[]) {
  if (!soIds.length) return [];
  return db
    .selectFrom('carrier_parcel')
    .select(['id', 'so_id', 'shipment_id', 'carton_id', 'carton_no', 'parcel_id', 'tracking_no'])
    .where('so_id', 'in', soIds)
    .orderBy('id')
    .execute();
}

/** Records the parcels the carrier took; a carton already recorded (a retry, a concurrent call) is kept as it is. */
export async function insertParcels(
  trx: Transaction<DB>,
  place: Place,
  shipmentId: number,
  parcels: Array<{ soId: number; cartonId: number; cartonNo: string; carrier: CarrierParcel }>,
  by: string,
): Promise<void> {
  if (!parcels.length) return;
  await trx
    .insertInto('carrier_parcel')
    .values(
      parcels.map((p) => ({
        project_id: place.projectId,
        warehouse_id: place.warehouseId,
        shipment_id: shipmentId,
        so_id: p.soId,
        carton_id: p.cartonId,
        carton_no: p.cartonNo,
        parcel_id: p.carrier.parcelId,
        tracking_no: p.carrier.trackingNo,
        created_by: by,
        updated_by: by,
      })),
    )
    .onConflict((oc) => oc.column('carton_id').doNothing())
    .execute();
}

// ---------------------------------------------------------------- read model carrier.parcels

/** The sales orders of the place, with their number and status. */
function ordersOfPlace(db: Db, place: Place) {
  return db
    .selectFrom('so_header')
    .select(['id', 'order_no', 'status'])
    .$call((q) => whereInScope(q, 'so_header', place));
}

export async function ordersInPlace(db: Db, place: Place, soIds: number[]) {
  if (!soIds.length) return [];
  return ordersOfPlace(db, place).where('id', 'in', soIds).execute();
}

export async function ordersByNo(db: Db, place: Place, orderNos: string[]) {
  if (!orderNos.length) return [];
  return db
    .selectFrom('so_header')
    .select(['id', 'order_no'])
    .$call((q) => whereInScope(q, 'so_header', place))
    .where('order_no', 'in', orderNos)
    .execute();
}

export async function orderByNo(db: Db, place: Place, orderNo: string) {
  return ordersOfPlace(db, place).where('order_no', '=', orderNo).executeTakeFirst();
}

const cartonColumns = ['c.id', 'c.so_id', 'c.carton_no', 'c.sscc', 'c.status', 'c.gross_weight', 'c.weight_uom'] as const;

/** The cartons of the warehouse, oldest first. */
function cartonsOfPlace(db: Db, place: Place) {
  return db.selectFrom('carton as c').select(cartonColumns).$call((q) => whereInScope(q, 'c', place)).orderBy('c.id');
}

/** The cartons of orders, oldest first. */
export async function cartonsOfOrders(db: Db, place: Place, soIds: number[]) {
  if (!soIds.length) return [];
  return cartonsOfPlace(db, place).where('c.so_id', 'in', soIds).execute();
}

/** Cartons of the warehouse by carton number or SSCC, oldest first. */
export async function cartonsByCode(db: Db, place: Place, codes: string[]) {
  if (!codes.length) return [];
  return cartonsOfPlace(db, place)
    .where((eb) => eb.or([eb('c.carton_no', 'in', codes), eb('c.sscc', 'in', codes)]))
    .execute();
}

/** The carton a tracking number was given to, in the warehouse. */
export async function cartonOfTracking(db: Db, place: Place, trackingNo: string) {
  const parcel = await db
    .selectFrom('carrier_parcel')
    .select('carton_id')
    .$call((q) => whereInScope(q, 'carrier_parcel', place))
    .where('tracking_no', '=', trackingNo)
    .executeTakeFirst();
  if (!parcel) return undefined;
  return db.selectFrom('carton as c').select(cartonColumns).where('c.id', '=', parcel.carton_id).executeTakeFirst();
}
