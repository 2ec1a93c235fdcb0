import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { AreaModule } from '../area-kit/area.js';
import { inTransaction } from '../db/transaction.js';

/**
 * Demonstration data (DEMO_DATA): each area contributes its part through its module
 * (`demoData`), and the parts run in the order of the module list, in one transaction.
 *
 * Loaded on the first start unless DEMO_DATA=false, and only once: a global system parameter marks
 * the database as loaded, and an advisory lock keeps two nodes that start together from both
 * loading it.
 */
export const DEMO_MARKER = 'DEMO_DATA_LOADED';

export interface DemoDataResult {
  /** False when the database had its demo data already (or has no seeded organization). */
  loaded: boolean;
  milliseconds: number;
  counts: Record<string, number>;
}

/** Loads the areas' demo data unless the database has it already; answers what it did and how long it took. */
export async function loadDemoData(db: Kysely<DB>, modules: readonly AreaModule[]): Promise<DemoDataResult> {
  const started = performance.now();
  const counts = await inTransaction(db, async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('wms.demo-data'))`.execute(trx);
    const marker = await trx
      .selectFrom('sys_param')
      .select('id')
      .where('organization_id', 'is', null)
      .where('param_code', '=', DEMO_MARKER)
      .executeTakeFirst();
    if (marker) return undefined;
    const organization = await trx.selectFrom('organization').select('id').orderBy('id').executeTakeFirst();
    const project = await trx.selectFrom('project').select('id').orderBy('id').executeTakeFirst();
    if (!organization || !project) return undefined;
    const inserted: Record<string, number> = {};
    for (const module of modules) {
      if (module.demoData) Object.assign(inserted, await module.demoData.load(trx, { organizationId: organization.id, projectId: project.id }));
    }
    await trx
      .insertInto('sys_param')
      .values({ organization_id: null, param_code: DEMO_MARKER, param_value: new Date().toISOString(), description: 'Demo data was loaded at this time', created_by: 'demo', updated_by: 'demo' })
      .onConflict((oc) => oc.columns(['organization_id', 'param_code']).doNothing())
      .execute();
    return inserted;
  });
  return { loaded: counts !== undefined, milliseconds: Math.round(performance.now() - started), counts: counts ?? {} };
}
