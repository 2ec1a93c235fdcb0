import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenericRow, SelectionResponse } from '../../engine/schema/api.js';
import { CURRENT_SCHEMA_VERSION, type PageDefinition } from '../../engine/schema/index.js';
import { checkPageAgainstCatalog } from '../../engine/server/index.js';
import { grantConfiguratorAccess } from '../../src/server/db/migrations/helpers.js';
import { json, type TestApp } from '../helpers/app.js';
import { buildEngineFixture, engineRequests, MODULE } from './generic-engine.fixture.js';

/**
 * Foreign dropdowns a shift can use (engine/schema README, options): the label and the name shown
 * and searched together, rows narrowed by a fixed value (partners of one type) or by another field
 * of the record (the batches of the chosen owner), what a choice fills into the form, the same
 * narrowing on every write, and the codes a list shows instead of the keys it stores.
 */
function orderPage(): PageDefinition {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    moduleCode: MODULE,
    functionCode: 'order',
    titleCode: 'ORDER',
    status: 'published',
    table: { name: 'engine_order' },
    scope: 'project',
    defaultSort: [{ field: 'order_no', direction: 'asc' }],
    fields: [
      { name: 'order_no', labelCode: 'ORDER_NO', type: 'string', mandatory: true },
      {
        name: 'partner_id',
        labelCode: 'PARTNER',
        type: 'integer',
        searchable: true,
        options: {
          type: 'foreign',
          table: 'engine_partner',
          valueField: 'id',
          labelField: 'code',
          descriptionField: 'name',
          scope: 'project',
          filter: [{ column: 'kind', value: 'consignee' }],
          fill: [
            { column: 'name', field: 'ship_name' },
            { column: 'address', field: 'ship_address' },
          ],
        },
      },
      { name: 'ship_name', labelCode: 'SHIP_NAME', type: 'string' },
      { name: 'ship_address', labelCode: 'SHIP_ADDRESS', type: 'string' },
      { name: 'owner_id', labelCode: 'OWNER', type: 'integer', options: { type: 'foreign', table: 'engine_owner', valueField: 'id', labelField: 'code', scope: 'project' } },
      {
        name: 'batch_id',
        labelCode: 'BATCH',
        type: 'integer',
        triggerFields: ['owner_id'],
        options: {
          type: 'foreign',
          table: 'engine_batch',
          valueField: 'id',
          labelField: 'batch_no',
          descriptionField: 'expiry',
          scope: 'project',
          filter: [{ column: 'owner_id', field: 'owner_id' }],
        },
      },
    ],
  };
}

describe('generic engine API: foreign dropdowns', () => {
  let t: TestApp;
  let editor: string;
  let other: string;
  let projectId: number;
  let otherProjectId: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ({ t, editor, other, projectId, otherProjectId } = await buildEngineFixture());
    const db = t.database.db;
    await sql`
      create table engine_partner (
        id bigint generated always as identity primary key,
        project_id bigint not null references project(id),
        kind text not null,
        code text not null,
        name text not null,
        address text
      )
    `.execute(db);
    await sql`
      create table engine_batch (
        id bigint generated always as identity primary key,
        project_id bigint not null references project(id),
        owner_id bigint not null references engine_owner(id),
        batch_no text not null,
        expiry date
      )
    `.execute(db);
    await sql`
      create table engine_order (
        id bigint generated always as identity primary key,
        project_id bigint not null references project(id),
        order_no text not null,
        partner_id bigint,
        ship_name text,
        ship_address text,
        owner_id bigint,
        batch_id bigint,
        updated_at timestamptz not null default now()
      )
    `.execute(db);
    await grantConfiguratorAccess(db, ['engine_partner', 'engine_batch', 'engine_order'], 'write');
    await sql`insert into engine_owner (project_id, code) values (${projectId}, 'OWN-B')`.execute(db);
    await sql`
      insert into engine_partner (project_id, kind, code, name, address) values
        (${projectId}, 'consignee', 'STORE01', 'Harbour City Store', '3 Canton Road'),
        (${projectId}, 'consignee', 'STORE02', 'Mong Kok Mart', null),
        (${projectId}, 'supplier', 'SUP01', 'Harbour Plastics', '9 Factory Lane'),
        (${projectId}, 'carrier', 'DHL', 'DHL', null),
        (${otherProjectId}, 'consignee', 'STORE99', 'Harbour Secret', 'elsewhere')
    `.execute(db);
    const owners = await sql<{ id: number; code: string }>`select id, code from engine_owner`.execute(db);
    for (const owner of owners.rows) ids[owner.code] = Number(owner.id);
    await sql`
      insert into engine_batch (project_id, owner_id, batch_no, expiry) values
        (${projectId}, ${ids['OWN-A']}, 'BA-1', '2030-03-31'),
        (${projectId}, ${ids['OWN-A']}, 'BA-2', null),
        (${projectId}, ${ids['OWN-B']}, 'BB-1', '2031-01-31'),
        (${otherProjectId}, ${ids['OWN-OTHER']}, 'BO-1', null)
    `.execute(db);
    const partners = await sql<{ id: number; code: string }>`select id, code from engine_partner`.execute(db);
    for (const partner of partners.rows) ids[partner.code] = Number(partner.id);
    const batches = await sql<{ id: number; batch_no: string }>`select id, batch_no from engine_batch`.execute(db);
    for (const batch of batches.rows) ids[batch.batch_no] = Number(batch.id);
    await publish(orderPage());
  });

  afterAll(async () => {
    await t?.close();
  });

  const { call, publish } = engineRequests(() => t);

  const dropdown = async (token: string, field: string, extra: Record<string, unknown> = {}) => {
    const response = await call(token, '/api/generic/dropdown', { moduleCode: MODULE, functionCode: 'order', field, ...extra });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ options: { value: unknown; label?: string }[] }>(response).options;
  };
  const labels = async (token: string, field: string, extra: Record<string, unknown> = {}) => (await dropdown(token, field, extra)).map((o) => o.label);
  const write = (url: 'adding' | 'updating', body: Record<string, unknown>) => call(editor, `/api/generic/${url}`, { moduleCode: MODULE, functionCode: 'order', ...body });
  const problems = (response: { body: string }) => (JSON.parse(response.body) as { details?: { field: string; code: string }[] }).details?.map((d) => `${d.field}:${d.code}`) ?? [];

  it('offers only the partners of the filtered type, each as code and name', async () => {
    expect(await labels(editor, 'partner_id')).toEqual(['STORE01 - Harbour City Store', 'STORE02 - Mong Kok Mart']);
    expect(await labels(other, 'partner_id')).toEqual(['STORE99 - Harbour Secret']);
  });

  it('finds a choice by a part of its name as well as of its code', async () => {
    expect(await labels(editor, 'partner_id', { search: 'harbour' })).toEqual(['STORE01 - Harbour City Store']);
    expect(await labels(editor, 'partner_id', { search: 'store02' })).toEqual(['STORE02 - Mong Kok Mart']);
  });

  it('narrows a dropdown by the field it follows once that field has a value', async () => {
    expect(await labels(editor, 'batch_id', { record: { owner_id: ids['OWN-A'] } })).toEqual(['BA-1 - 2030-03-31', 'BA-2']);
    expect(await labels(editor, 'batch_id', { record: { owner_id: ids['OWN-B'] } })).toEqual(['BB-1 - 2031-01-31']);
    // Nothing chosen yet: the list is not narrowed (but stays within the project).
    expect(await labels(editor, 'batch_id', { record: {} })).toEqual(['BA-1 - 2030-03-31', 'BA-2', 'BB-1 - 2031-01-31']);
  });

  it('answers what a chosen consignee fills, and nothing for a row the list does not offer', async () => {
    expect(await dropdown(editor, 'partner_id', { fillFrom: ids.STORE01 })).toEqual([
      { value: 'ship_name', label: 'Harbour City Store' },
      { value: 'ship_address', label: '3 Canton Road' },
    ]);
    // A column without a value fills nothing.
    expect(await dropdown(editor, 'partner_id', { fillFrom: String(ids.STORE02) })).toEqual([{ value: 'ship_name', label: 'Mong Kok Mart' }]);
    // A supplier is no consignee, another project's consignee is no choice, and a field without fill answers nothing.
    expect(await dropdown(editor, 'partner_id', { fillFrom: ids.SUP01 })).toEqual([]);
    expect(await dropdown(editor, 'partner_id', { fillFrom: ids.STORE99 })).toEqual([]);
    expect(await dropdown(editor, 'partner_id', { fillFrom: 'not a number' })).toEqual([]);
    expect(await dropdown(editor, 'owner_id', { fillFrom: ids['OWN-A'] })).toEqual([]);
  });

  it('stores only what the dropdown would offer, following the fields it depends on', async () => {
    const refused = await write('adding', { record: { order_no: 'O-1', partner_id: ids.SUP01, owner_id: ids['OWN-A'], batch_id: ids['BB-1'] } });
    expect(refused.statusCode).toBe(400);
    expect(problems(refused).sort()).toEqual(['batch_id:FIELD_FOREIGN', 'partner_id:FIELD_FOREIGN']);

    const added = await write('adding', { record: { order_no: 'O-1', partner_id: ids.STORE01, owner_id: ids['OWN-A'], batch_id: ids['BA-1'] } });
    expect(added.statusCode, added.body).toBe(200);
    const row = json<{ row: GenericRow }>(added).row;

    // Another owner while the batch stays: the batch belongs to the old owner.
    const moved = await write('updating', { key: row._key, version: row._version, record: { owner_id: ids['OWN-B'] } });
    expect(moved.statusCode).toBe(400);
    expect(problems(moved)).toEqual(['batch_id:FIELD_FOREIGN']);

    const both = await write('updating', { key: row._key, version: row._version, record: { owner_id: ids['OWN-B'], batch_id: ids['BB-1'] } });
    expect(both.statusCode, both.body).toBe(200);
  });

  it('lists the code of each foreign value with its row, also of a value the filter no longer offers', async () => {
    // Stored before the filter existed: a supplier as the partner.
    await sql`insert into engine_order (project_id, order_no, partner_id, owner_id) values (${projectId}, 'O-0', ${ids.SUP01}, ${ids['OWN-A']})`.execute(t.database.db);
    const response = await call(editor, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'order', page: 1, pageSize: 20 });
    expect(response.statusCode, response.body).toBe(200);
    const rows = json<SelectionResponse>(response).rows;
    expect(rows.map((r) => [r.order_no, r._labels])).toEqual([
      ['O-0', { partner_id: 'SUP01', owner_id: 'OWN-A' }],
      ['O-1', { partner_id: 'STORE01', owner_id: 'OWN-B', batch_id: 'BB-1' }],
    ]);
  });

  it('refuses a definition whose dropdown names a column its table lacks', async () => {
    const page = orderPage();
    const partner = page.fields.find((f) => f.name === 'partner_id')!;
    if (partner.options?.type !== 'foreign') throw new Error('foreign dropdown expected');
    partner.options = { ...partner.options, descriptionField: 'nickname', filter: [{ column: 'type', value: 'x' }], fill: [{ column: 'street', field: 'ship_address' }] };
    const found = (await checkPageAgainstCatalog(t.database.db, page)).map((p) => p.path).sort();
    expect(found).toEqual(['/fields/1/options/descriptionField', '/fields/1/options/fill/0/column', '/fields/1/options/filter/0/column']);
  });
});
