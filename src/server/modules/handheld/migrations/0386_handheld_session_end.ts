import { sql, type Kysely } from 'kysely';

/**
 * Why a device session ended: `supervisor` when a supervisor ended it on /rfDevices (the device's
 * next scan is refused and it signs in again); empty when the user signed out or signed in again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table handheld_device_session add column ended_reason text check (ended_reason in ('supervisor'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table handheld_device_session drop column ended_reason`.execute(db);
}
