import { sql, type Kysely } from 'kysely';

/**
 * The /tmsOrder and /doOrders menu entries (transport group, made by migration 0003 without a
 * right) are seen with the transport area's rights: the delivery order page's and the route
 * planner's. The start-up menu sync keeps them so afterwards; this is the row as a migrated
 * database first has it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update sys_module set right_name = 'transport.tmsOrder' where code = 'tmsOrder' and created_by = 'system'`.execute(db);
  await sql`update sys_module set right_name = 'transport.doOrders' where code = 'doOrders' and created_by = 'system'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update sys_module set right_name = null where code in ('tmsOrder', 'doOrders') and created_by = 'system'`.execute(db);
}
