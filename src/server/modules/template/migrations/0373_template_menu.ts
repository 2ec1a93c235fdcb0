import { sql, type Kysely } from 'kysely';
import { addMenuEntry } from '../../../db/migrations/helpers.js';

/**
 * The /templateDesigner and /printViewFile menu entries (reports group) open the template area's
 * screens and are seen with its rights. The start-up menu sync keeps them so afterwards; this is
 * the row as a migrated database first has it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addMenuEntry(db, { code: 'templateDesigner', group: 'reports', titleKey: 'menu.templateDesigner', right: 'template.design' });
  await addMenuEntry(db, { code: 'printViewFile', group: 'reports', titleKey: 'menu.printViewFile', right: 'template.jrxml' });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sys_module where code in ('templateDesigner', 'printViewFile') and created_by = 'system'`.execute(db);
}
