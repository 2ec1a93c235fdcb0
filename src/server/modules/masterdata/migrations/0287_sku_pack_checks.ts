import type { Kysely } from 'kysely';

/**
 * What scan-pack checks of an item: whether each unit carries an anti-counterfeit code that must be
 * scanned as it is packed (a gift needs none), and the barcode its woolen collar must carry (an exact
 * value, or a pattern where `*` stands for any characters and `?` for one). Every existing SKU
 * starts without either.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sku')
    .addColumn('anti_counterfeit', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('collar_barcode', 'text')
    .execute();
}
