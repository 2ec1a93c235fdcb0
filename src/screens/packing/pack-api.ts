/** What the scan-and-pack calls answer (`/scanPack`, `/pack/scan/*`, `/scanPack/closeOrder`). */

import type { CartonAnswer } from '../../common/packing-api';

export type PackCarton = CartonAnswer;

export interface PackLine {
  lineId: number;
  lineNo: number;
  skuId: number;
  skuCode: string;
  ordered: string;
  picked: string;
  packed: string;
}

export interface PackAnswer {
  order: { id: number; orderNo: string; status: string; waveNo: string | null };
  lines: PackLine[];
  openCarton: PackCarton | null;
  cartons: PackCarton[];
}

export interface CodeRow {
  code: string;
  description: string;
}

/** Decimal text to a number for display and comparisons of at most four decimals. */
export const amount = (text: string) => Number(text);

/** What is picked of the line and not packed yet. */
export const leftToPack = (line: PackLine) => Math.max(0, Math.round((amount(line.picked) - amount(line.packed)) * 10000) / 10000);

/** A typed quantity: digits with at most four decimals, above 0; a comma counts as the decimal point. */
export function parseQty(text: string): string | null {
  const value = text.trim().replace(',', '.');
  if (!/^\d{1,12}(\.\d{1,4})?$/.test(value) || Number(value) <= 0) return null;
  return value;
}

/** What changed in a carton between two answers, by SKU: positive when packed, negative when taken out. */
export function cartonChange(before: PackCarton | undefined, after: PackCarton | undefined): Array<{ skuCode: string; qty: number }> {
  const totals = (carton: PackCarton | undefined) => {
    const map = new Map<string, number>();
    for (const line of carton?.lines ?? []) map.set(line.skuCode, (map.get(line.skuCode) ?? 0) + amount(line.qty));
    return map;
  };
  const was = totals(before);
  const now = totals(after);
  const codes = new Set([...was.keys(), ...now.keys()]);
  return [...codes]
    .map((skuCode) => ({ skuCode, qty: Math.round(((now.get(skuCode) ?? 0) - (was.get(skuCode) ?? 0)) * 10000) / 10000 }))
    .filter((change) => change.qty !== 0);
}
