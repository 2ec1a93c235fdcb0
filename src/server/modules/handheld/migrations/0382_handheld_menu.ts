import { sql, type Kysely } from 'kysely';
import { addMenuEntry } from '../../../db/migrations/helpers.js';

/**
 * The menu entries of the handheld area (inbound group, at its end): the configurations
 * (/handheldConfig), the configured handheld flow (/rfFlow) and the device sessions (/rfDevices, signed in through /api/rfUser),
 * each seen with its right. The start-up menu sync keeps them so afterwards.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addMenuEntry(db, { code: 'handheldConfig', group: 'inbound', titleKey: 'menu.handheldConfig', right: 'handheld.handheldConfig' });
  await addMenuEntry(db, { code: 'rfFlow', group: 'inbound', titleKey: 'menu.rfFlow', right: 'handheld.rfFlow' });
  await addMenuEntry(db, { code: 'rfDevices', group: 'inbound', titleKey: 'menu.rfDevices', right: 'handheld.rfDevices' });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sys_module where code in ('handheldConfig', 'rfFlow', 'rfDevices') and created_by = 'system'`.execute(db);
}
