import { sql, type Kysely } from 'kysely';
import { requiredColumns } from '../../db/migrations/helpers.js';

/**
 * Which default grants of an area (its manifest's `defaultGrants`) were given to which seeded role.
 * Recorded per right, so that a right an area adds to its default grants in a later version reaches
 * the seeded roles of a database installed before, while a right given once and revoked by an
 * administrator is never given again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('area_grant')
    .$call(requiredColumns('text', 'area', 'role_name', 'right_code'))
    .addColumn('given_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('area_grant_pkey', ['area', 'role_name', 'right_code'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('area_grant').execute();
}
