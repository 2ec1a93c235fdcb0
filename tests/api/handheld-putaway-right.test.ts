import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up } from '../../src/server/modules/handheld/migrations/0413_handheld_putaway_right.js';
import { parseRight, rowsGrant } from '../../src/server/modules/identity/access/rights.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

type Row = { module_code: string; sub_module_code: string | null; can_view: boolean; can_add: boolean; can_edit: boolean; can_delete: boolean };

const row = (module_code: string, sub_module_code: string | null, grants: Partial<Pick<Row, 'can_view' | 'can_add' | 'can_edit' | 'can_delete'>>): Row => ({
  module_code,
  sub_module_code,
  can_view: false,
  can_add: false,
  can_edit: false,
  can_delete: false,
  ...grants,
});

/**
 * Migration 0413: putaway and move on /putaway are the handheld runtime's functions, so every role
 * that sees /putaway in its menu gets the runtime's right; a role that does not see it gets nothing,
 * and a role holding the runtime already keeps its rows as they are.
 */
describe('migration 0413: roles that see /putaway get the handheld runtime', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ ready: true });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('gives handheld.rfFlow:view to the roles holding the menu right of /putaway, and to no other', async () => {
    const db = database.db;
    const entry = await db.selectFrom('sys_module').select('right_name').where('code', '=', 'putaway').executeTakeFirstOrThrow();
    const [module, sub = null] = (entry.right_name ?? 'putaway').split('.');
    const menuRight = parseRight(`${entry.right_name ?? 'putaway'}:view`);
    const runtime = parseRight('handheld.rfFlow:view');
    const tag = Date.now().toString(36);
    const roles: Record<string, Row[]> = {
      viewer: [row(module, sub, { can_view: true })],
      editor: [row(module, sub, { can_edit: true })],
      revokedRow: [row(module, sub, { can_view: true }), row('handheld', 'rfFlow', {})],
      wholeArea: [row(module, sub, { can_view: true }), row('handheld', null, { can_view: true, can_add: true })],
      other: [row('inventory', null, { can_view: true })],
      nothing: [row(module, sub, {})],
    };
    const ids: Record<string, number> = {};
    for (const [name, rows] of Object.entries(roles)) {
      const role = await db.insertInto('role').values({ name: `0413 ${name} ${tag}`, created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow();
      ids[name] = Number(role.id);
      for (const r of rows) await db.insertInto('role_permission').values({ role_id: role.id, ...r }).execute();
    }
    const rowsOf = (name: string) =>
      db.selectFrom('role_permission').select(['module_code', 'sub_module_code', 'can_view', 'can_add', 'can_edit', 'can_delete']).where('role_id', '=', ids[name]).execute();
    const before = Object.fromEntries(await Promise.all(Object.keys(roles).map(async (name) => [name, await rowsOf(name)] as const)));
    expect(Object.keys(roles).filter((name) => rowsGrant(before[name], menuRight))).toEqual(['viewer', 'editor', 'revokedRow', 'wholeArea']);
    expect(Object.keys(roles).filter((name) => rowsGrant(before[name], runtime))).toEqual(['wholeArea']);

    await up(db as Kysely<unknown>);

    const after = Object.fromEntries(await Promise.all(Object.keys(roles).map(async (name) => [name, await rowsOf(name)] as const)));
    expect(Object.keys(roles).filter((name) => rowsGrant(after[name], runtime))).toEqual(['viewer', 'editor', 'revokedRow', 'wholeArea']);
    // Only the view: no other right of the handheld area comes with it.
    expect(after.viewer.filter((r) => r.module_code === 'handheld')).toEqual([row('handheld', 'rfFlow', { can_view: true })]);
    expect(after.revokedRow.filter((r) => r.module_code === 'handheld')).toEqual([row('handheld', 'rfFlow', { can_view: true })]);
    expect(after.wholeArea).toEqual(before.wholeArea);
    expect(after.other).toEqual(before.other);
    expect(after.nothing).toEqual(before.nothing);

    // Run again, nothing changes.
    await up(db as Kysely<unknown>);
    for (const name of Object.keys(roles)) expect(await rowsOf(name)).toEqual(after[name]);
  });
});
