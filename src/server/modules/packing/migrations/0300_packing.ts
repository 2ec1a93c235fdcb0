import { sql, type Kysely } from 'kysely';
import { type CodeSeed, createScopedTable, dropTables, grantConfiguratorAccess, removeSeededCodes, seedCodes, withIdAndAudit } from '../../../db/migrations/helpers.js';

/**
 * Packing: the cartons an order is packed into and what each holds. A carton's number is unique in
 * its warehouse; its lines say which order line, SKU and lot went in and from which location and
 * licence plate the picked stock came, so that taking it out puts it back there. Carton types are
 * a code-master type of their own (CARTON_TYPE), seeded with a small, medium and large box; the
 * units a carton's weight is given in are the type WEIGHT_UOM (kilogram, gram, pound).
 */
const CARTON_TYPES: CodeSeed[] = [
  ['S', 'Small carton', '小号纸箱', '小號紙箱', '소형 상자', 'กล่องเล็ก', '小箱'],
  ['M', 'Medium carton', '中号纸箱', '中號紙箱', '중형 상자', 'กล่องกลาง', '中箱'],
  ['L', 'Large carton', '大号纸箱', '大號紙箱', '대형 상자', 'กล่องใหญ่', '大箱'],
];

/** The units a carton's weight may be given in. */
const WEIGHT_UNITS: CodeSeed[] = [
  ['KG', 'Kilogram', '千克', '公斤', '킬로그램', 'กิโลกรัม', 'キログラム'],
  ['G', 'Gram', '克', '公克', '그램', 'กรัม', 'グラム'],
  ['LB', 'Pound', '磅', '磅', '파운드', 'ปอนด์', 'ポンド'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'carton', 'project_id', 'warehouse_id')
    .addColumn('so_id', 'bigint', (col) => col.notNull().references('so_header.id'))
    .addColumn('carton_no', 'text', (col) => col.notNull())
    .addColumn('carton_type', 'text')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open').check(sql`status in ('open', 'closed')`))
    .addColumn('gross_weight', 'numeric(18, 4)', (col) => col.check(sql`gross_weight >= 0`))
    .addColumn('net_weight', 'numeric(18, 4)', (col) => col.check(sql`net_weight >= 0`))
    .addColumn('weight_uom', 'text')
    .addColumn('length', 'numeric(18, 4)', (col) => col.check(sql`length >= 0`))
    .addColumn('width', 'numeric(18, 4)', (col) => col.check(sql`width >= 0`))
    .addColumn('height', 'numeric(18, 4)', (col) => col.check(sql`height >= 0`))
    .addColumn('closed_at', 'timestamptz')
    .addColumn('closed_by', 'text')
    .addUniqueConstraint('carton_warehouse_no_key', ['warehouse_id', 'carton_no'])
    .execute();
  await db.schema.createIndex('carton_so_idx').on('carton').column('so_id').execute();

  await withIdAndAudit(db.schema.createTable('carton_line'))
    .addColumn('carton_id', 'bigint', (col) => col.notNull().references('carton.id').onDelete('cascade'))
    .addColumn('so_line_id', 'bigint', (col) => col.notNull().references('so_line.id'))
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('sku_id', 'bigint', (col) => col.notNull().references('sku.id'))
    .addColumn('lot_id', 'bigint', (col) => col.notNull().references('lot.id'))
    .addColumn('from_location_id', 'bigint', (col) => col.notNull().references('location.id'))
    .addColumn('from_lpn', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('qty', 'numeric(18, 4)', (col) => col.notNull().check(sql`qty > 0`))
    .addUniqueConstraint('carton_line_source_key', ['carton_id', 'so_line_id', 'lot_id', 'from_location_id', 'from_lpn'])
    .execute();
  await db.schema.createIndex('carton_line_so_line_idx').on('carton_line').column('so_line_id').execute();

  await grantConfiguratorAccess(db, ['carton'], 'read');
  await grantConfiguratorAccess(db, ['carton_line'], 'read', { through: { column: 'carton_id', table: 'carton' } });

  await seedCodes(db, 'CARTON_TYPE', CARTON_TYPES);
  await seedCodes(db, 'WEIGHT_UOM', WEIGHT_UNITS);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['carton_line', 'carton']);
  await removeSeededCodes(db, ['CARTON_TYPE', 'WEIGHT_UOM']);
}
