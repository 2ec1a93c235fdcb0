import { sql, type Kysely } from 'kysely';

/**
 * The menu entry of the exchange rate page as the route table declares it (the start-up menu sync
 * keeps it so afterwards): after the currency list in the billing group, with the page's right. A
 * database that already has an entry of the code keeps it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into sys_module (code, parent_code, title_key, route, right_name, sequence, created_by, updated_by)
    select 'exchangeRate', 'billingJobs', 'menu.exchangeRate', '/exchangeRate', 'billing.exchangeRate', 707, 'system', 'system'
     where not exists (select 1 from sys_module where code = 'exchangeRate')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sys_module where code = 'exchangeRate' and created_by = 'system'`.execute(db);
}
