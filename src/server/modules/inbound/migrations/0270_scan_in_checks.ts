import type { Kysely } from 'kysely';

/**
 * What scan-in records of a carton (its EPC, carton type and anti-counterfeit code), and whether
 * an ASN line's item is a gift (a gift needs no anti-counterfeit code).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('asn_carton')
    .addColumn('epc', 'text')
    .addColumn('carton_type', 'text')
    .addColumn('anti_counterfeit_code', 'text')
    .execute();
  await db.schema
    .alterTable('asn_line')
    .addColumn('gift', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
}
