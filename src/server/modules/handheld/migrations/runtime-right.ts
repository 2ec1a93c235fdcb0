import { sql, type Kysely } from 'kysely';

const GRANTS = (alias: string) => sql.raw(`(${alias}.can_view or ${alias}.can_add or ${alias}.can_edit or ${alias}.can_delete)`);

/**
 * Gives `handheld.rfFlow:view` to every role that sees the menu entry `menuCode` (its right
 * `<right_name or code>:view`; a role's rows of the sub-module, when it has any, decide, else those
 * of the module, as the rights check does). A role's existing rfFlow row gets view turned on; a role
 * holding the whole handheld area already is left as it is. For screens that open the runtime.
 */
export async function grantRuntimeToMenuHolders(db: Kysely<unknown>, menuCode: string): Promise<void> {
  const { rows } = await sql<{ right_name: string | null }>`select right_name from sys_module where code = ${menuCode}`.execute(db);
  if (rows.length === 0) return;
  const [module, sub = null] = (rows[0].right_name ?? menuCode).split('.');
  const holders =
    sub === null
      ? sql`select rp.role_id from role_permission rp where rp.module_code = ${module} and rp.sub_module_code is null and ${GRANTS('rp')}`
      : sql`
          select rp.role_id from role_permission rp
          where rp.module_code = ${module} and ${GRANTS('rp')}
            and (rp.sub_module_code = ${sub}
              or (rp.sub_module_code is null and not exists (select 1 from role_permission s where s.role_id = rp.role_id and s.module_code = ${module} and s.sub_module_code = ${sub})))`;
  await sql`
    update role_permission h set can_view = true
    where h.module_code = 'handheld' and h.sub_module_code = 'rfFlow' and not h.can_view and h.role_id in (${holders})
  `.execute(db);
  await sql`
    insert into role_permission (role_id, module_code, sub_module_code, can_view, can_add, can_edit, can_delete)
    select distinct holder.role_id, 'handheld', 'rfFlow', true, false, false, false
    from (${holders}) holder
    where not exists (select 1 from role_permission h where h.role_id = holder.role_id and h.module_code = 'handheld' and h.sub_module_code = 'rfFlow')
      and not exists (select 1 from role_permission h where h.role_id = holder.role_id and h.module_code = 'handheld' and h.sub_module_code is null and ${GRANTS('h')})
  `.execute(db);
}
