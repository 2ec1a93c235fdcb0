import { sql, type Kysely } from 'kysely';
import { grantConfiguratorAccess, withIdAndAudit } from '../../../db/migrations/helpers.js';

/**
 * Scheduled jobs and timers (name, class, remark, type, params name/value/seq,
 * status, expression, business type, start time, action no), the job handlers the areas bring
 * (synced at every start) and the run history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The handlers the application's areas declare (`jobs` of their manifests), kept equal to the code at start.
  await db.schema
    .createTable('job_handler')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('area', 'text', (col) => col.notNull())
    .addColumn('available', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute();

  await withIdAndAudit(
    db.schema
      .createTable('job')
      .addColumn('name', 'text', (col) => col.notNull().unique())
      .addColumn('handler', 'text', (col) => col.notNull().references('job_handler.name'))
      .addColumn('remark', 'text')
      .addColumn('type', 'text', (col) => col.notNull().defaultTo('job').check(sql`type in ('job', 'timer')`))
      .addColumn('status', 'text', (col) => col.notNull().defaultTo('inactive').check(sql`status in ('active', 'inactive')`))
      .addColumn('cron_expression', 'text', (col) => col.notNull())
      .addColumn('business_type', 'text', (col) => col.notNull())
      .addColumn('start_time', 'timestamptz')
      .addColumn('action_no', 'text')
      .addColumn('retry_limit', 'integer', (col) => col.notNull().defaultTo(2).check(sql`retry_limit between 0 and 10`))
      .addColumn('retry_delay_seconds', 'integer', (col) => col.notNull().defaultTo(30).check(sql`retry_delay_seconds between 1 and 86400`)),
  ).execute();

  await withIdAndAudit(
    db.schema
      .createTable('job_param')
      .addColumn('job_id', 'bigint', (col) => col.notNull().references('job.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('value', 'text')
      .addColumn('seq', 'integer', (col) => col.notNull().defaultTo(1))
      .addUniqueConstraint('job_param_job_name', ['job_id', 'name']),
  ).execute();

  // One row per run: a tick of the schedule (claimed once across every app node by the unique
  // index on job and tick) or a manual "run now"; attempts, outcome and log.
  await db.schema
    .createTable('job_run')
    .addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('job_id', 'bigint', (col) => col.notNull().references('job.id').onDelete('cascade'))
    .addColumn('trigger', 'text', (col) => col.notNull().check(sql`trigger in ('schedule', 'manual')`))
    .addColumn('scheduled_for', 'timestamptz', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('queued').check(sql`status in ('queued', 'running', 'retrying', 'succeeded', 'failed', 'skipped')`),
    )
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('enqueued_at', 'timestamptz')
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('heartbeat_at', 'timestamptz')
    .addColumn('node', 'text')
    .addColumn('log', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('error', 'text')
    .addColumn('requested_by', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index job_run_one_per_tick on job_run (job_id, scheduled_for) where trigger = 'schedule'`.execute(db);
  // Never two runs of one job at once, whichever node runs them (issue: "never two at once across app nodes").
  await sql`create unique index job_run_one_running on job_run (job_id) where status = 'running'`.execute(db);
  await sql`create index job_run_job_created on job_run (job_id, id desc)`.execute(db);
  await sql`create index job_run_pending on job_run (next_attempt_at) where status in ('queued', 'retrying') and enqueued_at is null`.execute(db);

  // /job and /timer are now served by definitions/job: their menu entries need those pages' rights.
  for (const screen of ['job', 'timer']) {
    await sql`update sys_module set right_name = ${`job.${screen}`} where code = ${screen}`.execute(db);
  }

  await grantConfiguratorAccess(db, ['job', 'job_param'], 'write');
  await grantConfiguratorAccess(db, ['job_run', 'job_handler'], 'read');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update sys_module set right_name = null where code in ('job', 'timer')`.execute(db);
  for (const table of ['job_run', 'job_param', 'job', 'job_handler']) await db.schema.dropTable(table).execute();
}
