import { sql, type Kysely } from 'kysely';

/**
 * The addresses each account has signed in from (password and, when asked, the second step), kept
 * apart from the sessions so that they outlive them: a right password from such an address is let
 * in whatever strangers did from it or elsewhere (README, "Sign-in protection"). Filled at once
 * from the sessions still on file.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_known_address')
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('ip', 'text', (col) => col.notNull())
    .addColumn('first_seen_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('user_known_address_pkey', ['user_id', 'ip'])
    .execute();
  await sql`
    insert into user_known_address (user_id, ip, first_seen_at, last_seen_at)
    select user_id, ip, min(created_at), max(coalesce(last_seen_at, created_at))
    from user_session where ip is not null
    group by user_id, ip
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_known_address').execute();
}
