import { sql, type Kysely } from 'kysely';
import { addIdRule, type CodeSeed, createScopedTable, dropTables, grantConfiguratorAccess, removeIdRule, removeSeededCodes, seedCodes, textColumns } from '../../../db/migrations/helpers.js';

/**
 * The container freight station (docs/cfs.md): the CFS fields of an outbound order (reference,
 * vessel, voyage, ETD, the reason it was cancelled for), the shippers' cartons scanned in against
 * an order (a carton code once per project and warehouse), and the CFS pallets they are
 * consolidated onto (numbered by the CFS_PALLET rule, with an SSCC). A carton or pallet scanned onto
 * a container names the load it went on (`load_id`, a load of the loading area, whose table is made
 * by a later migration: the CFS service checks it, no foreign key). The cancel reasons are the
 * code-master type CANCEL_REASON.
 */
const CANCEL_REASONS: CodeSeed[] = [
  ['CUSTOMER', 'Cancelled by the customer', '客户取消', '客戶取消', '고객 취소', 'ลูกค้ายกเลิก', '顧客によるキャンセル'],
  ['SHIPPER', 'Cargo not delivered by the shipper', '发货人未交货', '發貨人未交貨', '화주 미입고', 'ผู้ส่งไม่ได้ส่งสินค้า', '荷主未搬入'],
  ['VESSEL', 'Vessel or booking changed', '船期或订舱变更', '船期或訂艙變更', '선박 또는 부킹 변경', 'เปลี่ยนเรือหรือการจอง', '本船またはブッキング変更'],
  ['DOCS', 'Documents missing or wrong', '单证缺失或错误', '單證缺失或錯誤', '서류 누락 또는 오류', 'เอกสารขาดหรือผิด', '書類不備'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'cfs_order', 'project_id', 'warehouse_id')
    .addColumn('so_id', 'bigint', (col) => col.notNull().unique().references('so_header.id'))
    .$call(textColumns('reference', 'vessel', 'voyage'))
    .addColumn('etd', 'date')
    .addColumn('cancel_reason', 'text')
    .addColumn('cancel_remark', 'text')
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('cancelled_by', 'text')
    .execute();

  await createScopedTable(db, 'cfs_pallet', 'project_id', 'warehouse_id')
    .addColumn('pallet_no', 'text', (col) => col.notNull())
    .addColumn('sscc', 'text', (col) => col.notNull().unique())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open').check(sql`status in ('open', 'loaded')`))
    .addColumn('load_id', 'bigint')
    .addColumn('loaded_at', 'timestamptz')
    .addUniqueConstraint('cfs_pallet_warehouse_no_key', ['warehouse_id', 'pallet_no'])
    .execute();

  await createScopedTable(db, 'cfs_carton', 'project_id', 'warehouse_id')
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('so_id', 'bigint', (col) => col.notNull().references('so_header.id'))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('received').check(sql`status in ('received', 'packed', 'loaded')`))
    .addColumn('pallet_id', 'bigint', (col) => col.references('cfs_pallet.id'))
    .addColumn('load_id', 'bigint')
    .addColumn('received_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('loaded_at', 'timestamptz')
    .addUniqueConstraint('cfs_carton_scope_code_key', ['project_id', 'warehouse_id', 'code'])
    .execute();
  await db.schema.createIndex('cfs_carton_so_idx').on('cfs_carton').column('so_id').execute();
  await db.schema.createIndex('cfs_carton_pallet_idx').on('cfs_carton').column('pallet_id').execute();

  await grantConfiguratorAccess(db, ['cfs_order', 'cfs_pallet', 'cfs_carton'], 'read');

  await addIdRule(db, { code: 'CFS_PALLET', description: 'CFS pallet', prefix: 'CP', sequenceLength: 5 });

  await seedCodes(db, 'CANCEL_REASON', CANCEL_REASONS);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['cfs_carton', 'cfs_pallet', 'cfs_order']);
  await removeIdRule(db, 'CFS_PALLET');
  await removeSeededCodes(db, ['CANCEL_REASON']);
}
