import { sql, type Kysely } from 'kysely';

/**
 * The handheld tab of /receive is the handheld runtime's receive function, whose calls need the
 * runtime's right: every role that sees the /receive menu entry (its right `<right_name>:view`,
 * by default the entry's own code) is given `handheld.rfFlow:view`. A sub-module's own rows decide
 * for it, else the module's row, as the rights check does. A role that holds some rfFlow row keeps
 * it, with view turned on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const entry = await sql<{ right_name: string | null }>`select right_name from sys_module where code = 'receive'`.execute(db);
  if (entry.rows.length === 0) return;
  const [module, subModule = null] = (entry.rows[0].right_name ?? 'receive').split('.');
  const grants = sql`(rp.can_view or rp.can_add or rp.can_edit or rp.can_delete)`;
  const roles =
    subModule === null
      ? await sql<{ role_id: number }>`
          select distinct rp.role_id from role_permission rp
           where rp.module_code = ${module} and rp.sub_module_code is null and ${grants}`.execute(db)
      : await sql<{ role_id: number }>`
          select distinct rp.role_id from role_permission rp
           where rp.module_code = ${module} and ${grants}
             and (rp.sub_module_code = ${subModule}
                  or (rp.sub_module_code is null
                      and not exists (select 1 from role_permission own
                                       where own.role_id = rp.role_id and own.module_code = ${module} and own.sub_module_code = ${subModule})))`.execute(db);
  for (const { role_id: roleId } of roles.rows) {
    await sql`
      update role_permission set can_view = true
       where role_id = ${roleId} and module_code = 'handheld' and sub_module_code = 'rfFlow'`.execute(db);
    await sql`
      insert into role_permission (role_id, module_code, sub_module_code, can_view, can_add, can_edit, can_delete)
      select ${roleId}, 'handheld', 'rfFlow', true, false, false, false
       where not exists (select 1 from role_permission where role_id = ${roleId} and module_code = 'handheld' and sub_module_code = 'rfFlow')`.execute(db);
  }
}

export async function down(): Promise<void> {
  // Roles may have been changed since: their rights stay.
}
