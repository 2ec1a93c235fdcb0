import type { Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import type { LocationType } from './masterdata.tables.js';
import { highestPickSequence, insertLocations, lockLocationGeneration, warehouseExists } from './masterdata.repository.js';

/** One segment of a location code: a range of letters (`A`..`C`) or of numbers (`01`..`20`). */
export interface CodeRange {
  from: string;
  to: string;
}

export interface GenerateLocationsInput {
  warehouseId: number;
  aisle: CodeRange;
  bay: CodeRange;
  level: CodeRange;
  position?: CodeRange | null;
  /** Put between the segments of the code; `-` by default (A-01-1). */
  separator?: string;
  zone?: string | null;
  locationType?: LocationType;
  maxPallets?: number | null;
  maxWeightKg?: string | null;
  maxVolumeCm3?: string | null;
}

export interface GenerateLocationsResult {
  requested: number;
  created: number;
  /** Codes that already existed in the warehouse and were left as they are. */
  skipped: string[];
}

/** The most locations one call may generate; larger layouts are generated zone by zone. */
export const MAX_GENERATED_LOCATIONS = 20_000;

const LOCATION_TYPES: readonly LocationType[] = ['storage', 'pick', 'stage', 'dock', 'qc', 'damage', 'virtual'];

function invalid(reason: string): AppError {
  return new AppError('LOCATION_RANGE_INVALID', { reason });
}

function lettersToNumber(text: string): number {
  let value = 0;
  for (const char of text) value = value * 26 + (char.charCodeAt(0) - 64);
  return value;
}

function numberToLetters(value: number): string {
  let text = '';
  while (value > 0) {
    const rest = (value - 1) % 26;
    text = String.fromCharCode(65 + rest) + text;
    value = (value - 1 - rest) / 26;
  }
  return text;
}

/**
 * Expands one range into its values: `A`..`C` gives A, B, C (and `Y`..`AB` gives Y, Z, AA, AB);
 * `01`..`12` gives 01 to 12, zero-padded to the width of `from` when `from` has a leading zero.
 */
export function expandRange(name: string, range: CodeRange): string[] {
  const from = range.from.trim().toUpperCase();
  const to = range.to.trim().toUpperCase();
  if (!from || !to) throw invalid(`${name}: from and to are required`);
  if (/^\d+$/.test(from) && /^\d+$/.test(to)) {
    const start = Number(from);
    const end = Number(to);
    if (start > end) throw invalid(`${name}: ${from} is after ${to}`);
    if (end - start >= MAX_GENERATED_LOCATIONS) throw invalid(`${name}: the range is too long`);
    const width = from.length > 1 && from.startsWith('0') ? from.length : 0;
    const values: string[] = [];
    for (let n = start; n <= end; n++) values.push(String(n).padStart(width, '0'));
    return values;
  }
  if (/^[A-Z]{1,3}$/.test(from) && /^[A-Z]{1,3}$/.test(to)) {
    const start = lettersToNumber(from);
    const end = lettersToNumber(to);
    if (start > end) throw invalid(`${name}: ${from} is after ${to}`);
    const values: string[] = [];
    for (let n = start; n <= end; n++) values.push(numberToLetters(n));
    return values;
  }
  throw invalid(`${name}: use letters (A to C) or numbers (01 to 20) on both ends`);
}

export interface PlannedLocation {
  code: string;
  aisle: string;
  bay: string;
  level: string;
  position: string | null;
}

/** Every code of the ranges, aisle by aisle, bay by bay, level by level, without touching the database. */
export function planLocations(input: Pick<GenerateLocationsInput, 'aisle' | 'bay' | 'level' | 'position' | 'separator'>): PlannedLocation[] {
  const separator = input.separator ?? '-';
  if (separator.length > 3 || /[\s%_]/.test(separator)) throw invalid('the separator must be at most 3 characters, without spaces');
  const aisles = expandRange('aisle', input.aisle);
  const bays = expandRange('bay', input.bay);
  const levels = expandRange('level', input.level);
  const positions = input.position ? expandRange('position', input.position) : [null];
  const count = aisles.length * bays.length * levels.length * positions.length;
  if (count > MAX_GENERATED_LOCATIONS) {
    throw new AppError('LOCATION_RANGE_TOO_LARGE', { count, max: MAX_GENERATED_LOCATIONS });
  }
  const planned: PlannedLocation[] = [];
  for (const aisle of aisles) {
    for (const bay of bays) {
      for (const level of levels) {
        for (const position of positions) {
          const parts = position === null ? [aisle, bay, level] : [aisle, bay, level, position];
          planned.push({ code: parts.join(separator), aisle, bay, level, position });
        }
      }
    }
  }
  return planned;
}

function checkCapacity(input: GenerateLocationsInput): void {
  if (input.maxPallets != null && (!Number.isInteger(input.maxPallets) || input.maxPallets < 0)) {
    throw invalid('the pallet capacity must be a whole number of 0 or more');
  }
  for (const [name, value] of [
    ['weight', input.maxWeightKg],
    ['volume', input.maxVolumeCm3],
  ] as const) {
    if (value != null && value !== '' && !/^\d+(\.\d+)?$/.test(String(value))) throw invalid(`the ${name} capacity must be a number of 0 or more`);
  }
  if (input.locationType && !LOCATION_TYPES.includes(input.locationType)) throw invalid(`unknown location type ${input.locationType}`);
}

/**
 * "Generate locations" (part 4): creates every location of the ranges in
 * one warehouse, in the caller's transaction, leaving codes that already
 * exist untouched and reporting them.
 * Pick sequences continue after the warehouse's highest one, in code order of the ranges.
 */
export async function generateLocations(
  trx: Transaction<DB>,
  input: GenerateLocationsInput,
  actor: string,
): Promise<GenerateLocationsResult> {
  checkCapacity(input);
  return insertPlanned(trx, input, planLocations(input), actor);
}

async function insertPlanned(
  trx: Transaction<DB>,
  input: GenerateLocationsInput,
  planned: PlannedLocation[],
  actor: string,
): Promise<GenerateLocationsResult> {
  if (!(await warehouseExists(trx, input.warehouseId))) throw new AppError('NO_RECORD');
  // Two generators on one warehouse must not both read the same highest pick sequence.
  await lockLocationGeneration(trx, input.warehouseId);
  const highest = await highestPickSequence(trx, input.warehouseId);

  const created = new Set<string>();
  // One statement per chunk keeps the bound arrays small; all chunks share the transaction.
  const CHUNK = 5000;
  for (let start = 0; start < planned.length; start += CHUNK) {
    const codes = await insertLocations(trx, input, planned.slice(start, start + CHUNK), highest + start, actor);
    for (const code of codes) created.add(code);
  }
  return {
    requested: planned.length,
    created: created.size,
    skipped: planned.filter((p) => !created.has(p.code)).map((p) => p.code),
  };
}
