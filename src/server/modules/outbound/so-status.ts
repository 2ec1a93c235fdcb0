import Decimal from 'decimal.js';
import { AppError } from '../../../common/errors.js';

/**
 * Sales order statuses (the fifteen statuses, plus new) and the transitions the
 * server allows between them. Cancelled, deleted and closed are terminal: nothing leaves them.
 */
export const SO_STATUSES = [
  'new',
  'partial_allocated',
  'allocated',
  'partial_picked',
  'picked',
  'partial_packed',
  'packed',
  'partial_loaded',
  'loaded',
  'partial_shipped',
  'shipped',
  'delivered',
  'billed',
  'cancelled',
  'deleted',
  'closed',
] as const;

export type SoStatus = (typeof SO_STATUSES)[number];

export const TERMINAL_STATUSES: readonly SoStatus[] = ['cancelled', 'deleted', 'closed'];

/** From each status, the statuses an order may move to. */
export const SO_TRANSITIONS: Readonly<Record<SoStatus, readonly SoStatus[]>> = {
  new: ['partial_allocated', 'allocated', 'cancelled', 'deleted', 'closed'],
  partial_allocated: ['new', 'partial_allocated', 'allocated', 'partial_picked', 'cancelled', 'closed'],
  allocated: ['new', 'partial_allocated', 'partial_picked', 'picked', 'cancelled', 'closed'],
  partial_picked: ['partial_allocated', 'allocated', 'partial_picked', 'picked', 'partial_packed', 'closed'],
  picked: ['partial_allocated', 'allocated', 'partial_picked', 'partial_packed', 'packed', 'closed'],
  partial_packed: ['partial_picked', 'picked', 'packed', 'closed'],
  packed: ['partial_packed', 'partial_loaded', 'loaded', 'closed'],
  partial_loaded: ['packed', 'loaded', 'closed'],
  loaded: ['partial_loaded', 'partial_shipped', 'shipped', 'closed'],
  partial_shipped: ['shipped', 'closed'],
  shipped: ['delivered', 'closed'],
  delivered: ['billed', 'closed'],
  billed: ['closed'],
  cancelled: [],
  deleted: [],
  closed: [],
};

/** Statuses in which allocation may run or be undone. */
export const ALLOCATABLE: readonly SoStatus[] = ['new', 'partial_allocated', 'allocated'];

export function isSoStatus(value: unknown): value is SoStatus {
  return typeof value === 'string' && (SO_STATUSES as readonly string[]).includes(value);
}

/** Refuses with ORDER_STATUS_ERROR unless the table allows `from` to `to`; staying put is allowed for non-terminal statuses. */
export function assertTransition(orderNo: string, from: string, to: SoStatus): void {
  if (!isSoStatus(from)) throw new AppError('ORDER_STATUS_ERROR', { orderNo, status: from });
  if (from === to && !TERMINAL_STATUSES.includes(from)) return;
  if (!SO_TRANSITIONS[from].includes(to)) throw new AppError('ORDER_STATUS_ERROR', { orderNo, status: from });
}

export interface LineQuantities {
  qty: Decimal.Value;
  allocated_qty: Decimal.Value;
  picked_qty: Decimal.Value;
}

/** The allocation and picking status the lines' quantities give (new when nothing is allocated). */
export function statusFromLines(lines: readonly LineQuantities[]): SoStatus {
  let qty = new Decimal(0);
  let allocated = new Decimal(0);
  let picked = new Decimal(0);
  for (const line of lines) {
    qty = qty.plus(line.qty);
    allocated = allocated.plus(line.allocated_qty);
    picked = picked.plus(line.picked_qty);
  }
  if (qty.isZero()) return 'new';
  if (picked.greaterThanOrEqualTo(qty)) return 'picked';
  if (picked.greaterThan(0)) return 'partial_picked';
  if (allocated.greaterThanOrEqualTo(qty)) return 'allocated';
  if (allocated.greaterThan(0)) return 'partial_allocated';
  return 'new';
}
