import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import { DIALOG_FIELDS, type DialogField, type DialogValues, type HandheldFunction, type ScanValueRow } from '../../../common/handheld-api.js';
import { appliedScan } from '../../area-kit/idempotency.js';
import type { DB } from '../../db/schema.js';
import type { HandheldPlace } from './handheld.service.js';
import * as repo from './scan-value.repository.js';

/**
 * The dialog values of a handheld flow (dimension, volume, gross and net weight) are stored with
 * the confirmation they were entered for, by the confirmation's idempotency key: the handheld
 * sends them right after the confirmation, through the same offline queue, so they apply after it
 * and in its order. Values are kept only for a confirmation the user's key applied; a confirmation
 * refused (or never sent) stores none (`HH_SCAN_UNKNOWN`). Sending them again keeps the first.
 */
export async function recordScanValues(
  trx: Transaction<DB>,
  place: HandheldPlace,
  input: { scanKey: string; fn: HandheldFunction; subject: Record<string, unknown>; values: Partial<Record<DialogField, string | null>> },
): Promise<ScanValueRow> {
  const values: DialogValues = {};
  for (const field of DIALOG_FIELDS) {
    const value = input.values[field];
    if (value !== undefined && value !== null && value !== '') values[field] = value;
  }
  if (Object.keys(values).length === 0) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'values', code: 'FIELD_REQUIRED', params: { field: 'values' } }]);
  const applied = await appliedScan(trx, place.userId, input.scanKey);
  if (!applied) throw new AppError('HH_SCAN_UNKNOWN', { key: input.scanKey });
  await repo.insertScanValue(trx, place, { userId: place.userId, scanKey: input.scanKey, fn: input.fn, subject: input.subject, answer: applied.answer, values }, place.login);
  const row = await repo.scanValueOf(trx, place.userId, input.scanKey);
  if (!row) throw new AppError('NO_RECORD');
  return row;
}

export const listScanValues = (db: Kysely<DB>, place: HandheldPlace, filter: { fn?: HandheldFunction; scanKey?: string; limit?: number }) =>
  repo.listScanValues(db, place, { ...filter, limit: filter.limit ?? 50 });
