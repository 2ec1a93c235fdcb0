import { sql, type Kysely } from 'kysely';

/**
 * A count line may settle stock on hold: `hold_qty` is the held stock of the line's balance row
 * that approving the line releases before its variance is applied (stock a short pick could not
 * find and held, counted to learn what is really there). 0 on every other line.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('count_ticket_line')
    .addColumn('hold_qty', sql`numeric(18,4)`, (col) => col.notNull().defaultTo(0).check(sql`hold_qty >= 0`))
    .execute();
}
