import type { Kysely } from 'kysely';

/**
 * Whether a SKU is a gift: an item given away with others, which needs no anti-counterfeit code
 * when its cartons are scanned in. Every existing SKU starts as no gift.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sku')
    .addColumn('gift', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
}
