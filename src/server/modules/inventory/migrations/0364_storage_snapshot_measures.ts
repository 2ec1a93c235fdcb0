import { sql, type Kysely } from 'kysely';

/**
 * What storage tariffs charge by, kept on each storage snapshot row (docs/billing.md): the type of
 * the locations that held the stock (a row per owner x SKU x location type), the cubic metres and
 * kilograms of the SKU's measures on the day. Rows taken before keep an empty location type and get
 * their cubic metres and kilograms from the SKU's measures now.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('storage_snapshot')
    .addColumn('location_type', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('cbm', sql`numeric(18,6)`, (col) => col.notNull().defaultTo(0))
    .addColumn('weight_kg', sql`numeric(18,4)`, (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`
    update storage_snapshot ss
    set cbm = round(ss.on_hand_qty * coalesce(nullif(s.volume_cm3, 0), s.length_cm * s.width_cm * s.height_cm, 0) / 1000000, 6),
        weight_kg = round(ss.on_hand_qty * coalesce(s.gross_weight_kg, 0), 4)
    from sku s
    where s.id = ss.sku_id`.execute(db);
  await db.schema.alterTable('storage_snapshot').dropConstraint('storage_snapshot_key').execute();
  await db.schema
    .alterTable('storage_snapshot')
    .addUniqueConstraint('storage_snapshot_key', ['snapshot_date', 'warehouse_id', 'project_id', 'owner_id', 'sku_id', 'location_type'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('storage_snapshot').dropConstraint('storage_snapshot_key').execute();
  await sql`delete from storage_snapshot where location_type <> '' and id not in (select min(id) from storage_snapshot group by snapshot_date, warehouse_id, project_id, owner_id, sku_id)`.execute(db);
  await db.schema
    .alterTable('storage_snapshot')
    .addUniqueConstraint('storage_snapshot_key', ['snapshot_date', 'warehouse_id', 'project_id', 'owner_id', 'sku_id'])
    .execute();
  await db.schema.alterTable('storage_snapshot').dropColumn('location_type').dropColumn('cbm').dropColumn('weight_kg').execute();
}
