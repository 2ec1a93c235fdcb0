import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Look-ups of the operation screens: locations and SKUs by the start of their code (at most 20). */

function startsWith(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function lookupLocations(db: Kysely<DB>, warehouseId: number, code: string) {
  return db
    .selectFrom('location')
    .select(['id', 'code', 'description', 'location_type', 'zone', 'status'])
    .where('warehouse_id', '=', warehouseId)
    .where('code', 'like', startsWith(code))
    .orderBy('code')
    .limit(20)
    .execute();
}

export async function lookupSkus(db: Kysely<DB>, projectId: number, code: string) {
  return db
    .selectFrom('sku as s')
    .innerJoin('owner as o', 'o.id', 's.owner_id')
    .select(['s.id', 's.code', 's.description', 's.base_uom', 'o.id as owner_id', 'o.code as owner_code'])
    .where('s.project_id', '=', projectId)
    .where('s.code', 'like', startsWith(code))
    .orderBy('s.code')
    .limit(20)
    .execute();
}
