import Decimal from 'decimal.js';
import { AppError } from '../../../common/errors.js';
import type { EventBus } from '../../events/events.js';
import type { LotAttributes, StockScope } from '../inventory/index.js';

/** What every inbound service of the area shares: who acts where, and the checks of decimal and date input. */

/** The project and warehouse a call works in; every inbound read is limited to them. */
export interface Scope {
  projectId: number;
  warehouseId: number;
}

export interface Actor extends Scope {
  login: string;
  /**
   * The event bus of the request: with it, status changes emit the inbound domain events and raise
   * the "ASN received" notification in the same transaction. Work outside a request (demo data,
   * benchmarks) passes none and notifies no one.
   */
  events?: EventBus;
}

export function stockScope(actor: Actor): StockScope {
  return { projectId: actor.projectId, warehouseId: actor.warehouseId, operator: actor.login };
}

/** A decimal input; empty is 0, anything not a finite number is refused. */
export function dec(value: Decimal.Value | null | undefined): Decimal {
  if (value === null || value === undefined || value === '') return new Decimal(0);
  const d = new Decimal(value);
  if (!d.isFinite()) throw new AppError('BAD_REQUEST', { reason: 'not a number' });
  return d;
}

export const now = () => new Date();

/** A calendar date YYYY-MM-DD that exists (2026-02-31 does not), or null. */
export function dateOf(value: string | null | undefined, field: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const parsed = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
  if (!parsed || parsed.toISOString().slice(0, 10) !== value || Number(match![1]) < 1900) throw new AppError('FIELD_TYPE', { field }, [{ field, code: 'FIELD_TYPE' }]);
  return value;
}

/** Lot attributes a line may bring (an ASN line announces them, a receipt line may override them). */
export type LotFieldsInput = Pick<LotAttributes, 'lotNo' | 'manufactureDate' | 'expiryDate' | 'shelfDate' | 'udf1' | 'udf2' | 'udf3'>;

/** A carton id: 4 to 40 letters, digits and dashes, starting with a letter or digit. */
export const CARTON_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]{3,39}$/;

/** Refuses a carton id that does not match the carton id pattern. */
export function assertCartonIdPattern(cartonId: string, field = 'cartonId'): void {
  if (!CARTON_ID_PATTERN.test(cartonId)) throw new AppError('CARTON_ID_PATTERN', { code: cartonId }, [{ field, code: 'CARTON_ID_PATTERN' }]);
}
