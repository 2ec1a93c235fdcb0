import { sql, type Kysely } from 'kysely';
import { createScopedTable, grantConfiguratorAccess } from '../../../db/migrations/helpers.js';

/**
 * The billing runs of a project in the database, so that every server sees them: one row per run
 * (route, run form or job) with the customer, bill id, who started it and when, its stage, steps
 * done of the total and percent, and how it ended. The server running it writes the row in short
 * transactions of their own as the run goes on (`heartbeat_at` is the time of its last word), so
 * another server answers its progress and refuses a second run of the customer meanwhile.
 *
 * `node` names the server (process) running it; `locked` says that the run's own transaction holds
 * the customer's advisory lock. A run still `running` whose lock is free once it had it, or that
 * gave no word for a few minutes, belongs to a server that died: it is shown as abandoned and
 * blocks nobody (docs/billing.md, "Progress").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'billing_run', 'project_id')
    .addColumn('owner_id', 'bigint', (col) => col.notNull())
    .addColumn('bill_id', 'text', (col) => col.notNull())
    .addColumn('node', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('running').check(sql`status in ('running', 'done', 'failed', 'abandoned')`))
    .addColumn('stage', 'text', (col) => col.notNull().defaultTo('start'))
    .addColumn('done', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('total', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('percent', 'integer', (col) => col.notNull().defaultTo(0).check(sql`percent between 0 and 100`))
    .addColumn('locked', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('started_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('heartbeat_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addColumn('header_id', 'bigint')
    .addColumn('error_code', 'text')
    .execute();
  await sql`create index billing_run_running_idx on billing_run (project_id, owner_id) where status = 'running'`.execute(db);
  await sql`create index billing_run_started_idx on billing_run (project_id, started_at desc)`.execute(db);
  await grantConfiguratorAccess(db, ['billing_run'], 'read');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('billing_run').ifExists().execute();
}
