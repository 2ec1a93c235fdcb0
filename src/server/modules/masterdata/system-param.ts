import type { Db } from '../../db/schema.js';

/**
 * A system parameter's value for a warehouse: the row of the warehouse's organization before the
 * global one (no organization); null when unset or blank.
 */
export async function warehouseParam(db: Db, warehouseId: number, code: string): Promise<string | null> {
  const rows = await db
    .selectFrom('sys_param')
    .select(['organization_id', 'param_value'])
    .where('param_code', '=', code)
    .where((eb) => eb.or([eb('organization_id', 'is', null), eb('organization_id', '=', eb.selectFrom('warehouse').select('organization_id').where('id', '=', warehouseId))]))
    .execute();
  const value = (rows.find((r) => r.organization_id !== null) ?? rows[0])?.param_value?.trim();
  return value ? value : null;
}
