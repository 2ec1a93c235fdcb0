import { sql, type Kysely } from 'kysely';

/**
 * Wrong sign-ins by address and account name, in the database so that the limits
 * hold across every app node: a per-address limit across account names, a lock per account and
 * address pair, and an account-wide back-off that spares addresses the owner signed in from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_failure')
    .addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('ip', 'text', (col) => col.notNull())
    .addColumn('login_account', 'text', (col) => col.notNull())
    .addColumn('at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index login_failure_ip_idx on login_failure (ip, at)`.execute(db);
  await sql`create index login_failure_account_idx on login_failure (login_account, at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_failure').execute();
}
