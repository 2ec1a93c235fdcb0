import { sql, type Kysely } from 'kysely';

/**
 * The allocation rules get a menu entry of their own, the last of the outbound group (the order
 * list opens the same page): the row the route table declares for the `soRule` route, with the
 * engine's right of its page. A database that already has an entry of that code keeps it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into sys_module (code, parent_code, title_key, route, right_name, sequence, created_by, updated_by)
    select 'soRule', 'outbound', 'outbound.page.soRule', '/soRule', 'outbound.soRule', coalesce(max(sequence), 0) + 1, 'system', 'system'
      from sys_module
     where parent_code = 'outbound' and created_by = 'system'
       and not exists (select 1 from sys_module where code = 'soRule')`.execute(db);
}
