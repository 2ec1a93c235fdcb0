import Decimal from 'decimal.js';
import { AppError } from '../../../common/errors.js';
import { ASN_STATUSES, type AsnStatus } from '../../../common/inbound-api.js';

/**
 * ASN statuses (shared with the screens in common/inbound-api.ts) and THE table of allowed
 * transitions, enforced by the inbound services on every change. Receiving and putaway move an ASN
 * along the quantity statuses; cancel (never undone), delete and close are the header actions. A
 * transition not in the table is refused with ORDER_STATUS_ERROR; cancel and delete outside `new`
 * with DELETE_CANCEL_NOT_ALLOWED ("not allowed to delete or cancel").
 */
export { ASN_STATUSES, type AsnStatus };

export const TERMINAL_STATUSES: readonly AsnStatus[] = ['cancelled', 'deleted', 'closed'];

export const ASN_TRANSITIONS: Readonly<Record<AsnStatus, readonly AsnStatus[]>> = {
  new: ['partial_received', 'received', 'cancelled', 'deleted'],
  partial_received: ['partial_received', 'received', 'partial_putaway'],
  received: ['partial_putaway', 'putaway'],
  // Putaway of part of a partly received ASN; more may still arrive.
  partial_putaway: ['partial_putaway', 'putaway', 'closed'],
  // "Some ASN actions need the ASN to be in putaway": closing it.
  putaway: ['closed'],
  cancelled: [],
  deleted: [],
  closed: [],
};

export function isAsnStatus(value: unknown): value is AsnStatus {
  return typeof value === 'string' && (ASN_STATUSES as readonly string[]).includes(value);
}

export function canTransition(from: string, to: AsnStatus): boolean {
  return isAsnStatus(from) && ASN_TRANSITIONS[from].includes(to);
}

/** Throws the status error unless the table allows `from` -> `to`. */
export function assertTransition(from: string, to: AsnStatus): void {
  if (canTransition(from, to)) return;
  if ((to === 'cancelled' || to === 'deleted') && from !== to) throw new AppError('DELETE_CANCEL_NOT_ALLOWED');
  throw new AppError('ORDER_STATUS_ERROR', { status: from });
}

/** Statuses in which stock may still be received on the ASN. */
export const RECEIVABLE: readonly AsnStatus[] = ['new', 'partial_received', 'partial_putaway'];

/** Statuses in which received stock may be put away. */
export const PUTAWAY_ALLOWED: readonly AsnStatus[] = ['partial_received', 'received', 'partial_putaway'];

export interface AsnTotals {
  expected: Decimal.Value;
  received: Decimal.Value;
  putaway: Decimal.Value;
}

/** The quantity status the totals of an ASN's lines say it is in. */
export function statusFromTotals(totals: AsnTotals): AsnStatus {
  const expected = new Decimal(totals.expected);
  const received = new Decimal(totals.received);
  const putaway = new Decimal(totals.putaway);
  if (putaway.greaterThan(0)) return putaway.greaterThanOrEqualTo(expected) ? 'putaway' : 'partial_putaway';
  if (received.isZero()) return 'new';
  return received.greaterThanOrEqualTo(expected) ? 'received' : 'partial_received';
}

/** Closing needs everything received to be put away (the ASN in putaway, or partly put away with nothing waiting). */
export function assertClosable(status: string, totals: AsnTotals): void {
  assertTransition(status, 'closed');
  if (!new Decimal(totals.putaway).equals(totals.received)) throw new AppError('ORDER_STATUS_ERROR', { status });
}
