import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import './storage.tables.js';

/**
 * What billing reads of the inventory area, read only: the ledger rows of an owner's receipts and
 * shipments in a time range, and the owner's daily storage snapshot rows in a range of days.
 */

export interface BillableLedgerRow {
  id: number;
  transType: 'receive' | 'ship';
  transTime: Date;
  referenceType: string | null;
  orderNo: string | null;
  referenceLine: number | null;
  skuId: number;
  lpn: string;
  /** The quantity moved, always positive (a shipment's ledger qty is negative). */
  qty: string;
}

/** The owner's receipt (`receive`) and shipment (`ship`) ledger rows of the project written in [from, until), oldest first. */
export async function billableLedgerRows(
  db: Kysely<DB>,
  input: { projectId: number; ownerId: number; from: Date; until: Date; transTypes: ReadonlyArray<'receive' | 'ship'> },
): Promise<BillableLedgerRow[]> {
  if (input.transTypes.length === 0) return [];
  const rows = await db
    .selectFrom('inventory_transaction')
    .select(['id', 'trans_type', 'trans_time', 'reference_type', 'order_no', 'reference_line', 'sku_id', 'lpn', 'qty'])
    .where('project_id', '=', input.projectId)
    .where('owner_id', '=', input.ownerId)
    .where('trans_type', 'in', [...input.transTypes])
    .where('trans_time', '>=', input.from)
    .where('trans_time', '<', input.until)
    .where('qty', '<>', '0')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    transType: r.trans_type as 'receive' | 'ship',
    transTime: r.trans_time,
    referenceType: r.reference_type,
    orderNo: r.order_no,
    referenceLine: r.reference_line,
    skuId: Number(r.sku_id),
    lpn: r.lpn,
    qty: r.qty.startsWith('-') ? r.qty.slice(1) : r.qty,
  }));
}

export interface StorageSnapshotRow {
  id: number;
  day: string;
  warehouseId: number;
  skuId: number;
  onHandQty: string;
  palletCount: number;
  lpnCount: number;
  locationCount: number;
  /** The type of the locations that held the stock ('' on rows taken before types were kept). */
  locationType: string;
  /** Cubic metres and kilograms of the stock, by the SKU's measures on the day. */
  cbm: string;
  weightKg: string;
}

/** The owner's storage snapshot rows of the project for the days from `fromDay` to `toDay` (both included). */
export async function storageSnapshotRows(db: Kysely<DB>, input: { projectId: number; ownerId: number; fromDay: string; toDay: string }): Promise<StorageSnapshotRow[]> {
  const rows = await db
    .selectFrom('storage_snapshot')
    .select(['id', 'snapshot_date', 'warehouse_id', 'sku_id', 'on_hand_qty', 'pallet_count', 'lpn_count', 'location_count', 'location_type', 'cbm', 'weight_kg'])
    .select((eb) => eb.fn<string>('to_char', [eb.ref('snapshot_date'), eb.val('YYYY-MM-DD')]).as('day'))
    .where('project_id', '=', input.projectId)
    .where('owner_id', '=', input.ownerId)
    .where('snapshot_date', '>=', input.fromDay)
    .where('snapshot_date', '<=', input.toDay)
    .orderBy('snapshot_date')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    day: r.day,
    warehouseId: Number(r.warehouse_id),
    skuId: Number(r.sku_id),
    onHandQty: r.on_hand_qty,
    palletCount: r.pallet_count,
    lpnCount: r.lpn_count,
    locationCount: r.location_count,
    locationType: r.location_type,
    cbm: r.cbm,
    weightKg: r.weight_kg,
  }));
}
