import { sql, type Kysely } from 'kysely';
import { addMenuEntry } from '../../../db/migrations/helpers.js';

/**
 * When an owner's ship notice is sent is its setting `send_on`: at packing's check-complete
 * (`check_complete`), when the order ships (`ship`), or never on its own (`never`: only when asked
 * for). It replaces `trigger_on`, whose values carry over. The settings get their page and menu
 * entry (/ediPartner, at the end of the outbound group).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table edi_partner drop constraint edi_partner_trigger_known`.execute(db);
  await sql`alter table edi_partner rename column trigger_on to send_on`.execute(db);
  await sql`update edi_partner set send_on = 'check_complete' where send_on = 'checkComplete'`.execute(db);
  await sql`alter table edi_partner add constraint edi_partner_send_on_known check (send_on in ('check_complete', 'ship', 'never'))`.execute(db);
  await addMenuEntry(db, { code: 'ediPartner', group: 'outbound', titleKey: 'menu.ediPartner', right: 'edi.ediPartner' });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table edi_partner drop constraint edi_partner_send_on_known`.execute(db);
  await sql`update edi_partner set send_on = 'checkComplete' where send_on = 'check_complete'`.execute(db);
  await sql`update edi_partner set send_on = 'ship' where send_on = 'never'`.execute(db);
  await sql`alter table edi_partner rename column send_on to trigger_on`.execute(db);
  await sql`alter table edi_partner add constraint edi_partner_trigger_known check (trigger_on in ('checkComplete', 'ship'))`.execute(db);
}
