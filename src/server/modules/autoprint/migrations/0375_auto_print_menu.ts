import { sql, type Kysely } from 'kysely';
import { addMenuEntry } from '../../../db/migrations/helpers.js';

/**
 * The /autoPrint menu entry (reports group, after the Jasper files) opens the auto print
 * rules' screen and is seen with the right `autoprint.rule`. The start-up menu sync keeps it so
 * afterwards; this is the row as a migrated database first has it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addMenuEntry(db, { code: 'autoPrint', group: 'reports', titleKey: 'menu.autoPrint', right: 'autoprint.rule' });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sys_module where code = 'autoPrint' and created_by = 'system'`.execute(db);
}
