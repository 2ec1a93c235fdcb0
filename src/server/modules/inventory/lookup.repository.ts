import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Look-ups of the operation screens: locations and SKUs by the start of their code (at most 20). */

function startsWith(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * What a look-up answers: the rows whose code `column` starts with `text` (its LIKE wildcards taken
 * literally), by code, at most 20.
 */
function firstByCode<QueryDB, Tables extends keyof QueryDB, Output>(query: SelectQueryBuilder<QueryDB, Tables, Output>, column: string, text: string): SelectQueryBuilder<QueryDB, Tables, Output> {
  // The column is a plain string, which Kysely's builder cannot follow: the clauses are added on an untyped builder.
  const untyped = query as unknown as SelectQueryBuilder<Record<string, Record<string, unknown>>, string, Output>;
  return untyped.where(column, 'like', startsWith(text)).orderBy(column).limit(20) as unknown as SelectQueryBuilder<QueryDB, Tables, Output>;
}

export async function lookupLocations(db: Kysely<DB>, warehouseId: number, code: string) {
  return db
    .selectFrom('location')
    .select(['id', 'code', 'description', 'location_type', 'zone', 'status'])
    .where('warehouse_id', '=', warehouseId)
    .$call((q) => firstByCode(q, 'code', code))
    .execute();
}

export async function lookupSkus(db: Kysely<DB>, projectId: number, code: string) {
  return db
    .selectFrom('sku as s')
    .innerJoin('owner as o', 'o.id', 's.owner_id')
    .select(['s.id', 's.code', 's.description', 's.base_uom', 'o.id as owner_id', 'o.code as owner_code'])
    .where('s.project_id', '=', projectId)
    .$call((q) => firstByCode(q, 's.code', code))
    .execute();
}
