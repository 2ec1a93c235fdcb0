import { sql, type Kysely } from 'kysely';
import { addIdRule, createScopedTable, dropTables, grantConfiguratorAccess, removeIdRule, requiredColumns, withIdAndAudit } from '../../../db/migrations/helpers.js';

/**
 * Resource planning (docs/resplan.md). Per warehouse: its shifts (code, name, start and end time,
 * days of the week) with the labour and equipment each has per activity, the rate of each activity
 * (units per labour hour, the equipment kind it needs and units per equipment hour), and resource
 * plans of a date and shift (numbered by the RES_PLAN rule), draft or confirmed, with one line per
 * activity: the open work counted, the hours it needs and the hours the shift has for it.
 */
const ACTIVITY = sql`activity in ('receiving', 'putaway', 'picking', 'packing', 'loading')`;
const EQUIPMENT = sql`equipment_kind is null or equipment_kind in ('forklift', 'reachTruck', 'palletJack', 'rfGun')`;
const HHMM = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'resplan_shift', 'warehouse_id')
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('start_time', 'text', (col) => col.notNull().check(sql`start_time ~ ${sql.lit(HHMM)}`))
    .addColumn('end_time', 'text', (col) => col.notNull().check(sql`end_time ~ ${sql.lit(HHMM)}`))
    .addColumn('days_of_week', 'text', (col) => col.notNull().check(sql`days_of_week ~ '^[1-7]{1,7}$'`))
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addUniqueConstraint('resplan_shift_warehouse_code_key', ['warehouse_id', 'code'])
    .execute();

  await withIdAndAudit(db.schema.createTable('resplan_shift_resource'))
    .addColumn('shift_id', 'bigint', (col) => col.notNull().references('resplan_shift.id').onDelete('cascade'))
    .addColumn('activity', 'text', (col) => col.notNull().check(ACTIVITY))
    .addColumn('headcount', 'integer', (col) => col.notNull().check(sql`headcount >= 0`))
    .addColumn('hours_per_head', 'numeric', (col) => col.notNull().check(sql`hours_per_head >= 0 and hours_per_head <= 24`))
    .addColumn('equipment_count', 'integer', (col) => col.notNull().defaultTo(0).check(sql`equipment_count >= 0`))
    .addUniqueConstraint('resplan_shift_resource_activity_key', ['shift_id', 'activity'])
    .execute();

  await createScopedTable(db, 'resplan_rate', 'warehouse_id')
    .addColumn('activity', 'text', (col) => col.notNull().check(ACTIVITY))
    .addColumn('units_per_labour_hour', 'numeric', (col) => col.notNull().check(sql`units_per_labour_hour > 0`))
    .addColumn('equipment_kind', 'text', (col) => col.check(EQUIPMENT))
    .addColumn('units_per_equipment_hour', 'numeric', (col) => col.check(sql`units_per_equipment_hour > 0`))
    .addUniqueConstraint('resplan_rate_warehouse_activity_key', ['warehouse_id', 'activity'])
    .addCheckConstraint('resplan_rate_equipment_check', sql`(equipment_kind is null) = (units_per_equipment_hour is null)`)
    .execute();

  await createScopedTable(db, 'resplan_header', 'warehouse_id')
    .addColumn('plan_no', 'text', (col) => col.notNull())
    .addColumn('plan_date', 'date', (col) => col.notNull())
    .addColumn('shift_id', 'bigint', (col) => col.notNull().references('resplan_shift.id'))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('draft').check(sql`status in ('draft', 'confirmed')`))
    .addColumn('remark', 'text')
    .addColumn('required_labour_hours', 'numeric')
    .addColumn('available_labour_hours', 'numeric')
    .addColumn('over_capacity', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('calculated_at', 'timestamptz')
    .addColumn('calculated_by', 'text')
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('confirmed_by', 'text')
    .addUniqueConstraint('resplan_header_warehouse_no_key', ['warehouse_id', 'plan_no'])
    .execute();
  await db.schema.createIndex('resplan_header_warehouse_date_idx').on('resplan_header').columns(['warehouse_id', 'plan_date']).execute();
  await db.schema.createIndex('resplan_header_shift_idx').on('resplan_header').column('shift_id').execute();

  await withIdAndAudit(db.schema.createTable('resplan_line'))
    .addColumn('plan_id', 'bigint', (col) => col.notNull().references('resplan_header.id').onDelete('cascade'))
    .addColumn('line_no', 'integer', (col) => col.notNull())
    .addColumn('activity', 'text', (col) => col.notNull().check(ACTIVITY))
    .addColumn('open_qty', 'numeric', (col) => col.notNull())
    .addColumn('units_per_labour_hour', 'numeric')
    .addColumn('labour_hours', 'numeric', (col) => col.notNull())
    .addColumn('equipment_kind', 'text', (col) => col.check(EQUIPMENT))
    .addColumn('units_per_equipment_hour', 'numeric')
    .addColumn('equipment_hours', 'numeric', (col) => col.notNull())
    .addColumn('headcount', 'integer', (col) => col.notNull())
    .addColumn('hours_per_head', 'numeric', (col) => col.notNull())
    .addColumn('equipment_count', 'integer', (col) => col.notNull())
    .$call(requiredColumns('numeric', 'available_labour_hours', 'available_equipment_hours', 'labour_gap', 'equipment_gap'))
    .addColumn('over_capacity', 'boolean', (col) => col.notNull())
    .addUniqueConstraint('resplan_line_plan_activity_key', ['plan_id', 'activity'])
    .execute();

  await grantConfiguratorAccess(db, ['resplan_shift', 'resplan_rate', 'resplan_header'], 'read');
  await grantConfiguratorAccess(db, ['resplan_shift_resource'], 'read', { through: { column: 'shift_id', table: 'resplan_shift' } });
  await grantConfiguratorAccess(db, ['resplan_line'], 'read', { through: { column: 'plan_id', table: 'resplan_header' } });

  await addIdRule(db, { code: 'RES_PLAN', description: 'Resource plan', prefix: 'RP', sequenceLength: 4 });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['resplan_line', 'resplan_header', 'resplan_rate', 'resplan_shift_resource', 'resplan_shift']);
  await removeIdRule(db, 'RES_PLAN');
}
