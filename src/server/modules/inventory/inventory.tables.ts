import type { ColumnType, Generated } from 'kysely';
import type { Audit, Id, Numeric } from '../../db/schema.js';

/**
 * The stock model (DESIGN.md section 5): lots, the balance by warehouse x owner x SKU x lot x
 * location x LPN, and the append-only ledger. Only the inventory service writes balance and ledger.
 */
declare module '../../db/schema.js' {
  interface DB {
    lot: LotTable;
    inventory_balance: InventoryBalanceTable;
    inventory_transaction: InventoryTransactionTable;
  }
}

/** A quantity with a database default of 0. */
type Qty = ColumnType<string, string | number | undefined, string | number>;

type DateOnly = ColumnType<string | null, string | null | undefined, string | null>;

/** Lot attributes of received stock (spec section 3, batch receive line). */
export interface LotTable extends Audit {
  id: Id;
  project_id: number;
  owner_id: number;
  sku_id: number;
  lot_no: Generated<string>;
  manufacture_date: DateOnly;
  expiry_date: DateOnly;
  shelf_date: DateOnly;
  udf1: string | null;
  udf2: string | null;
  udf3: string | null;
  trace_id: string | null;
  pallet_id: string | null;
  carton_id: string | null;
  /** When the lot first came in: the FIFO date. */
  received_at: Generated<Date>;
  /** The attributes as one text, unique per owner and SKU, so one set of attributes is one lot. */
  attribute_key: string;
}

export interface InventoryBalanceTable {
  id: Id;
  project_id: number;
  warehouse_id: number;
  owner_id: number;
  sku_id: number;
  lot_id: number;
  location_id: number;
  /** The licence plate (pallet, tote); '' when the stock is loose. */
  lpn: Generated<string>;
  on_hand_qty: Qty;
  allocated_qty: Qty;
  picked_qty: Qty;
  held_qty: Qty;
  last_inbound_at: Date | null;
  last_outbound_at: Date | null;
  updated_at: Generated<Date>;
}

/**
 * One ledger row per balance change (spec section 3, inventory transaction). `qty` is the change of
 * on-hand; the other changes say what happened to allocated, picked and held, so that for every
 * balance key the sums of the ledger equal the balance.
 */
export interface InventoryTransactionTable {
  id: Id;
  project_id: number;
  warehouse_id: number;
  balance_id: number;
  trans_type: string;
  trans_status: Generated<string>;
  /** The document the change belongs to (ASN, adjustment, order...) and its line. */
  reference_type: string | null;
  order_no: string | null;
  reference_line: number | null;
  trans_time: Generated<Date>;
  operator: string;
  owner_id: number;
  sku_id: number;
  lot_id: number;
  location_id: number;
  lpn: string;
  trace_id: string | null;
  qty: Numeric;
  allocated_change: Qty;
  picked_change: Qty;
  held_change: Qty;
  before_qty: Numeric;
  after_qty: Numeric;
  uom: string | null;
  reason: string | null;
  description: string | null;
  amount: ColumnType<string | null, string | number | null | undefined, string | number | null>;
}
