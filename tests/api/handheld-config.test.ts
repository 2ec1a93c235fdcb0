import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceSessionRow, HandheldConfigDetail, HandheldConfigRow, HandheldDefinition, HandheldFlowAnswer } from '../../src/common/handheld-api.js';
import { SHIPPED_PUTAWAY } from '../../src/common/handheld-api.js';
import { buildTestApp, createUser, injectAs, json, type TestApp } from '../helpers/app.js';

/**
 * Handheld configurations and device sessions through the real server: a configuration starts as
 * the shipped flow of its function, publish refuses a wrong draft naming each field and otherwise
 * makes the next version the runtime's flow, an inactive configuration leaves the shipped flow,
 * copy to another project of the user, everything in the session's project and warehouse; a
 * handheld signs in with its device id, its scans show on the supervisor's list.
 */
const TAG = `HH${Date.now().toString(36).slice(-6)}`;
let t: TestApp;
let configurator: string;
let otherProject: string;
let operator: string;
let operator2: string;
let supervisor: string;
let elsewhere: string;
let ender: string;
let enderElsewhere: string;
const ids = { projectA: 0, projectB: 0, projectC: 0 };

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => injectAs(t.app, token, { method, url: `/api${url}`, ...(payload ? { payload } : {}) });
const ok = async <T>(token: string, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>): Promise<T> => {
  const response = await call(token, method, url, payload);
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
};
const details = (response: { body: string }) => json<{ details: Array<{ field: string; code: string; message?: string }> }>(response as never).details;

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  const org = await db.selectFrom('project').select('organization_id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const project = (code: string) =>
    db.insertInto('project').values({ organization_id: org.organization_id, code, name: code, created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow();
  ids.projectA = (await project(`PA-${TAG}`)).id;
  ids.projectB = (await project(`PB-${TAG}`)).id;
  ids.projectC = (await project(`PC-${TAG}`)).id;
  await db.insertInto('warehouse').values({ organization_id: org.organization_id, code: `W-${TAG}`, name: 'Handheld warehouse', nav_layout: null, created_by: 'test', updated_by: 'test' }).execute();
  const config = ['handheld.handheldConfig:view', 'handheld.handheldConfig:add', 'handheld.handheldConfig:edit', 'handheld.rfFlow:view'] as const;
  configurator = await createUser(t, { loginAccount: `hh-conf-${TAG}`, rights: [...config], projectCodes: [`PA-${TAG}`, `PB-${TAG}`], warehouseCodes: [`W-${TAG}`] });
  otherProject = await createUser(t, { loginAccount: `hh-confb-${TAG}`, rights: [...config], projectCodes: [`PB-${TAG}`], warehouseCodes: [`W-${TAG}`] });
  operator = await createUser(t, { loginAccount: `hh-op-${TAG}`, rights: ['handheld.rfFlow:view'], projectCodes: [`PA-${TAG}`], warehouseCodes: [`W-${TAG}`] });
  operator2 = await createUser(t, { loginAccount: `hh-op2-${TAG}`, rights: ['handheld.rfFlow:view'], projectCodes: [`PB-${TAG}`], warehouseCodes: [`W-${TAG}`] });
  supervisor = await createUser(t, { loginAccount: `hh-sup-${TAG}`, rights: ['handheld.rfDevices:view'], projectCodes: [`PA-${TAG}`], warehouseCodes: [`W-${TAG}`] });
  elsewhere = await createUser(t, { loginAccount: `hh-else-${TAG}`, rights: ['handheld.rfDevices:view', 'handheld.rfFlow:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  ender = await createUser(t, { loginAccount: `hh-end-${TAG}`, rights: ['handheld.rfDevices:view', 'handheld.rfDevices:edit'], projectCodes: [`PB-${TAG}`], warehouseCodes: [`W-${TAG}`] });
  enderElsewhere = await createUser(t, { loginAccount: `hh-endx-${TAG}`, rights: ['handheld.rfDevices:view', 'handheld.rfDevices:edit'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
});

afterAll(async () => {
  await t?.close();
});

describe('handheld configurations', () => {
  let id = 0;
  let draft: HandheldDefinition;

  it('creates a configuration whose draft is the shipped putaway flow; the runtime still runs the shipped flow', async () => {
    const made = await ok<HandheldConfigDetail>(configurator, 'POST', '/handheld/config/create', { code: `PUT-${TAG}`, name: 'Putaway, dock A', fn: 'putaway' });
    id = made.id;
    expect(made).toMatchObject({ code: `PUT-${TAG}`, fn: 'putaway', status: 'active', publishedVersion: null, versions: [], draft: SHIPPED_PUTAWAY });
    draft = made.draft;
    expect((await ok<{ rows: HandheldConfigRow[] }>(configurator, 'GET', '/handheld/config/list')).rows.map((r) => r.code)).toEqual([`PUT-${TAG}`]);
    expect(await ok<HandheldFlowAnswer>(operator, 'GET', '/handheld/flow?fn=putaway')).toEqual({ configId: null, code: null, version: null, definition: SHIPPED_PUTAWAY });
    const twice = await call(configurator, 'POST', '/handheld/config/create', { code: `put-${TAG}`, name: 'Again', fn: 'putaway' });
    expect(twice.statusCode).toBe(409);
    expect(json<{ code: string }>(twice).code).toBe('HH_CODE_TAKEN');
  });

  it('refuses to publish a wrong draft, naming each field, and makes no version', async () => {
    const wrong: HandheldDefinition = {
      ...draft,
      orderSearch: { ...draft.orderSearch!, scanName: ' ' },
      steps: [
        { scanName: 'location', prompt: '', action: 'putaway.teleport', targetField: 'locationCode' },
        { scanName: '', prompt: '', action: 'putaway.confirmQty', targetField: 'binCode' },
        { scanName: 'search', prompt: '', action: 'putaway.findTask', targetField: 'lpn' },
      ],
    };
    await ok(configurator, 'POST', '/handheld/config/save', { id, name: 'Putaway, dock A', status: 'active', draft: wrong });
    const refused = await call(configurator, 'POST', '/handheld/config/publish', { id });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(details(refused).map((d) => `${d.field}:${d.code}`)).toEqual([
      'orderSearch.scanName:FIELD_REQUIRED',
      'steps[0].action:HH_ACTION_UNKNOWN',
      'steps[1].scanName:FIELD_REQUIRED',
      'steps[1].targetField:HH_TARGET_UNKNOWN',
      // An order search action is not a step's.
      'steps[2].action:HH_ACTION_UNKNOWN',
    ]);
    expect(details(refused).find((d) => d.code === 'HH_TARGET_UNKNOWN')?.message).toBe('steps[1].targetField: action putaway.confirmQty does not fill binCode.');
    expect((await ok<HandheldConfigDetail>(configurator, 'GET', `/handheld/config/get?id=${id}`)).versions).toEqual([]);
    // The draft's shape itself is checked before the database.
    const shape = await call(configurator, 'POST', '/handheld/config/save', { id, name: 'X', status: 'active', draft: { ...draft, locationLogic: ['teleport'] } });
    expect(shape.statusCode).toBe(400);
  });

  it('publishes versions: the runtime follows the last one published, not the draft', async () => {
    await ok(configurator, 'POST', '/handheld/config/save', { id, name: 'Putaway, dock A', status: 'active', draft });
    const first = await ok<HandheldConfigDetail>(configurator, 'POST', '/handheld/config/publish', { id });
    expect(first.publishedVersion).toBe(1);
    expect(await ok<HandheldFlowAnswer>(operator, 'GET', '/handheld/flow?fn=putaway')).toMatchObject({ configId: id, code: `PUT-${TAG}`, version: 1, definition: SHIPPED_PUTAWAY });

    // Without the quantity step, the location prompt renamed and the gross weight asked and mandatory.
    const changed: HandheldDefinition = {
      ...draft,
      steps: [{ ...draft.steps[0], prompt: 'Scan the bin' }],
      dialogs: { ...draft.dialogs, grossWeight: { show: true, mandatory: true } },
    };
    await ok(configurator, 'POST', '/handheld/config/save', { id, name: 'Putaway, dock A', status: 'active', draft: changed });
    expect((await ok<HandheldFlowAnswer>(operator, 'GET', '/handheld/flow?fn=putaway')).version).toBe(1);
    const second = await ok<HandheldConfigDetail>(configurator, 'POST', '/handheld/config/publish', { id });
    expect(second.versions.map((v) => v.version)).toEqual([2, 1]);
    expect(second.versions[0].publishedBy).toBe(`hh-conf-${TAG}`);
    const flow = await ok<HandheldFlowAnswer>(operator, 'GET', '/handheld/flow?fn=putaway');
    expect(flow.version).toBe(2);
    expect(flow.definition.steps).toEqual([{ scanName: 'location', prompt: 'Scan the bin', action: 'putaway.scanLocation', targetField: 'locationCode' }]);
    expect(flow.definition.dialogs.grossWeight).toEqual({ show: true, mandatory: true });

    // Inactive: the runtime runs the shipped flow again.
    await ok(configurator, 'POST', '/handheld/config/save', { id, name: 'Putaway, dock A', status: 'inactive', draft: changed });
    expect((await ok<HandheldFlowAnswer>(operator, 'GET', '/handheld/flow?fn=putaway')).configId).toBeNull();
    await ok(configurator, 'POST', '/handheld/config/save', { id, name: 'Putaway, dock A', status: 'active', draft: changed });
    expect((await ok<HandheldFlowAnswer>(operator, 'GET', '/handheld/flow?fn=putaway')).version).toBe(2);
  });

  it('copies a configuration to another project of the user as an unpublished draft', async () => {
    const copied = await ok<{ id: number; code: string }>(configurator, 'POST', '/handheld/config/copy', { id, projectId: ids.projectB });
    expect(copied.code).toBe(`PUT-${TAG}`);
    const inB = (await ok<{ rows: HandheldConfigRow[] }>(otherProject, 'GET', '/handheld/config/list')).rows;
    expect(inB.map((r) => [r.code, r.publishedVersion])).toEqual([[`PUT-${TAG}`, null]]);
    const detail = await ok<HandheldConfigDetail>(otherProject, 'GET', `/handheld/config/get?id=${copied.id}`);
    expect(detail.draft.steps.map((s) => s.prompt)).toEqual(['Scan the bin']);
    // Project B's runtime is not touched until it publishes there.
    expect((await ok<HandheldFlowAnswer>(operator2, 'GET', '/handheld/flow?fn=putaway')).configId).toBeNull();
    const again = await call(configurator, 'POST', '/handheld/config/copy', { id, projectId: ids.projectB });
    expect(json<{ code: string }>(again).code).toBe('HH_CODE_TAKEN');
    const foreign = await call(configurator, 'POST', '/handheld/config/copy', { id, projectId: ids.projectC, code: `X-${TAG}` });
    expect(foreign.statusCode).toBe(400);
    expect(details(foreign).map((d) => `${d.field}:${d.code}`)).toEqual(['projectId:FIELD_FOREIGN']);
  });

  it("keeps each project's configurations to itself and checks the rights", async () => {
    for (const [method, url, payload] of [
      ['GET', `/handheld/config/get?id=${id}`, undefined],
      ['POST', '/handheld/config/save', { id, name: 'Taken over', status: 'active', draft }],
      ['POST', '/handheld/config/publish', { id }],
      ['POST', '/handheld/config/copy', { id, projectId: ids.projectB, code: `Y-${TAG}` }],
    ] as const) {
      const refused = await call(otherProject, method, url, payload);
      expect(refused.statusCode, `${url} ${refused.body}`).toBe(404);
    }
    expect((await call(operator, 'GET', '/handheld/config/list')).statusCode).toBe(403);
    expect((await call(operator, 'POST', '/handheld/config/publish', { id })).statusCode).toBe(403);
    expect((await call(operator, 'GET', '/handheld/flow?fn=teleport')).statusCode).toBe(400);
    expect((await ok<HandheldConfigDetail>(configurator, 'GET', `/handheld/config/get?id=${id}`)).name).toBe('Putaway, dock A');
  });
});

describe('device sessions (/rfUser)', () => {
  const device = `HH-${TAG}-01`;
  const devicesOf = async (token: string) => (await ok<{ rows: DeviceSessionRow[] }>(token, 'GET', '/rfUser/devices')).rows.filter((r) => r.deviceId.includes(TAG));

  it('signs a handheld in once per shift; its scans show on the supervisor list', async () => {
    expect((await ok<{ session: DeviceSessionRow | null }>(operator, 'GET', '/rfUser/me')).session).toBeNull();
    const session = await ok<DeviceSessionRow>(operator, 'POST', '/rfUser/signIn', { deviceId: device, flow: 'putaway' });
    expect(session).toMatchObject({ deviceId: device, login: `hh-op-${TAG}`, flow: 'putaway', lastScanAt: null });
    expect((await devicesOf(supervisor)).map((r) => [r.deviceId, r.login, r.lastScanAt])).toEqual([[device, `hh-op-${TAG}`, null]]);
    expect(await ok(operator, 'POST', '/rfUser/scan', { deviceId: device, flow: 'putaway' })).toEqual({ recorded: true });
    const [row] = await devicesOf(supervisor);
    expect(row.lastScanAt).not.toBeNull();
    expect(new Date(row.lastScanAt!).getTime()).toBeGreaterThanOrEqual(new Date(row.signedInAt).getTime());
    // Another warehouse's supervisor does not see it; an operator has no list.
    expect(await devicesOf(elsewhere)).toEqual([]);
    expect((await call(operator, 'GET', '/rfUser/devices')).statusCode).toBe(403);
  });

  it('gives the device to the next user of the shift, and a user one device at a time', async () => {
    await ok(operator2, 'POST', '/rfUser/signIn', { deviceId: device, flow: 'putaway' });
    expect((await devicesOf(supervisor)).map((r) => [r.deviceId, r.login])).toEqual([[device, `hh-op2-${TAG}`]]);
    expect(await ok(operator, 'POST', '/rfUser/scan', { deviceId: device })).toEqual({ recorded: false });
    await ok(operator, 'POST', '/rfUser/signIn', { deviceId: `${device}-B` });
    await ok(operator, 'POST', '/rfUser/signIn', { deviceId: `${device}-C` });
    expect((await devicesOf(supervisor)).map((r) => r.deviceId).sort()).toEqual([device, `${device}-C`]);
    expect(await ok(operator, 'POST', '/rfUser/signOut')).toEqual({ ended: 1 });
    expect((await devicesOf(supervisor)).map((r) => r.deviceId)).toEqual([device]);
  });

  it('refuses a malformed device id by field', async () => {
    for (const deviceId of ['', 'has space', 'x'.repeat(61)]) {
      const refused = await call(operator, 'POST', '/rfUser/signIn', { deviceId });
      expect(refused.statusCode, deviceId).toBe(400);
    }
  });

  it("lets a supervisor end a device's session: its next scan is refused until it signs in again", async () => {
    const tablet = `HH-${TAG}-END`;
    const session = await ok<DeviceSessionRow>(operator, 'POST', '/rfUser/signIn', { deviceId: tablet, flow: 'putaway' });
    expect(await ok(operator, 'POST', '/rfUser/scan', { deviceId: tablet })).toEqual({ recorded: true });
    // Without the edit right, refused; another warehouse's supervisor does not find it.
    expect((await call(supervisor, 'POST', '/rfUser/end', { id: session.id })).statusCode).toBe(403);
    const foreign = await call(enderElsewhere, 'POST', '/rfUser/end', { id: session.id });
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(json<{ code: string }>(foreign).code).toBe('NO_RECORD');
    expect((await devicesOf(supervisor)).map((r) => r.deviceId)).toContain(tablet);

    // A supervisor of the warehouse (another project) ends it.
    expect(await ok<DeviceSessionRow>(ender, 'POST', '/rfUser/end', { id: session.id })).toMatchObject({ id: session.id, deviceId: tablet, login: `hh-op-${TAG}` });
    expect((await devicesOf(supervisor)).map((r) => r.deviceId)).not.toContain(tablet);
    expect((await ok<{ session: DeviceSessionRow | null }>(operator, 'GET', '/rfUser/me')).session).toBeNull();
    const refused = await call(operator, 'POST', '/rfUser/scan', { deviceId: tablet, flow: 'putaway' });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(json<{ code: string; message: string }>(refused)).toMatchObject({ code: 'HH_SESSION_ENDED', message: `A supervisor ended the session of handheld ${tablet}: sign in again.` });
    // Ended already: not found a second time.
    expect((await call(ender, 'POST', '/rfUser/end', { id: session.id })).statusCode).toBe(404);

    // Signed in again, the device scans.
    await ok(operator, 'POST', '/rfUser/signIn', { deviceId: tablet, flow: 'putaway' });
    expect(await ok(operator, 'POST', '/rfUser/scan', { deviceId: tablet })).toEqual({ recorded: true });
    await ok(operator, 'POST', '/rfUser/signOut');
    expect(await ok(operator, 'POST', '/rfUser/scan', { deviceId: tablet })).toEqual({ recorded: false });
  });
});

describe('location logic: item type, project and warehouse locations', () => {
  const suggest = (token: string, rules: string[], skuCode?: string) => ok<{ locationCode: string | null; rule: string | null }>(token, 'POST', '/handheld/suggestLocation', { rules, ...(skuCode ? { skuCode } : {}) });
  const GROUP = `G${TAG}`;

  beforeAll(async () => {
    const db = t.database.db;
    const warehouse = await db.selectFrom('warehouse').select(['id', 'organization_id']).where('code', '=', `W-${TAG}`).executeTakeFirstOrThrow();
    const location = (code: string, zone: string | null, status: 'active' | 'inactive' = 'active', type: 'storage' | 'pick' | 'stage' = 'storage') =>
      db.insertInto('location').values({ warehouse_id: warehouse.id, code, zone, status, location_type: type, created_by: 'test', updated_by: 'test' }).execute();
    // The zone of the SKU group: two storage locations (the first by code wins), an inactive and a staging one that do not count.
    await location(`IT2-${TAG}`, GROUP);
    await location(`IT1-${TAG}`, GROUP);
    await location(`IT0-${TAG}`, GROUP, 'inactive');
    await location(`IS0-${TAG}`, GROUP, 'active', 'stage');
    await location(`PRJ-${TAG}`, null, 'active', 'stage');
    await location(`RCV-${TAG}`, null, 'active', 'stage');
    await location(`OLD-${TAG}`, null, 'inactive', 'stage');
    const owner = await db
      .insertInto('owner')
      .values({ project_id: ids.projectA, code: `O-${TAG}`, name: 'Owner', created_by: 'test', updated_by: 'test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [code, group] of [[`SKU-G-${TAG}`, GROUP], [`SKU-N-${TAG}`, null]] as const) {
      await db.insertInto('sku').values({ project_id: ids.projectA, owner_id: owner.id, code, description: code, sku_group: group, created_by: 'test', updated_by: 'test' }).execute();
    }
    await db
      .insertInto('sys_param')
      .values([
        { organization_id: warehouse.organization_id, param_code: `HH_PROJECT_LOCATION.PA-${TAG}`, param_value: `prj-${TAG}`.toLowerCase(), created_by: 'test', updated_by: 'test' },
        { organization_id: warehouse.organization_id, param_code: `HH_WAREHOUSE_LOCATION.W-${TAG}`, param_value: `RCV-${TAG}`, created_by: 'test', updated_by: 'test' },
        { organization_id: warehouse.organization_id, param_code: `HH_PROJECT_LOCATION.PB-${TAG}`, param_value: `OLD-${TAG}`, created_by: 'test', updated_by: 'test' },
      ])
      .execute();
  });

  it("itemType: an active storage or pick location in the zone of the SKU's group", async () => {
    expect(await suggest(operator, ['itemType'], `SKU-G-${TAG}`)).toEqual({ locationCode: `IT1-${TAG}`, rule: 'itemType' });
    // A SKU without a group, or none scanned: the next rule is tried.
    expect(await suggest(operator, ['itemType', 'warehouse'], `SKU-N-${TAG}`)).toEqual({ locationCode: `RCV-${TAG}`, rule: 'warehouse' });
    expect(await suggest(operator, ['itemType'])).toEqual({ locationCode: null, rule: null });
    // Another project's SKU of that code is not this project's.
    expect(await suggest(operator2, ['itemType'], `SKU-G-${TAG}`)).toEqual({ locationCode: null, rule: null });
  });

  it("project: the location the project's parameter names, when it is active in the warehouse", async () => {
    expect(await suggest(operator, ['project', 'itemType'], `SKU-G-${TAG}`)).toEqual({ locationCode: `PRJ-${TAG}`, rule: 'project' });
    // Project B's parameter names an inactive location: skipped.
    expect(await suggest(operator2, ['project', 'warehouse'])).toEqual({ locationCode: `RCV-${TAG}`, rule: 'warehouse' });
    // Another warehouse has no such parameters.
    expect(await suggest(elsewhere, ['project', 'warehouse'])).toEqual({ locationCode: null, rule: null });
  });

  it("warehouse: the warehouse's location parameter", async () => {
    expect(await suggest(operator, ['warehouse', 'project'])).toEqual({ locationCode: `RCV-${TAG}`, rule: 'warehouse' });
  });
});
