import { sql, type Kysely } from 'kysely';
import { addIdRule, createScopedTable, findRoleId, grantConfiguratorAccess, removeIdRule } from '../../../db/migrations/helpers.js';

/**
 * SSCCs of cartons and pallets. A carton gets its SSCC when it is closed and keeps it (unique over
 * every carton ever made, as the SSCC sequence hands each number out once); a carrier's tracking
 * number may follow later. A pallet of a warehouse and project has its number from the PALLET
 * numbering rule, its own SSCC, a type, dimensions, a gross weight, the location it stands at and
 * an open or closed status; closed cartons of one order go onto it (`carton.pallet_id`, and the
 * pallet remembers the order its cartons belong to, as an SSCC holds no mixed orders).
 *
 * The carton management (`cmg`) and pallet pages become pages of the packing area: their menu
 * entries need the engine's rights of those pages, which the seeded roles get to see (and, for the
 * floor roles, to build pallets).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'pallet', 'project_id', 'warehouse_id')
    .addColumn('pallet_no', 'text', (col) => col.notNull())
    .addColumn('sscc', 'text', (col) => col.notNull().unique().check(sql`sscc ~ '^[0-9]{18}$'`))
    .addColumn('pallet_type', 'text')
    .addColumn('location_id', 'bigint', (col) => col.notNull().references('location.id'))
    .addColumn('so_id', 'bigint', (col) => col.references('so_header.id'))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open').check(sql`status in ('open', 'closed')`))
    .addColumn('length', 'numeric(18, 4)', (col) => col.check(sql`length >= 0`))
    .addColumn('width', 'numeric(18, 4)', (col) => col.check(sql`width >= 0`))
    .addColumn('height', 'numeric(18, 4)', (col) => col.check(sql`height >= 0`))
    .addColumn('gross_weight', 'numeric(18, 4)', (col) => col.check(sql`gross_weight >= 0`))
    .addColumn('weight_uom', 'text')
    .addColumn('closed_at', 'timestamptz')
    .addColumn('closed_by', 'text')
    .addUniqueConstraint('pallet_warehouse_no_key', ['warehouse_id', 'pallet_no'])
    .execute();

  await db.schema
    .alterTable('carton')
    .addColumn('sscc', 'text', (col) => col.unique().check(sql`sscc ~ '^[0-9]{18}$'`))
    .execute();
  await db.schema.alterTable('carton').addColumn('tracking_no', 'text').execute();
  await db.schema.alterTable('carton').addColumn('pallet_id', 'bigint', (col) => col.references('pallet.id')).execute();
  await db.schema.createIndex('carton_pallet_idx').on('carton').column('pallet_id').execute();

  await grantConfiguratorAccess(db, ['pallet'], 'read');

  await addIdRule(db, { code: 'PALLET', description: 'Pallet', prefix: 'PL', sequenceLength: 5 });

  await sql`update sys_module set right_name = 'packing.cmg' where code = 'cmg' and created_by = 'system'`.execute(db);
  await sql`update sys_module set right_name = 'packing.pallet' where code = 'pallet' and created_by = 'system'`.execute(db);

  // Everyone who works in a warehouse sees cartons and pallets; the floor roles build pallets.
  const grants: Record<string, Record<'cmg' | 'pallet', 'view' | 'edit'>> = {
    Administrator: { cmg: 'view', pallet: 'edit' },
    Supervisor: { cmg: 'view', pallet: 'edit' },
    Operator: { cmg: 'view', pallet: 'edit' },
    Configurator: { cmg: 'view', pallet: 'view' },
    'Read-only': { cmg: 'view', pallet: 'view' },
  };
  for (const [name, pages] of Object.entries(grants)) {
    const roleId = await findRoleId(db, name);
    if (roleId === undefined) continue;
    for (const [page, grant] of Object.entries(pages)) {
      const edit = grant === 'edit';
      await sql`
        insert into role_permission (role_id, module_code, sub_module_code, can_view, can_add, can_edit, can_delete)
        select ${roleId}, 'packing', ${page}, true, ${edit}, ${edit}, false
        where not exists (select 1 from role_permission where role_id = ${roleId} and module_code = 'packing' and sub_module_code = ${page})
      `.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from role_permission where module_code = 'packing' and sub_module_code in ('cmg', 'pallet')`.execute(db);
  await sql`update sys_module set right_name = null where code in ('cmg', 'pallet') and created_by = 'system'`.execute(db);
  await removeIdRule(db, 'PALLET');
  await db.schema.alterTable('carton').dropColumn('pallet_id').dropColumn('tracking_no').dropColumn('sscc').execute();
  await db.schema.dropTable('pallet').execute();
}
