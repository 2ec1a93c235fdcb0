import { sql, type Kysely } from 'kysely';
import { addMenuEntry } from '../../../db/migrations/helpers.js';

/**
 * The /laundry menu entry (setup group) opens the laundry administration, where devices and
 * customers are issued; seen with the laundry right (`laundry.admin:view`). The start-up menu sync
 * keeps it so afterwards; this is the row as a migrated database first has it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addMenuEntry(db, { code: 'laundry', group: 'setup', titleKey: 'menu.laundry', right: 'laundry.admin' });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sys_module where code = 'laundry' and created_by = 'system'`.execute(db);
}
