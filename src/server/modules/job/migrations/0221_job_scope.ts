import { sql, type Kysely } from 'kysely';
import { CONFIGURATOR_READ_ROLE, CONFIGURATOR_WRITE_ROLE } from '../../../db/migrations/helpers.js';

/** The system classes when this migration was written: their jobs stay global, for administrators. */
const SYSTEM_HANDLERS = ['auth.purgeExpired', 'download.purgeExpired', 'notify.sendOutboxEmail', 'inventory.storageSnapshot', 'inventory.expiryAlert'];

/**
 * A job belongs to a project (and the warehouse it was made in): the lists show the session
 * project's jobs only and its parameters may name nothing outside it. Jobs of system classes
 * (purges, the outbox, the warehouse-wide snapshot and alert) belong to no project and are for
 * administrators only; `job_handler.scope` tells the two kinds apart, kept equal to the code at
 * start.
 *
 * Existing jobs of other classes take the project their parameters name (`project`, else the only
 * project of the `warehouse` they name), else their creator's first project; the warehouse their
 * parameters name when it serves that project, else the creator's first warehouse serving it. A
 * job none of this places stays without a project: only administrators see it, and it does not
 * run until it is given one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table job_handler add column scope text not null default 'project' check (scope in ('project', 'system'))`.execute(db);
  await sql`update job_handler set scope = 'system' where name in (${sql.join(SYSTEM_HANDLERS)})`.execute(db);

  await sql`alter table job add column project_id bigint references project (id)`.execute(db);
  await sql`alter table job add column warehouse_id bigint references warehouse (id)`.execute(db);
  await sql`create index job_project on job (project_id)`.execute(db);

  const param = (name: string) => sql`(select nullif(trim(p.value), '') from job_param p where p.job_id = j.id and p.name = ${name})`;
  const creator = sql`(select u.id from app_user u where u.login_account = j.created_by)`;
  await sql`
    update job j set project_id = coalesce(
      (select pr.id from project pr where pr.code = ${param('project')}),
      (select min(pw.project_id) from project_warehouse pw join warehouse w on w.id = pw.warehouse_id
        where w.code = ${param('warehouse')} having count(*) = 1),
      (select min(g.project_id) from user_project g where g.user_id = ${creator})
    )
    where j.handler not in (${sql.join(SYSTEM_HANDLERS)})
  `.execute(db);
  await sql`
    update job j set warehouse_id = coalesce(
      (select w.id from warehouse w join project_warehouse pw on pw.warehouse_id = w.id and pw.project_id = j.project_id
        where w.code = ${param('warehouse')}),
      (select min(g.warehouse_id) from user_warehouse g join project_warehouse pw on pw.warehouse_id = g.warehouse_id and pw.project_id = j.project_id
        where g.user_id = ${creator})
    )
    where j.project_id is not null
  `.execute(db);

  // Configurator SQL sees the jobs of the transaction's project only, and the parameters and runs
  // of the jobs it sees; system jobs not at all.
  const roles = sql`${sql.id(CONFIGURATOR_READ_ROLE)}, ${sql.id(CONFIGURATOR_WRITE_ROLE)}`;
  const project = sql`nullif(current_setting('wms.project_id', true), '')::bigint`;
  await sql`alter table job enable row level security`.execute(db);
  await sql`drop policy if exists configurator_scope on job`.execute(db);
  await sql`create policy configurator_scope on job for all to ${roles} using (project_id = ${project}) with check (project_id = ${project})`.execute(db);
  for (const table of ['job_param', 'job_run']) {
    await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
    await sql`drop policy if exists configurator_scope on ${sql.table(table)}`.execute(db);
    await sql`create policy configurator_scope on ${sql.table(table)} for all to ${roles} using (job_id in (select id from job)) with check (job_id in (select id from job))`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['job', 'job_param', 'job_run']) {
    await sql`drop policy if exists configurator_scope on ${sql.table(table)}`.execute(db);
    await sql`alter table ${sql.table(table)} disable row level security`.execute(db);
  }
  await sql`alter table job drop column warehouse_id`.execute(db);
  await sql`alter table job drop column project_id`.execute(db);
  await sql`alter table job_handler drop column scope`.execute(db);
}
