import { sql, type Kysely } from 'kysely';

/**
 * Which areas this database has installed, and when: an area's default grants (its manifest's
 * `defaultGrants`) are given to the seeded roles once, at the first start that finds the area, and
 * never again, so a right an administrator revoked stays revoked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('area_installation')
    .addColumn('area', 'text', (col) => col.primaryKey())
    .addColumn('installed_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('area_installation').execute();
}
