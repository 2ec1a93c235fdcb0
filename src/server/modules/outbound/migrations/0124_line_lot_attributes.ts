import type { Kysely } from 'kysely';

/**
 * Lot attributes an order line may ask for besides lot number and expiry ("lot
 * attributes matched"): the three user-defined lot attributes that receipts record on the lot.
 * Allocation, manual allocation and availability take only lots whose attributes equal them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('so_line').addColumn('udf1', 'text').addColumn('udf2', 'text').addColumn('udf3', 'text').execute();
}
