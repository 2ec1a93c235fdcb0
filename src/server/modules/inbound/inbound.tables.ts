import type { ColumnType, Generated } from 'kysely';
import type { Audit, Id, Numeric } from '../../db/schema.js';

/**
 * Inbound documents (spec sections 1, 3 and 4): purchase orders, ASNs with their lines, the
 * containers and cartons announced for scan-in, receipts (what was received where, with which lot
 * attributes) and the putaway tasks made from them. Stock itself lives in the inventory area and
 * changes only through its service.
 */
declare module '../../db/schema.js' {
  interface DB {
    po: PoTable;
    po_line: PoLineTable;
    asn: AsnTable;
    asn_line: AsnLineTable;
    asn_carton: AsnCartonTable;
    receipt: ReceiptTable;
    receipt_line: ReceiptLineTable;
    putaway_task: PutawayTaskTable;
  }
}

/** A quantity with a database default of 0. */
type Qty = ColumnType<string, string | number | undefined, string | number>;
type DateOnly = ColumnType<string | null, string | null | undefined, string | null>;

export type PoStatus = 'new' | 'open' | 'closed' | 'cancelled';

export interface PoTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  po_no: Generated<string>;
  owner_id: number;
  supplier_code: string | null;
  status: Generated<PoStatus>;
  expected_date: DateOnly;
  remark: string | null;
}

export interface PoLineTable extends Audit {
  id: Id;
  project_id: number;
  po_id: number;
  line_no: number;
  sku_id: number;
  qty: Numeric;
  uom: string | null;
  /** How much of the line is already announced on ASNs made from the order. */
  asn_qty: Qty;
  lot_no: string | null;
  expected_date: DateOnly;
}

export interface AsnTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  asn_no: Generated<string>;
  owner_id: number;
  po_id: number | null;
  supplier_code: string | null;
  /** See `asn-status.ts`: new, partial_received, received, partial_putaway, putaway, cancelled, deleted, closed. */
  status: Generated<string>;
  expected_date: DateOnly;
  received_at: Date | null;
  remark: string | null;
}

export interface AsnLineTable extends Audit {
  id: Id;
  project_id: number;
  asn_id: number;
  line_no: number;
  sku_id: number;
  expected_qty: Numeric;
  received_qty: Qty;
  putaway_qty: Qty;
  uom: string | null;
  po_line_id: number | null;
  lot_no: string | null;
  manufacture_date: DateOnly;
  expiry_date: DateOnly;
  shelf_date: DateOnly;
  udf1: string | null;
  udf2: string | null;
  udf3: string | null;
}

export type CartonStatus = 'open' | 'scanned' | 'received';

/** A carton announced on an ASN, inside a container, for scan-in (spec section 5). */
export interface AsnCartonTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  asn_id: number;
  asn_line_id: number;
  container_id: string;
  carton_id: string;
  qty: Numeric;
  status: Generated<CartonStatus>;
  receipt_line_id: number | null;
}

export interface ReceiptTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  receipt_no: Generated<string>;
  asn_id: number;
  /** batch, scan or handheld: how it was received. */
  source: string;
}

export interface ReceiptLineTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  receipt_id: number;
  asn_id: number;
  asn_line_id: number;
  owner_id: number;
  sku_id: number;
  lot_id: number;
  location_id: number;
  lpn: string;
  qty: Numeric;
  damage_qty: Qty;
  hold_qty: Qty;
  putaway_qty: Qty;
  uom: string | null;
  trace_id: string | null;
  /** open (waiting for putaway), putaway. */
  status: Generated<string>;
}

export interface PutawayTaskTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  receipt_line_id: number;
  asn_id: number;
  owner_id: number;
  sku_id: number;
  lot_id: number;
  from_location_id: number;
  lpn: string;
  qty: Numeric;
  held_qty: Qty;
  suggested_location_id: number | null;
  /** Which rule of the location logic suggested it (last, sameSku, pick, empty, storage). */
  suggestion_rule: string | null;
  to_location_id: number | null;
  reason: string | null;
  /** open, done. */
  status: Generated<string>;
  confirmed_at: Date | null;
}
