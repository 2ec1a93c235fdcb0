/**
 * Which lots an order line may be allocated from (FEFO "with a minimum remaining
 * shelf life", "lot attributes matched"). One rule for the automatic allocation, the manual
 * allocation's candidates and the availability per line.
 */

/** What a line asks of its lot; empty fields ask nothing. */
export interface WantedLot {
  lot_no: string | null;
  expiry_from: string | null;
  expiry_to: string | null;
  udf1: string | null;
  udf2: string | null;
  udf3: string | null;
}

/** What a balance row's lot offers. */
export interface OfferedLot {
  lot_no: string | null;
  /** YYYY-MM-DD or null. */
  expiry_date: string | null;
  /** Days from today to the expiry; null without expiry. */
  days_left: number | null;
  udf1: string | null;
  udf2: string | null;
  udf3: string | null;
}

const ATTRIBUTES = ['lot_no', 'udf1', 'udf2', 'udf3'] as const;

/** True when the lot gives what the line asks and keeps at least `minShelfLifeDays` (null or 0: no minimum). */
export function lotFits(line: WantedLot, lot: OfferedLot, minShelfLifeDays: number | null): boolean {
  if (lot.days_left !== null && lot.days_left < (minShelfLifeDays ?? 0)) return false;
  for (const attribute of ATTRIBUTES) {
    const wanted = line[attribute]?.trim();
    if (wanted && (lot[attribute] ?? '') !== wanted) return false;
  }
  if (line.expiry_from && (lot.expiry_date === null || lot.expiry_date < line.expiry_from)) return false;
  if (line.expiry_to && (lot.expiry_date === null || lot.expiry_date > line.expiry_to)) return false;
  return true;
}
