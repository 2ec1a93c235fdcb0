import { sql, type Kysely } from 'kysely';

/**
 * The checks of scan-pack: the anti-counterfeit code scanned with an item is kept on its carton
 * line, and a carton may be opened with the RFID card it carries (`card_id`). A line with a code is
 * a line of its own (one item, one code), so the key that merges a carton's lines of one order line
 * and one source holds only for lines without a code. No code is packed twice in a warehouse; the
 * service checks it under a lock of the warehouse and code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('carton_line').addColumn('anti_counterfeit_code', 'text').execute();
  await db.schema.alterTable('carton_line').dropConstraint('carton_line_source_key').execute();
  await db.schema
    .createIndex('carton_line_source_key')
    .on('carton_line')
    .columns(['carton_id', 'so_line_id', 'lot_id', 'from_location_id', 'from_lpn'])
    .unique()
    .where(sql.ref('anti_counterfeit_code'), 'is', null)
    .execute();
  await db.schema.createIndex('carton_line_anti_counterfeit_idx').on('carton_line').column('anti_counterfeit_code').where(sql.ref('anti_counterfeit_code'), 'is not', null).execute();
  await db.schema.alterTable('carton').addColumn('card_id', 'text').execute();
  await db.schema.createIndex('carton_card_idx').on('carton').columns(['warehouse_id', 'card_id']).where(sql.ref('card_id'), 'is not', null).execute();
}
