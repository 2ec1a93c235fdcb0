import type { Kysely } from 'kysely';

/**
 * Whether a SKU is a gift: an item given away with others, which needs no anti-counterfeit code
 * when its cartons are scanned in. Every existing SKU starts as no gift. The gift flag of ASN lines
 * is not copied here: it stays on the line as an override for a single delivery (scan-in treats a
 * carton as a gift when its SKU or its ASN line says so).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sku')
    .addColumn('gift', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
}
