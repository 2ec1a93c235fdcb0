import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenericRow, SelectionResponse } from '../../engine/schema/api.js';
import { createUser, json, type TestApp } from '../helpers/app.js';
import { buildEngineFixture, codes, engineRequests, MODULE } from './generic-engine.fixture.js';

const ATTACKS = [
  "' or 1=1 --",
  '"; drop table engine_item; --',
  '1); delete from engine_item; --',
  "x'); drop table engine_item; --",
  'name; drop table engine_item',
  'id desc; drop table engine_item',
  '$1',
  ':projectId',
  '\\',
  '%_%',
];

/**
 * Who may reach what through the generic engine API (part 3): the module and sub-module
 * rights of every verb, the project scope, and SQL injection through every part of every request.
 * The fixture is in generic-engine.fixture.ts.
 */
describe('generic engine API: rights and injection', () => {
  let t: TestApp;
  let editor: string;
  let viewer: string;
  let other: string;

  beforeAll(async () => {
    ({ t, editor, viewer, other } = await buildEngineFixture());
  });

  afterAll(async () => {
    await t?.close();
  });

  const { call, select, add, tableCount } = engineRequests(() => t);

  describe('rights', () => {
    it('refuses adding, updating, deletion and import without the right, but lets the viewer read', async () => {
      const [row] = (await select(viewer)).rows;
      const attempts = [
        await add(viewer, { code: 'V-001' }),
        await call(viewer, '/api/generic/updating', { moduleCode: MODULE, functionCode: 'item', key: row._key, version: row._version, record: { name: 'x' } }),
        await call(viewer, '/api/generic/deletion', { moduleCode: MODULE, functionCode: 'item', rows: [{ key: row._key, version: row._version }] }),
        await call(viewer, '/api/generic/behavior', { moduleCode: MODULE, functionCode: 'item', behaviour: 'deactivate', keys: [row._key] }),
      ];
      for (const response of attempts) {
        expect(response.statusCode, response.body).toBe(403);
        expect(json<{ code: string }>(response).code).toBe('FORBIDDEN');
      }
    });

    it('applies the sub-module rights of a page before the module rights', async () => {
      // The page's own sub-module rows decide for it: view only, though the module grants edit.
      const limited = await createUser(t, { loginAccount: 'limited', rights: [`${MODULE}:edit`, `${MODULE}.item:view`], projectCodes: ['PRJ1'] });
      const [row] = (await select(limited)).rows;
      const edit = await call(limited, '/api/generic/updating', { moduleCode: MODULE, functionCode: 'item', key: row._key, version: row._version, record: { name: 'x' } });
      expect(edit.statusCode).toBe(403);
      const lineOnly = await createUser(t, { loginAccount: 'lineonly', rights: [`${MODULE}.line:view`], projectCodes: ['PRJ1'] });
      expect((await call(lineOnly, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'item', page: 1, pageSize: 10 })).statusCode).toBe(403);
      expect((await call(lineOnly, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'line', page: 1, pageSize: 10 })).statusCode).toBe(200);
    });

    it('refuses a user without any right on the module and a call without a session', async () => {
      const stranger = await createUser(t, { loginAccount: 'stranger', rights: ['othermodule:view'], projectCodes: ['PRJ1'] });
      const response = await call(stranger, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'item', page: 1, pageSize: 10 });
      expect(response.statusCode).toBe(403);
      const anonymous = await t.app.inject({ method: 'POST', url: '/api/generic/selection', payload: { moduleCode: MODULE, functionCode: 'item', page: 1, pageSize: 10 } });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('SQL injection', () => {
    it.each(ATTACKS)('binds %j harmlessly in values, conditions, sorts, field names and keys', async (attack) => {
      const before = await tableCount();
      const responses = [
        await add(editor, { code: attack.slice(0, 10), name: attack.slice(0, 20), note: attack }),
        await add(editor, { [attack]: 'x', code: 'INJ' }),
        await call(editor, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'item', page: 1, pageSize: 10, conditions: { combinator: 'and', rules: [{ field: 'name', operator: '=', value: attack }] } }),
        await call(editor, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'item', page: 1, pageSize: 10, conditions: { combinator: 'or', rules: [{ field: 'name', operator: 'contains', value: attack }, { field: 'code', operator: 'in', value: [attack] }] } }),
        await call(editor, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'item', page: 1, pageSize: 10, conditions: { combinator: 'and', rules: [{ field: attack, operator: '=', value: 1 }] } }),
        await call(editor, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'item', page: 1, pageSize: 10, conditions: { combinator: attack, rules: [] } }),
        await call(editor, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'item', page: 1, pageSize: 10, conditions: { combinator: 'and', rules: [{ field: 'qty', operator: attack, value: 1 }] } }),
        await call(editor, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'item', page: 1, pageSize: 10, sort: [{ field: attack, direction: 'asc' }] }),
        await call(editor, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'item', page: 1, pageSize: 10, sort: [{ field: 'code', direction: attack }] }),
        await call(editor, '/api/generic/selection', { moduleCode: attack, functionCode: 'item', page: 1, pageSize: 10 }),
        await call(editor, '/api/generic/selection', { moduleCode: MODULE, functionCode: 'item', page: 1, pageSize: 10, inputs: { [attack]: 1 } }),
        await call(editor, '/api/generic/updating', { moduleCode: MODULE, functionCode: 'item', key: attack, version: attack, record: { name: 'x' } }),
        await call(editor, '/api/generic/deletion', { moduleCode: MODULE, functionCode: 'item', rows: [{ key: attack, version: attack }] }),
        await call(editor, '/api/generic/dropdown', { moduleCode: MODULE, functionCode: 'item', field: 'note', search: attack, record: { status: attack } }),
        await call(editor, '/api/generic/dropdown', { moduleCode: MODULE, functionCode: 'item', field: attack }),
        await call(editor, '/api/generic/export', { moduleCode: MODULE, functionCode: 'item', fields: [attack] }),
        await call(editor, '/api/generic/behavior', { moduleCode: MODULE, functionCode: 'item', behaviour: 'count', keys: [attack] }),
        await call(editor, '/api/generic/tab', { moduleCode: MODULE, functionCode: 'item', subPage: 'lines', parentKey: attack, page: 1, pageSize: 10 }),
      ];
      for (const response of responses) {
        // Refused as bad input, unknown or missing, or answered normally: never a server error.
        expect(response.statusCode, response.body).toBeLessThan(500);
      }
      // The selection by the attack as a value finds exactly the row stored with that literal text.
      const storedLiterally = responses[0].statusCode === 200 && attack.length <= 20;
      expect(json<SelectionResponse>(responses[2]).total).toBe(storedLiterally ? 1 : 0);
      // The value stored by the first add (when it fitted the rules) is the attack text itself.
      if (responses[0].statusCode === 200) expect(json<{ row: GenericRow }>(responses[0]).row.note).toBe(attack);
      expect(await tableCount()).toBeGreaterThanOrEqual(before);
      const sentinel = await sql<{ n: string }>`select count(*) as n from information_schema.tables where table_name in ('engine_item', 'engine_sentinel')`.execute(t.database.db);
      expect(Number(sentinel.rows[0].n)).toBe(2);
    });

    it('keeps every other project row out of reach after all the attacks', async () => {
      const { rows } = await select(other);
      expect(codes(rows)).toEqual(expect.arrayContaining(['A-001', 'Z-999']));
      const mine = await select(editor, { conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: 'Z-999' }] } });
      expect(mine.total).toBe(0);
    });
  });
});
