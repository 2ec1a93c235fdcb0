import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { queueShipNotice, type EdiScope } from './edi.service.js';
import type { EdiTrigger } from './edi.tables.js';
import { cartonContents, closedCartonsOfOrder, orderOfNotice } from './order-notice.repository.js';
import type { ShipNotice } from './ship-notice.js';

/** The load an order left on, when one is known: it goes into the notice (load number, container, seal, vessel, voyage, MBL, HBL). */
export type NoticeLoad = NonNullable<ShipNotice['load']>;

const day = (value: unknown): string | null => (value instanceof Date ? value.toISOString().slice(0, 10) : typeof value === 'string' && value ? value.slice(0, 10) : null);

/**
 * The ship notice of an order of the scope: its closed cartons (only those of `cartonIds` when
 * given: what left on one load), with SSCC and the pallet's, what
 * each holds per SKU and lot, ship-from the warehouse and ship-to the order's address. Null when
 * the order is not the scope's.
 */
export async function orderShipNotice(
  db: Kysely<DB> | Transaction<DB>,
  scope: { projectId: number; warehouseId: number },
  soId: number,
  load?: NoticeLoad | null,
  at = new Date(),
  cartonIds?: number[],
): Promise<ShipNotice | null> {
  const order = await orderOfNotice(db, scope, soId);
  if (!order) return null;
  const only = cartonIds ? new Set(cartonIds) : null;
  const cartons = (await closedCartonsOfOrder(db, soId)).filter((c) => !only || only.has(Number(c.id)));
  const contents = await cartonContents(db, cartons.map((c) => Number(c.id)));
  const known = load && Object.values(load).some((v) => typeof v === 'string' && v.trim() !== '') ? load : null;
  return {
    ownerId: Number(order.owner_id),
    orderId: Number(order.id),
    noticeNo: order.order_no.slice(0, 35),
    shipDate: at.toISOString().slice(0, 10),
    orderNo: order.order_no,
    customerPo: order.customer_order_no,
    shipFrom: { name: order.warehouse_name },
    shipTo: { name: order.ship_to_name || order.order_no, street: order.ship_to_address_en },
    carrier: order.carrier_code ? { name: order.carrier_code } : null,
    load: known,
    cartons: cartons.map((c) => ({
      sscc: c.sscc as string,
      palletSscc: c.pallet_sscc,
      lines: contents
        .filter((line) => Number(line.carton_id) === Number(c.id))
        .map((line) => ({ sku: line.sku_code, qty: new Decimal(line.qty).toString(), unit: line.base_uom, lot: line.lot_no || null, expiry: day(line.expiry_date) })),
    })),
  };
}

/**
 * Queues the ship notice of an order in the caller's transaction: at a moment (`trigger`, only when
 * the owner's setting sends at that moment) or asked for now (no trigger). Answers the message id,
 * or null when the owner sends nothing then. NO_RECORD when the order is not the scope's.
 */
export async function queueOrderNotice(
  trx: Transaction<DB>,
  scope: EdiScope,
  soId: number,
  options: { trigger?: EdiTrigger; load?: NoticeLoad | null; cartonIds?: number[]; sendWith?: Kysely<DB> } = {},
): Promise<number | null> {
  const notice = await orderShipNotice(trx, scope, soId, options.load, new Date(), options.cartonIds);
  if (!notice) throw new AppError('NO_RECORD');
  return queueShipNotice(trx, scope, notice, { trigger: options.trigger, sendWith: options.sendWith });
}
