import { sql, type Kysely } from 'kysely';
import { grantConfiguratorAccess, withIdAndAudit } from '../../../db/migrations/helpers.js';

/**
 * Waves and picking (spec sections 1, 2 and 4): a wave groups sales orders (so_header.wave_id holds
 * its wave number); releasing it allocates its orders and turns every allocation into a pick task.
 * The wave keeps its progress (orders, lines, quantities allocated and picked) for its list.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdAndAudit(db.schema.createTable('wave'))
    .addColumn('project_id', 'bigint', (col) => col.notNull().references('project.id'))
    .addColumn('warehouse_id', 'bigint', (col) => col.notNull().references('warehouse.id'))
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

  await withIdAndAudit(db.schema.createTable('pick_task'))
    .addColumn('project_id', 'bigint', (col) => col.notNull().references('project.id'))
    .addColumn('warehouse_id', 'bigint', (col) => col.notNull().references('warehouse.id'))
    .addColumn('wave_id', 'bigint', (col) => col.references('wave.id'))
    .addColumn('so_id', 'bigint', (col) => col.notNull().references('so_header.id').onDelete('cascade'))
    .addColumn('so_line_id', 'bigint', (col) => col.notNull().references('so_line.id').onDelete('cascade'))
    .addColumn('balance_id', 'bigint', (col) => col.notNull().references('inventory_balance.id'))
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('sku_id', 'bigint', (col) => col.notNull().references('sku.id'))
    .addColumn('lot_id', 'bigint', (col) => col.notNull().references('lot.id'))
    .addColumn('location_id', 'bigint', (col) => col.notNull().references('location.id'))
    .addColumn('lpn', 'text', (col) => col.notNull().defaultTo(''))
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
    const { rows } = await sql<{ id: number }>`select id from role where lower(name) = lower(${name})`.execute(db);
    const role = rows[0];
    if (!role) continue;
    for (const code of codes) {
      const [subject, verb] = code.split(':') as [string, string];
      const [module, subModule] = subject.split('.') as [string, string];
      await sql`
        insert into right_verb (code, module_code, sub_module_code, verb, label_code)
        values (${code}, ${module}, ${subModule}, ${verb}, ${code})
        on conflict (code) do nothing
      `.execute(db);
      await sql`
        insert into role_verb (role_id, right_code, created_by, updated_by)
        values (${role.id}, ${code}, 'migration', 'migration')
        on conflict (role_id, right_code) do nothing
      `.execute(db);
    }
  }

  await grantConfiguratorAccess(db, ['wave', 'pick_task'], 'read');
}
