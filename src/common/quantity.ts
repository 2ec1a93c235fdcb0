import Decimal from 'decimal.js';

/**
 * The one rule of a quantity sent by a user, for every route that takes one (and shared, so that a
 * screen may check a typed quantity the same way before sending it). A quantity is a JSON number or the text of a
 * decimal number ("12", "0.5", "-3"; not "1e3", not "", not `true`), above 0 (or at least 0 where a
 * zero means something, such as a count or a short pick), with at most four decimals (quantities are
 * stored as numeric(18,4): a fifth decimal would be rounded away without anyone knowing) and at most
 * 10^12. A value that breaks the rule is refused, never rounded into one that keeps it.
 */
export const QTY_DECIMALS = 4;
export const QTY_MAX = '1000000000000';

export interface QuantityOptions {
  /** A zero is a quantity here (a count of nothing, a short pick of nothing). */
  zero?: boolean;
}

/** Why a value is no quantity: the field error's code and its parameters. */
export type QuantityProblem =
  | { code: 'FIELD_TYPE'; params: Record<string, string | number> }
  | { code: 'QTY_NOT_POSITIVE'; params: Record<string, string | number> }
  | { code: 'FIELD_RANGE'; params: { min: string; max: string } }
  | { code: 'FIELD_DECIMALS'; params: { max: number } };

export type QuantityResult = { ok: true; value: string } | { ok: false; problem: QuantityProblem };

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;
const MAX = new Decimal(QTY_MAX);

/**
 * Reads one value as a quantity: its exact decimal text ("1.5" for 1.5, "1.5" or "01.50"), or the
 * problem. Checks, in this order: the kind of value, the sign, the size, the decimals.
 */
export function parseQuantity(value: unknown, options: QuantityOptions = {}): QuantityResult {
  const refuse = (problem: QuantityProblem): QuantityResult => ({ ok: false, problem });
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return refuse({ code: 'FIELD_TYPE', params: {} });
    // The shortest text that reads back as this number: 1e-7 stays 1e-7, and has 7 decimals.
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
    if (!DECIMAL_TEXT.test(text)) return refuse({ code: 'FIELD_TYPE', params: {} });
  } else {
    return refuse({ code: 'FIELD_TYPE', params: {} });
  }
  const qty = new Decimal(text);
  if (qty.isNegative() && !qty.isZero()) return refuse({ code: 'QTY_NOT_POSITIVE', params: {} });
  if (qty.isZero() && !options.zero) return refuse({ code: 'QTY_NOT_POSITIVE', params: {} });
  if (qty.greaterThan(MAX)) return refuse({ code: 'FIELD_RANGE', params: { min: options.zero ? '0' : '0.0001', max: QTY_MAX } });
  if (qty.decimalPlaces() > QTY_DECIMALS) return refuse({ code: 'FIELD_DECIMALS', params: { max: QTY_DECIMALS } });
  return { ok: true, value: qty.abs().toFixed() };
}
