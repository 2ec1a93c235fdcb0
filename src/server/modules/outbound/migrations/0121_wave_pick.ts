import { sql, type Kysely } from 'kysely';
import { createScopedTable, findRoleId, grantConfiguratorAccess, grantRoleVerbs, withStockKey } from '../../../db/migrations/helpers.js';

/**
 * Waves and picking: a wave groups sales orders (so_header.wave_id holds
 * its wave number); releasing it allocates its orders and turns every allocation into a pick task.
 * The wave keeps its progress (orders, lines, quantities allocated and picked) for its list.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'wave', 'project_id', 'warehouse_id')
    .addColumn('wave_no', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('new').check(sql`status in ('new', 'released', 'partial_picked', 'picked', 'cancelled')`))
    // The filters the orders were chosen by.
    .addColumn('carrier_code', 'text')
    .addColumn('ship_date_from', 'date')
    .addColumn('ship_date_to', 'date')
    .addColumn('owner_id', 'bigint', (col) => col.references('owner.id'))
    .addColumn('zone', 'text')
    .addColumn('reference', 'text')
    .addColumn('order_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('line_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('qty', 'numeric(18, 4)', (col) => col.notNull().defaultTo(0))
    .addColumn('allocated_qty', 'numeric(18, 4)', (col) => col.notNull().defaultTo(0))
    .addColumn('picked_qty', 'numeric(18, 4)', (col) => col.notNull().defaultTo(0))
    .addColumn('released_at', 'timestamptz')
    .addUniqueConstraint('wave_wave_no_key', ['project_id', 'wave_no'])
    .execute();
  await db.schema.createIndex('wave_status_idx').on('wave').columns(['project_id', 'warehouse_id', 'status']).execute();
  await db.schema.createIndex('so_header_wave_idx').on('so_header').columns(['project_id', 'wave_id']).execute();

  await createScopedTable(db, 'pick_task', 'project_id', 'warehouse_id')
    .addColumn('wave_id', 'bigint', (col) => col.references('wave.id'))
    .addColumn('so_id', 'bigint', (col) => col.notNull().references('so_header.id').onDelete('cascade'))
    .addColumn('so_line_id', 'bigint', (col) => col.notNull().references('so_line.id').onDelete('cascade'))
    .addColumn('balance_id', 'bigint', (col) => col.notNull().references('inventory_balance.id'))
    .$call(withStockKey)
    .addColumn('zone', 'text')
    .addColumn('pick_seq', 'integer')
    .addColumn('qty', 'numeric(18, 4)', (col) => col.notNull().check(sql`qty > 0`))
    .addColumn('picked_qty', 'numeric(18, 4)', (col) => col.notNull().defaultTo(0))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open').check(sql`status in ('open', 'picked', 'short', 'cancelled')`))
    // Where the picked stock went: the pick destination location and the LPN or tote.
    .addColumn('to_location_id', 'bigint', (col) => col.references('location.id'))
    .addColumn('to_lpn', 'text')
    .addColumn('reason', 'text')
    .addColumn('picked_at', 'timestamptz')
    .addCheckConstraint('pick_task_within_qty', sql`picked_qty >= 0 and picked_qty <= qty`)
    .execute();
  await db.schema.createIndex('pick_task_wave_idx').on('pick_task').columns(['wave_id', 'status']).execute();
  await db.schema.createIndex('pick_task_so_idx').on('pick_task').columns(['so_id', 'status']).execute();
  await db.schema.createIndex('pick_task_open_idx').on('pick_task').columns(['project_id', 'warehouse_id', 'status']).execute();

  // The menu: /wave opens the shipped definition; /pick is a hand-written screen (src/common/page-routes.ts).
  await sql`update sys_module set right_name = 'outbound.wave', updated_at = now(), updated_by = 'system' where code = 'wave' and created_by = 'system'`.execute(db);

  // Supervisors release waves, operators pick (the seeded roles of migration 0052).
  const verbs: Record<string, string[]> = {
    Administrator: ['outbound.wave:release', 'outbound.pick:confirm'],
    Supervisor: ['outbound.wave:release', 'outbound.pick:confirm'],
    Operator: ['outbound.pick:confirm'],
  };
  for (const [name, codes] of Object.entries(verbs)) {
    const roleId = await findRoleId(db, name);
    if (roleId !== undefined) await grantRoleVerbs(db, roleId, codes);
  }

  await grantConfiguratorAccess(db, ['wave', 'pick_task'], 'read');
}
