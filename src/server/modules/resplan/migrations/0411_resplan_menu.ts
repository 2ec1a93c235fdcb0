import { sql, type Kysely } from 'kysely';
import { addMenuEntry } from '../../../db/migrations/helpers.js';

/**
 * The resource planning menu group and its /resPlan entry (plans, shifts and rates on one screen),
 * seen with the resource plan right (`resplan.resPlan:view`). The start-up menu sync keeps them so
 * afterwards; these are the rows as a migrated database first has them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into sys_module (code, parent_code, title_key, route, right_name, sequence, created_by, updated_by)
    select 'resPlanning', null, 'menu.resPlanning', null, null, 1100, 'system', 'system'
    where not exists (select 1 from sys_module where code = 'resPlanning')`.execute(db);
  await addMenuEntry(db, { code: 'resPlan', group: 'resPlanning', titleKey: 'menu.resPlan', right: 'resplan.resPlan' });
  // Entries count on from their group's hundred, as the route table numbers them.
  await sql`update sys_module set sequence = 1101 where code = 'resPlan' and sequence = 1 and created_by = 'system'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sys_module where code in ('resPlan', 'resPlanning') and created_by = 'system'`.execute(db);
}
