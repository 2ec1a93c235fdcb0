import type { ColumnType, Generated } from 'kysely';
import type { DefaultedNumeric, Numeric } from '../../db/schema.js';

/** The storage snapshot and the expiry alerts sent; migration 0105 creates them, 0364 adds the snapshot's location type, cubic metres and kilograms. */
declare module '../../db/schema.js' {
  interface DB {
    storage_snapshot: StorageSnapshotTable;
    expiry_alert_sent: ExpiryAlertSentTable;
  }
}

type DateOnly = ColumnType<string, string, string>;

/** One day's stock of an owner's SKU in a warehouse, as billing charges storage from it. */
export interface StorageSnapshotTable {
  id: Generated<number>;
  snapshot_date: DateOnly;
  project_id: number;
  warehouse_id: number;
  owner_id: number;
  sku_id: number;
  on_hand_qty: Numeric;
  location_count: number;
  lpn_count: number;
  pallet_count: number;
  /** The type of the locations that held the stock ('' on rows taken before types were kept). */
  location_type: Generated<string>;
  cbm: DefaultedNumeric;
  weight_kg: DefaultedNumeric;
  taken_at: Generated<Date>;
  taken_by: string;
}

/** A lot already announced as expiring in a warehouse on a day. */
export interface ExpiryAlertSentTable {
  alert_date: DateOnly;
  warehouse_id: number;
  lot_id: number;
  sent_at: Generated<Date>;
}
