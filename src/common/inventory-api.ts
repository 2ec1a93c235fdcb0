/**
 * Answers of the inventory routes that the screens read (src/screens/inventory): the server's
 * queries and services are typed with these shapes and the screens call `api<...>` with them, so
 * both sides change together. Quantities are decimal text.
 */

/** The attributes that tell one lot of a SKU from another (all optional; blank means none). */
export interface LotAttributes {
  lotNo?: string | null;
  manufactureDate?: string | null;
  expiryDate?: string | null;
  shelfDate?: string | null;
  udf1?: string | null;
  udf2?: string | null;
  udf3?: string | null;
  traceId?: string | null;
  palletId?: string | null;
  cartonId?: string | null;
}

/** A balance row with stock free to allocate: its key, location and lot, and its quantities. */
export interface AvailableBalance {
  balance_id: number;
  owner_id: number;
  sku_id: number;
  lot_id: number;
  location_id: number;
  lpn: string;
  location_code: string;
  location_type: string;
  lot_no: string;
  /** YYYY-MM-DD or null. */
  expiry_date: string | null;
  /** Days from today to the expiry; null without expiry. */
  days_left: number | null;
  udf1: string | null;
  udf2: string | null;
  udf3: string | null;
  on_hand: string;
  /** On-hand less allocated, picked and held. */
  available: string;
}

/** One page of a list, with how many rows match in all. */
export interface PagedAnswer<Row> {
  rows: Row[];
  total: number;
}

/**
 * A ledger row of /inventory/transactionLog (and its exports). `Time` is the transaction's moment:
 * a Date on the server, its ISO text once sent.
 */
export interface TransactionLogRow<Time = string> {
  id: number;
  trans_type: string;
  trans_status: string;
  order_no: string | null;
  reference_line: number | null;
  trans_time: Time;
  operator: string;
  owner_code: string;
  sku_code: string;
  sku_description: string;
  lot_no: string;
  trace_id: string | null;
  location_code: string;
  lpn: string;
  qty: string;
  held_change: string;
  before_qty: string;
  after_qty: string;
  uom: string | null;
  reason: string | null;
  description: string | null;
}

/** A row of /inventory/getSTDBalanceList: a balance key's on-hand and held quantity at the end of a past day. */
export interface StandardBalanceRow {
  owner_code: string;
  sku_code: string;
  sku_description: string;
  uom: string;
  lot_no: string;
  location_code: string;
  lpn: string;
  qty: string;
  held_qty: string;
}

/** Stock at a location as the handheld move shows it, with what is free to move. */
export interface HandheldStockRow {
  sku_code: string;
  sku_description: string | null;
  lot_no: string | null;
  expiry_date: string | null;
  lpn: string;
  on_hand: string;
  available: string;
}

/** /inventory/handheld/stock: the location scanned, the SKU (when one was), and the stock. */
export interface HandheldStockAnswer {
  location: string;
  sku: string | null;
  rows: HandheldStockRow[];
}

/** /inventory/handheld/move: the move document written and confirmed. */
export interface HandheldMoveAnswer {
  ok: true;
  docNo: string;
  documentId: number;
  ledgerRows: number;
}

/** A count ticket a counter may pick on the handheld. */
export interface CountTicketSummary {
  id: number;
  ticketNo: string;
  status: string;
  locations: number;
  /** Lines were sent back for a recount. */
  recount: boolean;
}

export interface CountTicketsAnswer {
  tickets: CountTicketSummary[];
}

/** A line of a ticket as the counter sees it: blind, without the system or counted quantity. */
export interface BlindCountLine {
  id: number;
  lineNo: number;
  locationCode: string;
  skuCode: string;
  skuDescription: string | null;
  lotNo: string | null;
  lpn: string;
  barcodes: string[];
  /** Still to count (in a recount only the lines sent back). */
  toCount: boolean;
}

/** /inventory/handheld/countTicket: one ticket with its lines. */
export interface BlindCountTicket {
  id: number;
  ticketNo: string;
  status: string;
  recount: boolean;
  lines: BlindCountLine[];
}

/** /inventory/location?code=: a location of the session's warehouse whose code starts with the text typed. */
export interface LocationLookupItem {
  id: number;
  code: string;
  description: string | null;
  location_type: string;
  zone: string | null;
  status: string;
}

/** /inventory/sku?code=: a SKU of the session's project whose code starts with the text typed. */
export interface SkuLookupItem {
  id: number;
  code: string;
  description: string | null;
  base_uom: string;
  owner_id: number;
  owner_code: string;
}

/** The answer of both look-ups: at most 20 matches, by code. */
export interface LookupAnswer<T> {
  items: T[];
}
