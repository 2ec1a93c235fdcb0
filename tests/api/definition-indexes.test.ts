import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredIndexName } from '../../src/server/definitions/definition-indexes.js';
import { syncShippedDefinitions } from '../../src/server/definitions/definition-sync.js';
import { listIndexColumns } from '../../src/server/definitions/definition-index.repository.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** engine/schema/README.md, field property `indexed`: the start-up sync creates what the shipped pages declare. */
describe('indexes declared by shipped page definitions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function indexDefinition(name: string): Promise<string | undefined> {
    const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes where schemaname = current_schema() and indexname = ${name}`.execute(
      t.database.db,
    );
    return rows[0]?.indexdef;
  }

  it('creates a btree index after the scope column for each indexed field that has none', async () => {
    expect(await indexDefinition('sku_description_idx')).toMatch(/ON (public\.)?sku USING btree \(project_id, description\)/);
    expect(await indexDefinition('partner_code_idx')).toMatch(/ON (public\.)?partner USING btree \(project_id, code\)/);
    expect(await indexDefinition('partner_name_idx')).toMatch(/ON (public\.)?partner USING btree \(project_id, name\)/);
    // The location page is scoped by warehouse: its index leads with warehouse_id.
    expect(await indexDefinition('location_pick_seq_idx')).toMatch(/ON (public\.)?location USING btree \(warehouse_id, pick_seq\)/);
  });

  it('adds no second index where one already leads with the same columns', async () => {
    // sku (project_id, code) and location (warehouse_id, code) are indexed by the migrations already.
    expect(await indexDefinition('sku_code_idx')).toBeUndefined();
    expect(await indexDefinition('location_code_idx')).toBeUndefined();
    expect((await listIndexColumns(t.database.db, 'sku')).some((columns) => columns[0] === 'project_id' && columns[1] === 'code')).toBe(true);
    expect((await listIndexColumns(t.database.db, 'location')).some((columns) => columns[0] === 'warehouse_id' && columns[1] === 'code')).toBe(true);
  });

  it('creates nothing on the next start, and creates a dropped index again', async () => {
    expect((await syncShippedDefinitions(t.database.db)).indexes).toEqual([]);
    await sql`drop index ${sql.id('partner_name_idx')}`.execute(t.database.db);
    expect((await syncShippedDefinitions(t.database.db)).indexes).toEqual(['partner_name_idx']);
    expect(await indexDefinition('partner_name_idx')).toMatch(/\(project_id, name\)/);
  });

  it('names an index by table and column, within the 63 characters PostgreSQL keeps', () => {
    expect(declaredIndexName('sku', 'code')).toBe('sku_code_idx');
    const long = declaredIndexName('a_table_with_a_rather_long_name_for_a_test', 'and_a_column_with_a_long_name_too');
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).toMatch(/^a_table_with_a_rather_long_name.*_[0-9a-f]{8}_idx$/);
    expect(long).not.toBe(declaredIndexName('a_table_with_a_rather_long_name_for_a_test', 'and_a_column_with_a_long_name_too2'));
  });
});
