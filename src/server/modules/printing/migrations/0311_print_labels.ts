import { sql, type Kysely } from 'kysely';
import { addMenuEntry, findRoleId, grantRoleVerbs } from '../../../db/migrations/helpers.js';

/**
 * Printers marked for automatic carton labels, at most one per warehouse; the print queue's own
 * page right `printing.printJob` (view the queue, and the verb `print` to send, retry and reprint),
 * separate from configuring printers; its menu entry after the printers; the seeded Administrator
 * and Supervisor roles may use it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table printer add column auto_print_labels boolean not null default false`.execute(db);
  await sql`create unique index printer_auto_print_labels_key on printer (warehouse_id) where auto_print_labels`.execute(db);

  await addMenuEntry(db, { code: 'printJob', group: 'setup', titleKey: 'menu.printJob', right: 'printing.printJob' });

  for (const name of ['Administrator', 'Supervisor']) {
    const roleId = await findRoleId(db, name);
    if (roleId === undefined) continue;
    await sql`
      insert into role_permission (role_id, module_code, sub_module_code, can_view, can_add, can_edit, can_delete)
      select ${roleId}, 'printing', 'printJob', true, false, false, false
       where not exists (select 1 from role_permission where role_id = ${roleId} and module_code = 'printing' and sub_module_code = 'printJob')`.execute(db);
    await grantRoleVerbs(db, roleId, ['printing.printJob:print']);
  }
}
