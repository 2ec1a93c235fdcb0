import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { insertLocationIfMissing } from './masterdata.repository.js';

/**
 * A virtual location of a warehouse (nothing picks from or puts away to it), made when first
 * needed: the inventory area keeps the stock of a transfer in transit in one. Answers its id;
 * a location of that code the warehouse has already is kept as it is.
 */
export function ensureVirtualLocation(
  trx: Transaction<DB>,
  location: { warehouseId: number; code: string; description: string; by: string },
): Promise<number> {
  return insertLocationIfMissing(trx, { ...location, locationType: 'virtual' });
}
