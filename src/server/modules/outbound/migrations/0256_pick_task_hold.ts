import { sql, type Kysely } from 'kysely';

/**
 * What a short pick that looks for the rest elsewhere put on hold at the task's location, and the
 * count ticket that settles it: the pick screens show it on the task.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('pick_task')
    .addColumn('held_qty', sql`numeric(18,4)`, (col) => col.notNull().defaultTo(0).check(sql`held_qty >= 0`))
    .addColumn('count_ticket_no', 'text')
    .execute();
}
