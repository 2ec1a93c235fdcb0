import { sql, type Kysely } from 'kysely';

/**
 * The order maintenance list gets its menu entry, after the allocation rules at the end of the
 * outbound group: the row the route table declares for the `soMaintenance` route, with the engine's
 * right of its page. A database that already has an entry of that code keeps it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into sys_module (code, parent_code, title_key, route, right_name, sequence, created_by, updated_by)
    select 'soMaintenance', 'outbound', 'menu.soMaintenance', '/soMaintenance', 'outbound.soMaintenance', coalesce(max(sequence), 0) + 1, 'system', 'system'
      from sys_module
     where parent_code = 'outbound' and created_by = 'system'
       and not exists (select 1 from sys_module where code = 'soMaintenance')`.execute(db);
}
