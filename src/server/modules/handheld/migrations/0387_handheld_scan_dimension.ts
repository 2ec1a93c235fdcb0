import { sql, type Kysely } from 'kysely';

/**
 * The dimension entered in a handheld dialog is one measure or length × width × height (a carton's,
 * on pack): it is kept as entered, as text.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table handheld_scan_value alter column dimension type varchar(60) using dimension::text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table handheld_scan_value alter column dimension type numeric(18, 4) using (case when dimension ~ '^[0-9]+(\.[0-9]+)?$' then dimension::numeric end)`.execute(db);
}
