import type { ColumnType, Generated } from 'kysely';
import type { Audit, DefaultedNumeric, Id, NullableDate, NullableNumeric, NullableTimestamp, Numeric } from '../../db/schema.js';

/**
 * The stock model: lots, the balance by warehouse x owner x SKU x lot x
 * location x LPN, and the append-only ledger. Only the inventory service writes balance and ledger.
 */
declare module '../../db/schema.js' {
  interface DB {
    lot: LotTable;
    inventory_balance: InventoryBalanceTable;
    inventory_transaction: InventoryTransactionTable;
  }
}

/** The lot attributes besides the lot number: a lot carries them, an ASN line announces them. */
export interface LotAttributeColumns {
  manufacture_date: NullableDate;
  expiry_date: NullableDate;
  shelf_date: NullableDate;
  udf1: string | null;
  udf2: string | null;
  udf3: string | null;
}

/** Lot attributes of received stock (batch receive line). */
export interface LotTable extends Audit, LotAttributeColumns {
  id: Id;
  project_id: number;
  owner_id: number;
  sku_id: number;
  lot_no: Generated<string>;
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
  on_hand_qty: DefaultedNumeric;
  allocated_qty: DefaultedNumeric;
  picked_qty: DefaultedNumeric;
  held_qty: DefaultedNumeric;
  last_inbound_at: Date | null;
  last_outbound_at: Date | null;
  updated_at: Generated<Date>;
}

/**
 * One ledger row per balance change (inventory transaction). `qty` is the change of
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
  allocated_change: DefaultedNumeric;
  picked_change: DefaultedNumeric;
  held_change: DefaultedNumeric;
  before_qty: Numeric;
  after_qty: Numeric;
  uom: string | null;
  reason: string | null;
  description: string | null;
  amount: ColumnType<string | null, string | number | null | undefined, string | number | null>;
}

declare module '../../db/schema.js' {
  interface DB {
    inventory_document: InventoryDocumentTable;
    inventory_document_line: InventoryDocumentLineTable;
    count_plan: CountPlanTable;
    count_ticket: CountTicketTable;
    count_ticket_line: CountTicketLineTable;
  }
}

export type DocType = 'adjust' | 'move' | 'transfer' | 'hold';
export type DocStatus = 'new' | 'requested' | 'in_transit' | 'confirmed' | 'cancelled';
export type LineAction = 'add' | 'subtract' | 'hold' | 'release';

/** An adjustment, move, transfer or hold/release document (header actions). */
export interface InventoryDocumentTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  doc_type: DocType;
  doc_no: string;
  status: Generated<DocStatus>;
  reason: string | null;
  remark: string | null;
  /** Transfer to another warehouse of the project; null: within the warehouse. */
  to_warehouse_id: number | null;
  requested_by: string | null;
  requested_at: NullableTimestamp;
  approved_by: string | null;
  approved_at: NullableTimestamp;
  confirmed_by: string | null;
  confirmed_at: NullableTimestamp;
}

export interface InventoryDocumentLineTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  document_id: number;
  line_no: number;
  action: LineAction | null;
  owner_id: number | null;
  sku_id: number | null;
  lot_id: number | null;
  location_id: number | null;
  lpn: Generated<string>;
  qty: NullableNumeric;
  to_owner_id: number | null;
  to_sku_id: number | null;
  to_location_id: number | null;
  to_lpn: string | null;
  reason: string | null;
  /** Where the line's stock waits while its transfer is in transit. */
  transit_location_id: number | null;
}

/** A cycle-count plan of the count master: which locations a count order covers. */
export interface CountPlanTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  plan_code: string;
  description: string | null;
  zone: string | null;
  location_from: string | null;
  location_to: string | null;
  sku_id: number | null;
  abc_class: 'A' | 'B' | 'C' | null;
  not_counted_days: number | null;
  max_locations: Generated<number>;
  active: Generated<boolean>;
  last_run_at: NullableTimestamp;
}

export type CountTicketStatus = 'open' | 'counted' | 'approved' | 'closed' | 'cancelled';

export interface CountTicketTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  ticket_no: string;
  plan_id: number | null;
  status: Generated<CountTicketStatus>;
  approved_by: string | null;
  approved_at: NullableTimestamp;
}

export interface CountTicketLineTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  ticket_id: number;
  line_no: number;
  location_id: number;
  owner_id: number;
  sku_id: number;
  lot_id: number;
  lpn: Generated<string>;
  /** On-hand when the ticket was made; never shown to the counter (blind count). */
  system_qty: Numeric;
  /** Held stock of the line's balance row that approving the line releases first (a short pick's hold); 0 on other lines. */
  hold_qty: DefaultedNumeric;
  counted_qty: NullableNumeric;
  recount_qty: NullableNumeric;
  counted_by: string | null;
  counted_at: NullableTimestamp;
  status: Generated<'open' | 'counted' | 'recount' | 'approved'>;
}
