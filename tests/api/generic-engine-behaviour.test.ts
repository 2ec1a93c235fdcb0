import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type TestApp } from '../helpers/app.js';
import { buildEngineFixture, engineRequests, MODULE } from './generic-engine.fixture.js';

/**
 * The generic engine API's behaviours (part 3): a named-SQL behaviour enabled by the rows'
 * status, and a behaviour of a registered area with its selection rule. The fixture is in
 * generic-engine.fixture.ts.
 */
describe('generic engine API: behaviours', () => {
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

  const { call, select } = engineRequests(() => t);

  describe('behaviours', () => {
    it('runs a named-SQL behaviour on the selected rows, only when enabled by their status', async () => {
      const { rows } = await select(editor, { conditions: { combinator: 'and', rules: [{ field: 'code', operator: 'in', value: ['A-001', 'B-001'] }] } });
      const refused = await call(editor, '/api/generic/behavior', { moduleCode: MODULE, functionCode: 'item', behaviour: 'deactivate', keys: rows.map((r) => r._key) });
      expect(refused.statusCode).toBe(409);
      expect(json<{ code: string }>(refused).code).toBe('BEHAVIOUR_NOT_ENABLED');
      const active = rows.filter((r) => r.active === true);
      const done = await call(editor, '/api/generic/behavior', { moduleCode: MODULE, functionCode: 'item', behaviour: 'deactivate', keys: active.map((r) => r._key) });
      expect(done.statusCode, done.body).toBe(200);
      expect(json<{ result: { affected: number } }>(done).result.affected).toBe(1);
      const after = await select(editor, { conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: 'A-001' }] } });
      expect(after.rows[0].active).toBe(false);
    });

    it('dispatches a registered behaviour and applies the selection rule', async () => {
      const { rows } = await select(viewer, { pageSize: 3 });
      const done = await call(viewer, '/api/generic/behavior', { moduleCode: MODULE, functionCode: 'item', behaviour: 'count', keys: rows.map((r) => r._key) });
      expect(done.statusCode, done.body).toBe(200);
      expect(json<{ result: { count: number } }>(done).result.count).toBe(3);
      const none = await call(viewer, '/api/generic/behavior', { moduleCode: MODULE, functionCode: 'item', behaviour: 'count', keys: [] });
      expect(json<{ code: string }>(none).code).toBe('BEHAVIOUR_SELECTION');
      const unknown = await call(viewer, '/api/generic/behavior', { moduleCode: MODULE, functionCode: 'item', behaviour: 'explode', keys: [] });
      expect(unknown.statusCode).toBe(404);
      const foreign = await call(other, '/api/generic/behavior', { moduleCode: MODULE, functionCode: 'item', behaviour: 'count', keys: [rows[0]._key] });
      expect(json<{ code: string }>(foreign).code).toBe('NO_RECORD');
    });
  });
});
