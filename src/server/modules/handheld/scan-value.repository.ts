import type { Kysely, Transaction } from 'kysely';
import type { DialogValues, HandheldFunction, ScanValueRow } from '../../../common/handheld-api.js';
import type { DB } from '../../db/schema.js';
import type { Place } from './handheld.repository.js';

/** The SQL of the dialog values stored with handheld confirmations (`handheld_scan_value`). */

const COLUMNS = { dimension: 'dimension', volume: 'volume', grossWeight: 'gross_weight', netWeight: 'net_weight' } as const;

type Row = {
  id: number;
  scan_key: string;
  fn: string;
  subject: Record<string, unknown>;
  answer: unknown;
  dimension: string | null;
  volume: string | null;
  gross_weight: string | null;
  net_weight: string | null;
  created_by: string | null;
  created_at: Date;
};

/** A stored value as entered: a decimal without its trailing zeros; a dimension of three measures as it is. */
const decimal = (value: string | null) => (value === null ? undefined : /^\s*[\d.]+\s*$/.test(value) ? String(Number(value)) : value.trim());

function toRow(r: Row): ScanValueRow {
  const values: DialogValues = {};
  for (const [field, column] of Object.entries(COLUMNS) as Array<[keyof typeof COLUMNS, (typeof COLUMNS)[keyof typeof COLUMNS]]>) {
    const value = decimal(r[column]);
    if (value !== undefined) values[field] = value;
  }
  return {
    id: Number(r.id),
    scanKey: r.scan_key,
    fn: r.fn as HandheldFunction,
    subject: r.subject,
    answer: r.answer,
    values,
    login: r.created_by ?? '',
    createdAt: new Date(r.created_at).toISOString(),
  };
}

const SELECT = ['id', 'scan_key', 'fn', 'subject', 'answer', 'dimension', 'volume', 'gross_weight', 'net_weight', 'created_by', 'created_at'] as const;

export async function scanValueOf(db: Kysely<DB> | Transaction<DB>, userId: number, scanKey: string): Promise<ScanValueRow | undefined> {
  const row = await db.selectFrom('handheld_scan_value').select(SELECT).where('user_id', '=', userId).where('scan_key', '=', scanKey).executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** Stores the values of a confirmation once: a second call for the same key keeps the first. */
export async function insertScanValue(
  trx: Transaction<DB>,
  place: Place,
  row: { userId: number; scanKey: string; fn: HandheldFunction; subject: Record<string, unknown>; answer: unknown; values: DialogValues },
  by: string,
): Promise<void> {
  await trx
    .insertInto('handheld_scan_value')
    .values({
      project_id: place.projectId,
      warehouse_id: place.warehouseId,
      user_id: row.userId,
      scan_key: row.scanKey,
      fn: row.fn,
      subject: JSON.stringify(row.subject),
      answer: JSON.stringify(row.answer ?? null),
      dimension: row.values.dimension ?? null,
      volume: row.values.volume ?? null,
      gross_weight: row.values.grossWeight ?? null,
      net_weight: row.values.netWeight ?? null,
      created_by: by,
      updated_by: by,
    })
    .onConflict((oc) => oc.columns(['user_id', 'scan_key']).doNothing())
    .execute();
}

/** The newest stored values of the project and warehouse, of a function and (or) a confirmation key. */
export async function listScanValues(db: Kysely<DB>, place: Place, filter: { fn?: HandheldFunction; scanKey?: string; limit: number }): Promise<ScanValueRow[]> {
  let query = db
    .selectFrom('handheld_scan_value')
    .select(SELECT)
    .where('project_id', '=', place.projectId)
    .where('warehouse_id', '=', place.warehouseId);
  if (filter.fn) query = query.where('fn', '=', filter.fn);
  if (filter.scanKey) query = query.where('scan_key', '=', filter.scanKey);
  const rows = await query.orderBy('id', 'desc').limit(filter.limit).execute();
  return rows.map(toRow);
}
