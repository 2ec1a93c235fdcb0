import { sql, type Kysely } from 'kysely';
import { withIdAndAudit } from '../../../db/migrations/helpers.js';

/**
 * Right verbs: the verbs areas declare
 * (`outbound.so:allocate`), synced from the module list at start, and the verbs each role grants.
 * The location generator, an action of /loa until now behind masterdata add, gets its own verb;
 * roles that could run it keep it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('right_verb')
    .addColumn('code', 'text', (col) => col.primaryKey())
    .addColumn('module_code', 'text', (col) => col.notNull())
    .addColumn('sub_module_code', 'text')
    .addColumn('verb', 'text', (col) => col.notNull())
    .addColumn('label_code', 'text', (col) => col.notNull())
    .execute();
  await withIdAndAudit(db.schema.createTable('role_verb'))
    .addColumn('role_id', 'bigint', (col) => col.notNull().references('role.id').onDelete('cascade'))
    .addColumn('right_code', 'text', (col) => col.notNull().references('right_verb.code').onDelete('cascade').onUpdate('cascade'))
    .addUniqueConstraint('role_verb_key', ['role_id', 'right_code'])
    .execute();
  await sql`
    insert into right_verb (code, module_code, sub_module_code, verb, label_code)
    values ('masterdata.loa:generate', 'masterdata', 'loa', 'generate', 'md.verb.generateLocations')
  `.execute(db);
  await sql`
    insert into role_verb (role_id, right_code, created_by, updated_by)
    select distinct rp.role_id, 'masterdata.loa:generate', 'migration', 'migration'
    from role_permission rp
    where rp.module_code = 'masterdata' and rp.can_add and (rp.sub_module_code is null or rp.sub_module_code = 'loa')
  `.execute(db);
}
