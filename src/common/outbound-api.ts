/**
 * Answers of the outbound routes that the screens read (src/screens/outbound): the server's
 * services are typed with these shapes and the screens call `api<...>` with them, so both sides
 * change together. Quantities are decimal text; ids are numbers.
 */

import type { AvailableBalance } from './inventory-api';

export type WaveStatus = 'new' | 'released' | 'partial_picked' | 'picked' | 'cancelled';
export type PickTaskStatus = 'open' | 'picked' | 'short' | 'cancelled';

/** A pick task as /pick/tasks answers it: where, what and how much, by zone and location sequence. */
export interface PickTaskView {
  id: number;
  wave_id: number | null;
  wave_no: string | null;
  so_id: number;
  order_no: string;
  line_no: number;
  sku_id: number;
  sku_code: string;
  sku_description: string;
  lot_no: string;
  expiry_date: string | null;
  location_id: number;
  location_code: string;
  zone: string | null;
  pick_seq: number | null;
  lpn: string;
  qty: string;
  picked_qty: string;
  status: PickTaskStatus;
  to_lpn: string | null;
  reason: string | null;
  /** Stock of the SKU available to allocate elsewhere (any other balance row in an active storage or pick location): a short pick may look there. */
  other_available: string;
  /** What a short pick that looked for the rest elsewhere put on hold at the task's location ('0' when nothing). */
  held_qty: string;
  /** The count ticket that settles that hold. */
  count_ticket_no: string | null;
}

/** /pick/tasks: the tasks, and the same tasks grouped by zone in their order. */
export interface PickTasksAnswer {
  tasks: PickTaskView[];
  zones: Array<{ zone: string; tasks: PickTaskView[] }>;
}

/** What a task still has to pick. */
export function leftToPick(task: Pick<PickTaskView, 'qty' | 'picked_qty'>): number {
  return Number(task.qty) - Number(task.picked_qty);
}

/** A wave of /wave/list with its progress (the answer also carries the wave's other columns). */
export interface WaveSummary {
  id: number;
  wave_no: string;
  status: WaveStatus;
  carrier_code: string | null;
  zone: string | null;
  reference: string | null;
  order_count: number;
  line_count: number;
  qty: string;
  allocated_qty: string;
  picked_qty: string;
  /** Its pick tasks still open. */
  open_tasks: number;
}

export interface WaveListAnswer {
  rows: WaveSummary[];
}

/** An order without a wave that a new wave may take (/so/wave): what the create wave dialog shows before anything is written. */
export interface WaveCandidate {
  id: number;
  order_no: string;
  status: string;
  owner_code: string;
  /** The consignee's name, else the order's ship-to name. */
  consignee: string | null;
  carrier_code: string | null;
  required_ship_date: string | null;
  line_count: number;
  qty: string;
}

export interface WaveCandidatesAnswer {
  rows: WaveCandidate[];
  /** More orders matched than a selection may hold; only the first `cap` are in `rows`. */
  capped: boolean;
  cap: number;
}

/** The choices of the create wave filters (/so/wave/filterOptions): owners of the project and carriers, each by code and name. */
export interface WaveFilterOptions {
  owners: Array<{ id: number; code: string; name: string }>;
  carriers: Array<{ code: string; name: string | null }>;
}

/**
 * Stock a short pick that looked for the rest elsewhere put on hold at the task's location, because
 * the picker did not find it there: exactly what is held, for which order, and the count ticket
 * that settles it (approving the count releases the hold).
 */
export interface ShortPickHold {
  skuCode: string;
  skuDescription: string | null;
  locationCode: string;
  lotNo: string;
  expiryDate: string | null;
  qty: string;
  orderNo: string;
  waveNo: string | null;
  countTicketNo: string;
  /** How many people were told (the holders of the count's approve verb in the warehouse, the picker not). */
  notified: number;
}

/** /pick/confirm: the task, what was picked or shorted, what a re-allocation found, and the statuses that followed. */
export interface ConfirmPickAnswer {
  taskStatus: PickTaskStatus;
  pickedQty: string;
  shortQty: string;
  reallocatedQty: string;
  newTaskIds: number[];
  heldQty: string;
  /** What was put on hold (null when nothing was). */
  held: ShortPickHold | null;
  /** The same, told to the picker in their language (null when nothing was held). */
  heldMessage: string | null;
  orderStatus: string;
  waveStatus: string | null;
}

/** A balance row /so/findAllocation offers a line for manual allocation. */
export type AllocationCandidate = AvailableBalance;

/** A SKU `/so/sku` offers: the order owner's, with what the session's warehouse has available of it. */
export interface OwnerSkuHit {
  id: number;
  code: string;
  description: string | null;
  base_uom: string;
  available: string;
}
