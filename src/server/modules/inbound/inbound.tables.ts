import type { Generated } from 'kysely';
import type { CartonStatus } from '../../../common/inbound-api.js';
import type { LotAttributeColumns } from '../inventory/index.js';
import type { Audit, DefaultedNumeric, Id, NullableDate, Numeric } from '../../db/schema.js';

export type { CartonStatus };

/**
 * Inbound documents: purchase orders, ASNs with their lines, the
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

export type PoStatus = 'new' | 'open' | 'closed' | 'cancelled';

export interface PoTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  po_no: Generated<string>;
  owner_id: number;
  supplier_code: string | null;
  status: Generated<PoStatus>;
  expected_date: NullableDate;
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
  asn_qty: DefaultedNumeric;
  lot_no: string | null;
  expected_date: NullableDate;
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
  expected_date: NullableDate;
  received_at: Date | null;
  remark: string | null;
}

export interface AsnLineTable extends Audit, LotAttributeColumns {
  id: Id;
  project_id: number;
  asn_id: number;
  line_no: number;
  sku_id: number;
  expected_qty: Numeric;
  received_qty: DefaultedNumeric;
  putaway_qty: DefaultedNumeric;
  uom: string | null;
  po_line_id: number | null;
  lot_no: string | null;
  /** A gift needs no anti-counterfeit code at scan-in. */
  gift: Generated<boolean>;
}

/** A carton announced on an ASN, inside a container, for scan-in. */
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
  /** Recorded when the carton is scanned in. */
  epc: string | null;
  carton_type: string | null;
  anti_counterfeit_code: string | null;
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
  damage_qty: DefaultedNumeric;
  hold_qty: DefaultedNumeric;
  putaway_qty: DefaultedNumeric;
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
  held_qty: DefaultedNumeric;
  suggested_location_id: number | null;
  /** Which rule of the location logic suggested it (last, sameSku, pick, empty, storage). */
  suggestion_rule: string | null;
  to_location_id: number | null;
  reason: string | null;
  /** open, done. */
  status: Generated<string>;
  confirmed_at: Date | null;
}
