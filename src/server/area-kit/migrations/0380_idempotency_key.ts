import { sql, type Kysely } from 'kysely';

/**
 * The idempotency keys of scan calls (docs/handheld.md): one row per user and key, claimed in the
 * transaction of the scan's write, with a hash of the request and the answer it got. A second call
 * with the key gets that answer and applies nothing. Kept at least a day; the job
 * `job.purgeIdempotencyKeys` removes older ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_key')
    .addColumn('user_id', 'bigint', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('request_hash', 'text', (col) => col.notNull())
    .addColumn('status', 'integer', (col) => col.notNull().defaultTo(200))
    .addColumn('response', 'jsonb')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_key_pk', ['user_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_key_created').on('idempotency_key').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_key').execute();
}
