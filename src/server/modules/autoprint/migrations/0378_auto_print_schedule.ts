import { sql, type Kysely } from 'kysely';

/** The job class that prints the schedule rules, and its job: every minute, on every installation. */
export const SCHEDULE_HANDLER = 'autoprint.printScheduled';
const SCHEDULE_JOB = 'Auto print on schedule';

/**
 * Auto print on a schedule (docs/printing.md "Auto print"): a rule of the event `schedule` prints a
 * report of its project through its template at each time of its cron expression. The rule keeps
 * the last time it printed for (`last_tick`), so that a time prints once however often it is looked
 * at. The system job "Auto print on schedule" looks every minute for the rules that are due; it is
 * made here, active, so that a schedule rule prints without anything else to set up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table auto_print_rule drop constraint if exists auto_print_rule_event_check`.execute(db);
  await sql`alter table auto_print_rule add constraint auto_print_rule_event_check check (event in ('packing.checkCompleted', 'loading.shipped', 'schedule'))`.execute(db);
  await sql`alter table auto_print_rule add column cron_expression text`.execute(db);
  await sql`alter table auto_print_rule add column report_id bigint references report_definition (id) on delete set null`.execute(db);
  await sql`alter table auto_print_rule add column last_tick timestamptz`.execute(db);
  await sql`alter table auto_print_rule add constraint auto_print_rule_schedule check (event <> 'schedule' or cron_expression is not null)`.execute(db);
  await sql`create index auto_print_rule_schedule on auto_print_rule (id) where active and event = 'schedule'`.execute(db);

  await sql`insert into job_handler (name, area, available, scope) values (${SCHEDULE_HANDLER}, 'autoprint', true, 'system') on conflict (name) do nothing`.execute(db);
  await sql`
    insert into job (name, handler, remark, type, status, cron_expression, business_type, retry_limit, retry_delay_seconds, created_by, updated_by)
    values (${SCHEDULE_JOB}, ${SCHEDULE_HANDLER}, 'Prints the auto print rules of the event schedule that are due', 'timer', 'active', '0 * * * * ?', 'PRINT', 0, 30, 'system', 'system')
    on conflict (name) do nothing
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from job where name = ${SCHEDULE_JOB} and handler = ${SCHEDULE_HANDLER}`.execute(db);
  await sql`delete from auto_print_rule where event = 'schedule'`.execute(db);
  await sql`drop index if exists auto_print_rule_schedule`.execute(db);
  await sql`alter table auto_print_rule drop constraint if exists auto_print_rule_schedule`.execute(db);
  await sql`alter table auto_print_rule drop column last_tick`.execute(db);
  await sql`alter table auto_print_rule drop column report_id`.execute(db);
  await sql`alter table auto_print_rule drop column cron_expression`.execute(db);
  await sql`alter table auto_print_rule drop constraint if exists auto_print_rule_event_check`.execute(db);
  await sql`alter table auto_print_rule add constraint auto_print_rule_event_check check (event in ('packing.checkCompleted', 'loading.shipped'))`.execute(db);
}
