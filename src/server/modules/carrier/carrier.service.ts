import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { findInScope, lockInScope } from '../../db/scoped-rows.js';
import { inTransaction } from '../../db/transaction.js';
import { enqueuePrint } from '../printing/index.js';
import { httpCarrier, type CarrierAdapter, type CarrierEndpoint, type LabelFormat } from './carrier-adapter.js';
import * as repo from './carrier.repository.js';

/**
 * Parcel shipments with a carrier. The carrier is always called outside any transaction, and what
 * it answered is written afterwards in a short one: when the carrier fails or does not answer in
 * time nothing is written and the shipment and its orders stay as they were. Every call may be
 * repeated: booking a booked shipment answers its id, parcels already registered are not sent
 * again, and the calls that create something carry an idempotency key the carrier keeps.
 */

export interface CarrierScope extends repo.Place {
  by: string;
}

/** How the area reaches a carrier; the tests and other adapters may replace it. */
export type AdapterFactory = (endpoint: CarrierEndpoint) => CarrierAdapter;

async function shipmentOrRefuse(db: Kysely<DB>, scope: CarrierScope, shipmentId: number) {
  const shipment = await findInScope(db, 'carrier_shipment', scope, shipmentId);
  if (!shipment) throw new AppError('NO_RECORD');
  return shipment;
}

/** The carrier of a shipment's account, refused when the account is inactive or has no credential. */
async function carrierOf(db: Kysely<DB>, scope: CarrierScope, accountId: number, adapters: AdapterFactory): Promise<CarrierAdapter> {
  const account = await repo.findAccount(db, scope.projectId, accountId);
  if (!account) throw new AppError('NO_RECORD');
  if (!account.active || !account.secret) throw new AppError('CARRIER_NOT_CONFIGURED', { carrier: account.code });
  return adapters({ code: account.code, baseUrl: account.base_url, secret: account.secret, timeoutMs: Number(account.timeout_ms) });
}

function stateRefusal(shipment: { shipment_no: string; status: string }): AppError {
  return new AppError('CARRIER_SHIPMENT_STATE', { shipmentNo: shipment.shipment_no, status: shipment.status });
}

/** `/so/createDhlShipmentId`: books the shipment with its carrier and keeps the carrier's shipment id. */
export async function createShipmentId(db: Kysely<DB>, scope: CarrierScope, shipmentId: number, adapters: AdapterFactory = httpCarrier) {
  const shipment = await shipmentOrRefuse(db, scope, shipmentId);
  if (shipment.status === 'booked' && shipment.carrier_shipment_id) return { shipmentId, carrierShipmentId: shipment.carrier_shipment_id, status: 'booked' as const };
  if (shipment.status !== 'open') throw stateRefusal(shipment);
  const carrier = await carrierOf(db, scope, Number(shipment.carrier_account_id), adapters);
  const booked = await carrier.createShipmentId(
    {
      reference: shipment.shipment_reference,
      expectedDeliveryDate: String(shipment.expected_delivery_date).slice(0, 10),
      gateway: shipment.gateway,
      service: shipment.service,
      serviceProvider: shipment.service_provider,
      battery: shipment.battery,
    },
    `wms-shipment-${shipmentId}`,
  );
  return inTransaction(db, async (trx) => {
    const locked = (await lockInScope(trx, 'carrier_shipment', scope, shipmentId))!;
    if (locked.status === 'booked' && locked.carrier_shipment_id) return { shipmentId, carrierShipmentId: locked.carrier_shipment_id, status: 'booked' as const };
    if (locked.status !== 'open') throw stateRefusal(locked);
    await repo.setBooked(trx, shipmentId, booked.shipmentId, scope.by);
    return { shipmentId, carrierShipmentId: booked.shipmentId, status: 'booked' as const };
  });
}

/**
 * `/so/addOrderToDhlShipmentId`: registers the closed cartons of orders as parcels on a booked
 * shipment (all of them, or the named ones). A named carton must belong to one of the orders
 * (PARCEL_NOT_OF_ORDER); a carton on another shipment, or a still open one, is refused. Cartons the
 * shipment already has are not sent again.
 */
export async function addOrders(db: Kysely<DB>, scope: CarrierScope, input: { shipmentId: number; soIds?: number[]; orderNos?: string[]; cartonNos?: string[] }, adapters: AdapterFactory = httpCarrier) {
  const shipment = await shipmentOrRefuse(db, scope, input.shipmentId);
  if (shipment.status !== 'booked' || !shipment.carrier_shipment_id) throw stateRefusal(shipment);
  const named = [...new Set(input.orderNos ?? [])];
  const byNo = await repo.ordersByNo(db, scope, named);
  const unknown = named.find((no) => !byNo.some((o) => o.order_no === no));
  if (unknown !== undefined) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'orderNos', code: 'FIELD_FOREIGN', params: { field: unknown } }]);
  const soIds = [...new Set([...(input.soIds ?? []), ...byNo.map((o) => Number(o.id))])];
  if (!soIds.length) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'soIds', code: 'FIELD_REQUIRED' }]);
  const orders = await repo.ordersInPlace(db, scope, soIds);
  if (orders.length !== soIds.length) throw new AppError('NO_RECORD');
  const orderNo = new Map(orders.map((o) => [Number(o.id), o.order_no]));
  let cartons: Awaited<ReturnType<typeof repo.cartonsOfOrders>>;
  if (input.cartonNos?.length) {
    const codes = [...new Set(input.cartonNos)];
    cartons = await repo.cartonsByCode(db, scope, codes);
    const missing = codes.find((code) => !cartons.some((c) => c.carton_no === code || c.sscc === code));
    if (missing !== undefined) throw new AppError('NO_RECORD');
    const stranger = cartons.find((c) => !orderNo.has(Number(c.so_id)));
    if (stranger) throw new AppError('PARCEL_NOT_OF_ORDER', { parcelNo: stranger.carton_no, orderNo: orders.map((o) => o.order_no).join(', ') });
    const open = cartons.find((c) => c.status !== 'closed');
    if (open) throw new AppError('CARTON_OPEN', { cartonNo: open.carton_no });
  } else {
    cartons = (await repo.cartonsOfOrders(db, scope, soIds)).filter((c) => c.status === 'closed');
    const without = orders.find((o) => !cartons.some((c) => Number(c.so_id) === Number(o.id)));
    if (without) throw new AppError('PARCEL_NONE', { orderNo: without.order_no });
  }
  const registered = new Map((await repo.parcelsOfOrders(db, soIds)).map((p) => [Number(p.carton_id), p]));
  const elsewhere = cartons.find((c) => registered.has(Number(c.id)) && Number(registered.get(Number(c.id))!.shipment_id) !== input.shipmentId);
  if (elsewhere) throw new AppError('CARRIER_SHIPMENT_STATE', { shipmentNo: shipment.shipment_no, status: elsewhere.carton_no });
  const toSend = cartons.filter((c) => !registered.has(Number(c.id)));
  if (toSend.length) {
    const carrier = await carrierOf(db, scope, Number(shipment.carrier_account_id), adapters);
    const answered = await carrier.addOrders(
      shipment.carrier_shipment_id,
      toSend.map((c) => ({ parcelNo: c.carton_no, orderNo: orderNo.get(Number(c.so_id)) ?? '', sscc: c.sscc, weight: c.gross_weight === null ? null : String(c.gross_weight), weightUom: c.weight_uom })),
      `wms-parcels-${input.shipmentId}-${toSend.map((c) => c.id).join('-')}`.slice(0, 200),
    );
    await inTransaction(db, async (trx) => {
      const locked = (await lockInScope(trx, 'carrier_shipment', scope, input.shipmentId))!;
      if (locked.status !== 'booked') throw stateRefusal(locked);
      await repo.insertParcels(
        trx,
        scope,
        input.shipmentId,
        toSend.map((c, i) => ({ soId: Number(c.so_id), cartonId: Number(c.id), cartonNo: c.carton_no, carrier: answered[i] })),
        scope.by,
      );
    });
  }
  return { shipmentId: input.shipmentId, added: toSend.length, parcels: await repo.parcelsOfShipment(db, input.shipmentId) };
}

/**
 * `/so/findDhlShipmentReference`: the warehouse's carrier shipments with this reference, each with
 * its parcels and, for a booked one, what its carrier knows of the reference.
 */
export async function findShipmentReference(db: Kysely<DB>, scope: CarrierScope, reference: string, adapters: AdapterFactory = httpCarrier) {
  const shipments = await repo.shipmentsByReference(db, scope, reference);
  if (!shipments.length) throw new AppError('NO_RECORD');
  const answers = new Map<number, Awaited<ReturnType<CarrierAdapter['findByReference']>>>();
  for (const accountId of new Set(shipments.filter((s) => s.status === 'booked').map((s) => Number(s.carrier_account_id)))) {
    answers.set(accountId, await (await carrierOf(db, scope, accountId, adapters)).findByReference(reference));
  }
  return {
    shipments: await Promise.all(
      shipments.map(async (s) => ({
        id: Number(s.id),
        shipmentNo: s.shipment_no,
        reference: s.shipment_reference,
        carrierCode: s.carrier_code,
        carrierShipmentId: s.carrier_shipment_id,
        status: s.status,
        parcels: await repo.parcelsOfShipment(db, Number(s.id)),
        atCarrier: answers.get(Number(s.carrier_account_id))?.find((found) => found.shipmentId === s.carrier_shipment_id) ?? null,
      })),
    ),
  };
}

/** Cancels a shipment: at the carrier first when it is booked, then here (its parcels are released). */
export async function cancelShipment(db: Kysely<DB>, scope: CarrierScope, shipmentId: number, adapters: AdapterFactory = httpCarrier) {
  const shipment = await shipmentOrRefuse(db, scope, shipmentId);
  if (shipment.status === 'cancelled') return { shipmentId, status: 'cancelled' as const };
  if (shipment.status === 'booked' && shipment.carrier_shipment_id) await (await carrierOf(db, scope, Number(shipment.carrier_account_id), adapters)).cancel(shipment.carrier_shipment_id);
  await inTransaction(db, async (trx) => {
    await lockInScope(trx, 'carrier_shipment', scope, shipmentId);
    await repo.setCancelled(trx, shipmentId, scope.by);
  });
  return { shipmentId, status: 'cancelled' as const };
}

/** The label of a booked shipment from its carrier, as PDF or ZPL. */
export async function shipmentLabel(db: Kysely<DB>, scope: CarrierScope, shipmentId: number, format: LabelFormat, adapters: AdapterFactory = httpCarrier) {
  const shipment = await shipmentOrRefuse(db, scope, shipmentId);
  if (shipment.status !== 'booked' || !shipment.carrier_shipment_id) throw stateRefusal(shipment);
  const label = await (await carrierOf(db, scope, Number(shipment.carrier_account_id), adapters)).label(shipment.carrier_shipment_id, format);
  return { ...label, fileName: `label-${shipment.shipment_no.replace(/[^A-Za-z0-9._-]/g, '_')}.${format}`, shipmentNo: shipment.shipment_no };
}

/** Prints a shipment's label from its carrier on a printer of the warehouse (through the printing area's queue). */
export async function printShipmentLabel(db: Kysely<DB>, scope: CarrierScope, input: { shipmentId: number; printerId: number; format: LabelFormat }, adapters: AdapterFactory = httpCarrier) {
  const label = await shipmentLabel(db, scope, input.shipmentId, input.format, adapters);
  const jobId = await inTransaction(db, (trx: Transaction<DB>) =>
    enqueuePrint(
      trx,
      { warehouseId: scope.warehouseId, printerId: input.printerId, documentKind: 'carrierLabel', payload: input.format === 'zpl' ? label.body.toString('utf8') : new Uint8Array(label.body), reference: label.shipmentNo, by: scope.by },
      { sendWith: db },
    ),
  );
  return { jobId };
}

export interface CourierCheck {
  order: { id: number; orderNo: string; status: string } | null;
  parcel: { cartonNo: string; sscc: string | null; status: string; orderId: number; trackingNo: string | null; parcelId: string | null } | null;
  shipment: { id: number; shipmentNo: string; reference: string; carrierCode: string; carrierShipmentId: string | null; status: string } | null;
  /** Whether the scanned parcel belongs to the scanned order; null when only one of them was scanned. */
  belongs: boolean | null;
  /** The order's parcels with their tracking numbers. */
  parcels: Array<{ cartonNo: string; status: string; trackingNo: string | null; shipmentNo: string | null }>;
}

/**
 * The courier check: an order (by number) and/or a parcel (carton number, SSCC or tracking number):
 * the parcel's carrier shipment and tracking number, the order's parcels, and whether the parcel
 * belongs to the order.
 */
export async function courierCheck(db: Kysely<DB>, scope: CarrierScope, input: { orderNo?: string | null; code?: string | null }): Promise<CourierCheck> {
  const orderNo = input.orderNo?.trim() || null;
  const code = input.code?.trim() || null;
  if (!orderNo && !code) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'code', code: 'FIELD_REQUIRED' }]);
  let order = orderNo ? await repo.orderByNo(db, scope, orderNo) : undefined;
  if (orderNo && !order) throw new AppError('NO_RECORD');
  let carton = code ? ((await repo.cartonsByCode(db, scope, [code]))[0] ?? (await repo.cartonOfTracking(db, scope, code))) : undefined;
  if (code && !carton) {
    // A code that is no parcel may be an order number scanned alone.
    const asOrder = orderNo ? undefined : await repo.orderByNo(db, scope, code);
    if (!asOrder) throw new AppError('NO_RECORD');
    order = asOrder;
    carton = undefined;
  }
  const parcelOrderId = carton ? Number(carton.so_id) : null;
  if (!order && parcelOrderId !== null) order = (await repo.ordersInPlace(db, scope, [parcelOrderId]))[0];
  const orderId = order ? Number(order.id) : null;
  const registered = orderId === null ? [] : await repo.parcelsOfOrders(db, parcelOrderId !== null && parcelOrderId !== orderId ? [orderId, parcelOrderId] : [orderId]);
  const shipmentNos = new Map<number, string>();
  for (const shipmentId of new Set(registered.map((p) => Number(p.shipment_id)))) shipmentNos.set(shipmentId, (await repo.shipmentSummary(db, shipmentId))?.shipment_no ?? '');
  const parcelRow = carton ? registered.find((p) => Number(p.carton_id) === Number(carton.id)) : undefined;
  const shipment = parcelRow ? await repo.shipmentSummary(db, Number(parcelRow.shipment_id)) : undefined;
  const orderCartons = orderId === null ? [] : await repo.cartonsOfOrders(db, scope, [orderId]);
  return {
    order: order ? { id: Number(order.id), orderNo: order.order_no, status: order.status } : null,
    parcel: carton
      ? { cartonNo: carton.carton_no, sscc: carton.sscc, status: carton.status, orderId: Number(carton.so_id), trackingNo: parcelRow?.tracking_no ?? null, parcelId: parcelRow?.parcel_id ?? null }
      : null,
    shipment: shipment
      ? { id: Number(shipment.id), shipmentNo: shipment.shipment_no, reference: shipment.shipment_reference, carrierCode: shipment.carrier_code, carrierShipmentId: shipment.carrier_shipment_id, status: shipment.status }
      : null,
    belongs: orderNo && carton ? Number(carton.so_id) === orderId : null,
    parcels: orderCartons.map((c) => {
      const p = registered.find((r) => Number(r.carton_id) === Number(c.id));
      return { cartonNo: c.carton_no, status: c.status, trackingNo: p?.tracking_no ?? null, shipmentNo: p ? (shipmentNos.get(Number(p.shipment_id)) ?? null) : null };
    }),
  };
}

/** Whether an account has a credential (the page shows that, never the credential). */
export { hasCredential, saveCredential } from './carrier.repository.js';
