import { sql, type Kysely } from 'kysely';

/**
 * Allocation rules: "full pallet before loose" joins the rule table, on by default
 * like "pick face before reserve". A pallet (an LPN in its location) whose whole quantity fits what
 * a line still needs is taken whole before loose stock; the allocation reads the LPN's whole
 * quantity through the index below.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('so_rule')
    .addColumn('full_pallet_first', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute();
  await sql`create index inventory_balance_lpn_idx on inventory_balance (location_id, lpn) where lpn <> ''`.execute(db);
}
