import { sql, type Kysely } from 'kysely';

/**
 * The tare of an empty pallet in kilograms, the system parameter `PALLET_TARE_KG` (globally, or one
 * row per organization on /sysparam). A pallet closed without a gross weight weighs its cartons'
 * gross weights plus this tare (docs/packing.md "Pallets"). The database keeps it a decimal of at
 * most 4 places, 0 or more, wherever it is set.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into sys_param (organization_id, param_code, param_value, description, created_by, updated_by)
    values (null, 'PALLET_TARE_KG', '25', 'Tare of an empty pallet in kilograms, added to its cartons'' gross weights when a pallet is closed without a gross weight', 'system', 'system')
    on conflict on constraint sys_param_org_code_key do nothing`.execute(db);
  await sql`alter table sys_param add constraint sys_param_pallet_tare_kg check (param_code <> 'PALLET_TARE_KG' or param_value ~ '^[0-9]{1,6}(\\.[0-9]{1,4})?$')`.execute(db);
}
