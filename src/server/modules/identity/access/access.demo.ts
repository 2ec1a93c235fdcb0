import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { DemoDataProvider } from '../../area.js';

/**
 * The identity area's part of the demonstration data: the warehouses. The seeded WH1 gets an
 * address and WH2 is new; both serve the first project. It runs before the master data part (the
 * module list puts identity first), which fills these warehouses, by code, with locations.
 */
const BY = 'demo';

export const DEMO_WAREHOUSES = [
  { code: 'WH1', name: 'Main warehouse', city: 'Hong Kong', address1: '18 Container Port Road' },
  { code: 'WH2', name: 'Kwai Chung distribution centre', city: 'Hong Kong', address1: '3 Container Port Road' },
] as const;

export const identityDemo: DemoDataProvider = {
  load: async (trx, { organizationId, projectId }) => {
    await insertDemoWarehouses(trx, organizationId, projectId);
    return {};
  },
};

async function insertDemoWarehouses(trx: Transaction<DB>, organizationId: number, projectId: number): Promise<void> {
  const warehouseIds: number[] = [];
  for (const w of DEMO_WAREHOUSES) {
    const existing = await trx.selectFrom('warehouse').select('id').where('code', '=', w.code).executeTakeFirst();
    const address = { city: w.city, country: 'HK', address1: w.address1, time_zone: 'Asia/Hong_Kong' };
    if (existing) {
      await trx.updateTable('warehouse').set({ ...address, updated_by: BY, updated_at: new Date() }).where('id', '=', existing.id).execute();
      warehouseIds.push(existing.id);
    } else {
      const row = await trx
        .insertInto('warehouse')
        .values({ organization_id: organizationId, code: w.code, name: w.name, nav_layout: null, ...address, created_by: BY, updated_by: BY })
        .returning('id')
        .executeTakeFirstOrThrow();
      warehouseIds.push(row.id);
    }
  }
  await trx
    .insertInto('project_warehouse')
    .values(warehouseIds.map((warehouse_id) => ({ project_id: projectId, warehouse_id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}
