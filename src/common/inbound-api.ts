/**
 * Shapes of the inbound calls that the receiving, scan-in and putaway screens make
 * (src/screens/inbound). The route handlers of src/server/modules/inbound are typed to answer
 * exactly these, and the screens read them with these types: one declaration for both sides.
 * Quantities are decimal texts; dates are YYYY-MM-DD texts.
 */

import type { LotAttributes } from './inventory-api';

/** ASN statuses; the allowed transitions between them are the inbound area's (asn-status.ts). */
export const ASN_STATUSES = ['new', 'partial_received', 'received', 'partial_putaway', 'putaway', 'cancelled', 'deleted', 'closed'] as const;
export type AsnStatus = (typeof ASN_STATUSES)[number];

/** A carton announced on an ASN for scan-in: open, scanned (waiting to be received), received. */
export type CartonStatus = 'open' | 'scanned' | 'received';

// ---------------------------------------------------------------- receiving

/** `/rec/batch/editor`: an ASN line still open for receiving, found by ASN number, SKU or barcode. */
export interface ReceivableLine {
  id: number;
  asn_id: number;
  asn_no: string;
  asn_status: string;
  line_no: number;
  sku_code: string;
  sku_description: string;
  expected_qty: string;
  received_qty: string;
  uom: string | null;
  lot_no: string | null;
  manufacture_date: string | null;
  expiry_date: string | null;
  shelf_date: string | null;
  udf1: string | null;
  udf2: string | null;
  udf3: string | null;
  /** When the ASN was last received on (its rec date), null before its first receipt. */
  received_at: string | null;
  /** The SKU's base unit (EA) and how many of it a package (case) holds. */
  base_uom: string;
  case_qty: string | null;
}

export interface ReceivableLinesAnswer {
  lines: ReceivableLine[];
}

/** One line of `/inbound/batch/receive`: what arrived of an ASN line, where, with which lot attributes. */
export interface ReceiveLineRequest extends LotAttributes {
  asnLineId: number;
  qty: string;
  locationCode: string;
  damageQty?: string | null;
  holdQty?: string | null;
  lpn?: string | null;
}

export interface ReceiveRequest {
  lines: ReceiveLineRequest[];
}

/** One receipt: the receipt lines and putaway tasks it made and the status its ASN moved to. */
export interface ReceiveResult {
  receiptNo: string;
  /** The ASN received on. */
  asnNo: string;
  receiptLineIds: number[];
  putawayTaskIds: number[];
  status: AsnStatus;
}

/** `/inbound/batch/receive` and `/scanin/convertToRec`: one receipt per ASN received. */
export interface ReceiveAnswer {
  receipts: ReceiveResult[];
}

// ---------------------------------------------------------------- scan-in

export interface ContainerCarton {
  id: number;
  asn_id: number;
  asn_no: string;
  asn_line_id: number;
  container_id: string;
  carton_id: string;
  qty: string;
  status: CartonStatus;
  epc: string | null;
  carton_type: string | null;
  anti_counterfeit_code: string | null;
  sku_code: string;
  sku_description: string;
  uom: string | null;
}

/** `/scanin/id`: what the scanned code was and the cartons of its container. */
/** `/scanIn/way`: the ways to scan in, whole container or carton by carton. */
export type ScanWay = 'container' | 'carton';
export interface ScanWaysAnswer {
  ways: ScanWay[];
}

export interface ScanInAnswer {
  kind: 'carton' | 'container';
  containerId: string;
  cartons: ContainerCarton[];
}

/** `/scan/table`. */
export interface ContainerCartonsAnswer {
  cartons: ContainerCarton[];
}

/** A SKU of a container: its cartons and the quantities announced, scanned and received. */
export interface ContainerSku {
  skuCode: string;
  description: string;
  cartons: number;
  qty: string;
  scannedQty: string;
  receivedQty: string;
}

/** `/scan/show` and `/scanIn/listSku`. */
export interface ContainerSkusAnswer {
  skus: ContainerSku[];
}

/** `/scan/cancel`: how many cartons went back to open. */
export interface CancelScanAnswer {
  cancelled: number;
}

/** `/scan/deleteContainerId`: how many cartons were removed. */
export interface DeleteContainerAnswer {
  deleted: number;
}

// ---------------------------------------------------------------- putaway

/** An open putaway task with the location the location logic suggests (null: any location). */
export interface PutawayTask {
  id: number;
  asn_no: string;
  sku_code: string;
  sku_description: string;
  lot_no: string;
  from_location: string;
  suggested_location: string | null;
  suggestion_rule: string | null;
  lpn: string;
  qty: string;
  held_qty: string;
  status: string;
}

/** `/putaway/tasks`. */
export interface PutawayTasksAnswer {
  tasks: PutawayTask[];
}

/** `/putaway/find`: the open task of a scanned LPN, pallet or carton id. */
export interface PutawayFindAnswer {
  taskId: number;
}

/** `/putaway/confirm` body. */
export interface ConfirmPutawayRequest {
  taskId: number;
  locationCode: string;
  lpn?: string | null;
  reason?: string | null;
  /** Part of the task; the whole task when absent. */
  qty?: string;
}

/** `/putaway/confirm`: what was put away where, what is left on the task, and the ASN's status. */
export interface ConfirmPutawayAnswer {
  taskId: number;
  doneTaskId: number;
  qty: string;
  left: string;
  locationCode: string;
  status: AsnStatus;
  asnNo: string;
  asnLineNo: number;
}
