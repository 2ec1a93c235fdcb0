import type { Kysely } from 'kysely';

/**
 * A carton's lines are found by their carton: every scan reads the lines of its order's cartons,
 * and closing, reopening, splitting, labelling and loading read a carton's lines. The unique key of
 * carton lines starts with the carton but holds only lines without an anti-counterfeit code, so it
 * cannot find all of a carton's lines; this index does (and serves the cascade when a carton goes).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('carton_line_carton_idx').ifNotExists().on('carton_line').column('carton_id').execute();
}
