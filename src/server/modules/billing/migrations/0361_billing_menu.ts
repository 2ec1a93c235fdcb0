import { sql, type Kysely } from 'kysely';

/**
 * The billing menu entries as the route table declares them (the start-up menu sync keeps them so
 * afterwards; this is the menu as a migrated database first has it): billing maintenance opens the
 * billing area's bill page with its right, after the jobs and timers of the group; charge codes,
 * billing contracts and the master data's currency list follow it. A database that already has an
 * entry of a code keeps that entry.
 */
const ENTRIES = [
  { code: 'job', sequence: 701 },
  { code: 'timer', sequence: 702 },
  { code: 'billingMaintance', sequence: 703, right: 'billing.billingMaintance' },
  { code: 'chargeCode', sequence: 704, right: 'billing.chargeCode' },
  { code: 'billingContract', sequence: 705, right: 'billing.billingContract' },
  { code: 'currency', sequence: 706, right: 'masterdata.currency' },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const entry of ENTRIES) {
    await sql`update sys_module set sequence = ${entry.sequence}, updated_at = now(), updated_by = 'system' where code = ${entry.code} and parent_code = 'billingJobs' and created_by = 'system'`.execute(db);
    if (!entry.right) continue;
    await sql`update sys_module set right_name = ${entry.right} where code = ${entry.code} and created_by = 'system'`.execute(db);
    await sql`
      insert into sys_module (code, parent_code, title_key, route, right_name, sequence, created_by, updated_by)
      select ${entry.code}, 'billingJobs', ${`menu.${entry.code}`}, ${`/${entry.code}`}, ${entry.right}, ${entry.sequence}, 'system', 'system'
       where not exists (select 1 from sys_module where code = ${entry.code})`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sys_module where code in ('chargeCode', 'billingContract', 'currency') and created_by = 'system'`.execute(db);
  await sql`update sys_module set right_name = null, sequence = 701 where code = 'billingMaintance' and created_by = 'system'`.execute(db);
  await sql`update sys_module set sequence = 702 where code = 'job' and created_by = 'system'`.execute(db);
  await sql`update sys_module set sequence = 703 where code = 'timer' and created_by = 'system'`.execute(db);
}
