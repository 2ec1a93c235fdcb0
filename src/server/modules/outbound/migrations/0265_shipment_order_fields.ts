import type { Kysely } from 'kysely';

/**
 * What a shipment order must say before it can go to a parcel carrier: its shipment reference, the
 * expected delivery date, the carrier's gateway, service and service provider, and whether the goods
 * hold batteries. Existing rows keep them empty until they are next saved.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('shipment_order')
    .addColumn('shipment_reference', 'text')
    .addColumn('expected_delivery_date', 'date')
    .addColumn('gateway', 'text')
    .addColumn('service', 'text')
    .addColumn('service_provider', 'text')
    .addColumn('battery', 'text')
    .execute();
}
