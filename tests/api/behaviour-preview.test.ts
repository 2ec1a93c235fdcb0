import { readFileSync } from 'node:fs';
import Decimal from 'decimal.js';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageDefinition } from '../../engine/schema/index.js';
import { defineBehaviour, defineModule } from '../../src/server/modules/area.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderCalls, outboundFixture, outboundSnapshot, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * A behaviour's preview (`/api/generic/behavior` with `preview: true`) through the real server: the
 * confirmation of cancel and close of orders says what they will undo (orders, allocated qty given
 * back, picked qty to go back to stock, open pick tasks cancelled), or why they would be refused,
 * with every check a run makes (rights, scope, enabling rule) and never changing anything. The
 * preview runs in a read-only transaction: a tiny area of this test brings a preview that tries to
 * write, and the database refuses it.
 */
let t: TestApp;
let admin: string;
let viewOnly: string;
let noCancelVerb: string;
let otherWarehouse: string;
let f: OutboundFixture;
let seq = 0;
const ids = { fresh: 0, allocatedA: 0, allocatedB: 0, partlyPicked: 0 };

const PROBE_REMARK = 'written by a preview';

/** An area of this test only: its preview tries to write to the selected orders. */
const probeModule = defineModule({
  name: 'probe',
  behaviours: [
    defineBehaviour({
      name: 'probe.writeInPreview',
      inputs: Type.Object({}),
      async run() {
        return { result: null };
      },
      async preview({ db, rows }) {
        await db
          .updateTable('so_header')
          .set({ remark: PROBE_REMARK })
          .where('id', 'in', rows.map((r) => Number(r._key)))
          .execute();
        return { messageCode: 'outbound.so.endPreview' };
      },
    }),
  ],
});

const post = (url: string, payload: unknown, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload: payload as Record<string, unknown> });
const gen = (url: string, payload: Record<string, unknown>, token = admin) => post(`/generic/${url}`, { moduleCode: 'outbound', functionCode: 'so', ...payload }, token);
const preview = (behaviour: string, keys: number[], token = admin) => gen('behavior', { behaviour, keys, preview: true }, token);
const runIt = (behaviour: string, keys: number[], token = admin) => gen('behavior', { behaviour, keys }, token);
const db = () => t.database.db;

const orders = () => orderCalls(t.app, admin, db());
const newOrder = (lines: Array<{ sku: number; qty: number }>) => orders().enter(`PV-${++seq}`, f.ownerId, lines.map((l) => ({ skuCode: `SKU-PV-${l.sku}`, qty: l.qty })));
const allocate = (soId: number) => orders().allocate(soId);
/** Picks every open task of the order for this SKU in full, onto a tote at the staging location. */
const pickSku = (soId: number, skuIndex: number) => orders().pickSku(soId, f.skuIds[skuIndex], `SKU-PV-${skuIndex}`, `TOTE-PV-${soId}`);
/** Everything a preview must leave as it was. */
const snapshot = () => outboundSnapshot(db(), Object.values(ids));

function refused(response: { statusCode: number; body: string }, statusCode: number, code: string) {
  expect(response.statusCode, response.body).toBe(statusCode);
  expect(json(response as never)).toMatchObject({ code });
}

/** Publishes a page as the project's version, through the designer's draft. */
async function publish(content: PageDefinition) {
  const draft = await injectAs(t.app, admin, { method: 'PUT', url: '/api/generic/draft', payload: { moduleCode: content.moduleCode, functionCode: content.functionCode, content } });
  expect(draft.statusCode, draft.body).toBe(200);
  return injectAs(t.app, admin, { method: 'POST', url: '/api/generic/publish', payload: { moduleCode: content.moduleCode, functionCode: content.functionCode } });
}

const soPage = JSON.parse(readFileSync(new URL('../../definitions/outbound/so.page.json', import.meta.url), 'utf8')) as PageDefinition;

beforeAll(async () => {
  t = await buildTestApp({}, { extraModules: [probeModule] });
  admin = await signIn(t.app);
  f = await outboundFixture(db(), 'PV', 3);
  const project = await db().selectFrom('project').select(['id', 'organization_id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const wh2 = await db().insertInto('warehouse').values({ organization_id: project.organization_id, code: 'WH2', name: 'Second', nav_layout: null }).returning('id').executeTakeFirstOrThrow();
  await db().insertInto('project_warehouse').values({ project_id: project.id, warehouse_id: wh2.id }).execute();
  await db().insertInto('location').values({ warehouse_id: f.scope.warehouseId, code: 'STAGE-PV', location_type: 'stage' }).execute();
  const cancelRights = ['outbound.so:view', 'outbound.so:edit', 'outbound.so:cancel', 'outbound.so:close'] as const;
  viewOnly = await createUser(t, { loginAccount: 'pv-view', rights: ['outbound.so:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  noCancelVerb = await createUser(t, { loginAccount: 'pv-edit', rights: ['outbound.so:view', 'outbound.so:edit'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  otherWarehouse = await createUser(t, { loginAccount: 'pv-wh2', rights: [...cancelRights], projectCodes: ['PRJ1'], warehouseCodes: ['WH2'] });

  for (const sku of [0, 1, 2]) await stock(db(), f, f.skuIds[sku], f.locationIds[1], 30);
  ids.fresh = await newOrder([{ sku: 2, qty: 2 }]);
  ids.allocatedA = await newOrder([{ sku: 0, qty: 3 }]);
  await allocate(ids.allocatedA);
  ids.allocatedB = await newOrder([
    { sku: 0, qty: 5 },
    { sku: 1, qty: 7 },
  ]);
  await allocate(ids.allocatedB);
  // Partly picked, on a wave: the first line picked in full, the second allocated with an open task.
  ids.partlyPicked = await newOrder([
    { sku: 0, qty: 4 },
    { sku: 1, qty: 2 },
  ]);
  const wave = json<{ waveId: number }>(await post('/so/wave/save', { orderIds: [ids.partlyPicked] }));
  expect((await post('/wave/release', { waveId: wave.waveId })).statusCode).toBe(200);
  await pickSku(ids.partlyPicked, 0);
  const page: PageDefinition = {
    ...soPage,
    // The configurator may not publish a writable page over so_header; behaviours run on a read-only page all the same.
    readOnly: true,
    behaviours: [
      ...(soPage.behaviours ?? []),
      { code: 'probeWrite', action: 'probe.writeInPreview', labelCode: 'outbound.behaviour.cancel', selection: 'many', right: 'edit', sequence: 90 },
      { code: 'probeNew', action: 'probe.writeInPreview', labelCode: 'outbound.behaviour.cancel', selection: 'many', right: 'edit', sequence: 91, enabledBy: { field: 'status', values: ['new'] } },
    ],
  };
  const published = await publish(page);
  expect(published.statusCode, published.body).toBe(200);
  const statuses = await db().selectFrom('so_header').select('status').where('id', 'in', Object.values(ids)).orderBy('id').execute();
  expect(statuses.map((s) => s.status)).toEqual(['new', 'allocated', 'allocated', 'partial_picked']);
});

afterAll(async () => {
  await t?.close();
});

const STATUS_TEXT = "Status error: the order's status does not allow this action.";

describe('preview of cancel and close of orders', () => {
  it('tells what cancelling allocated orders gives back, and changes nothing', async () => {
    const before = await snapshot();
    const response = await preview('cancel', [ids.allocatedA, ids.allocatedB]);
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response)).toEqual({ result: null, messageCode: 'outbound.so.endPreview', messageParams: { orders: 2, allocated: '15', picked: '0', tasks: 0 } });
    expect(await snapshot()).toEqual(before);
  });

  it('tells the picked qty and the open pick tasks that closing a partly picked order undoes', async () => {
    const before = await snapshot();
    const response = await preview('close', [ids.allocatedA, ids.partlyPicked]);
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response)).toMatchObject({ messageCode: 'outbound.so.endPreview', messageParams: { orders: 2, allocated: '5', picked: '4', tasks: 1 } });
    expect(json(response)).not.toHaveProperty('refusal');
    expect(await snapshot()).toEqual(before);
  });

  it('answers the refusal the run would give when one order may not be cancelled, and changes nothing', async () => {
    const before = await snapshot();
    const response = await preview('cancel', [ids.allocatedA, ids.partlyPicked]);
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response)).toMatchObject({
      messageParams: { orders: 2 },
      refusal: { code: 'ORDER_STATUS_ERROR', message: STATUS_TEXT, params: expect.objectContaining({ status: 'partial_picked' }) },
    });
    expect(await snapshot()).toEqual(before);
    // The run agrees.
    refused(await runIt('cancel', [ids.allocatedA, ids.partlyPicked]), 409, 'ORDER_STATUS_ERROR');
    expect(await snapshot()).toEqual(before);
  });
});

describe('a preview makes the checks of a run', () => {
  it('refuses a caller without the page right or without the action right (403), changing nothing', async () => {
    const before = await snapshot();
    refused(await preview('cancel', [ids.allocatedA], viewOnly), 403, 'FORBIDDEN');
    refused(await preview('cancel', [ids.allocatedA], noCancelVerb), 403, 'FORBIDDEN');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses rows of another warehouse as the run does, changing nothing', async () => {
    const before = await snapshot();
    const run = await runIt('cancel', [ids.allocatedA], otherWarehouse);
    expect(run.statusCode).toBeGreaterThanOrEqual(400);
    const answer = await preview('cancel', [ids.allocatedA], otherWarehouse);
    refused(answer, run.statusCode, json<{ code: string }>(run).code);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses rows the enabling rule does not allow (409)', async () => {
    refused(await preview('probeNew', [ids.allocatedA]), 409, 'BEHAVIOUR_NOT_ENABLED');
  });

  it('refuses a behaviour whose action has no preview (400), running nothing', async () => {
    const before = await snapshot();
    refused(await preview('allocate', [ids.fresh]), 400, 'BEHAVIOUR_NO_PREVIEW');
    expect(await snapshot()).toEqual(before);
    expect((await db().selectFrom('so_header').select('status').where('id', '=', ids.fresh).executeTakeFirstOrThrow()).status).toBe('new');
  });

  it('runs the preview in a read-only transaction: a preview that writes is refused by the database', async () => {
    const before = await snapshot();
    refused(await preview('probeWrite', [ids.fresh]), 500, 'SYSTEM_CONFIG');
    expect(await snapshot()).toEqual(before);
    expect((await db().selectFrom('so_header').select('remark').where('id', '=', ids.fresh).executeTakeFirstOrThrow()).remark).not.toBe(PROBE_REMARK);
  });
});

describe('confirmPreview in a definition', () => {
  it('is refused at publish on an action without a preview', async () => {
    const behaviours = (soPage.behaviours ?? []).map((b) => (b.code === 'allocate' ? { ...b, confirm: true, confirmPreview: true } : b));
    const response = await publish({ ...soPage, readOnly: true, behaviours });
    expect(response.statusCode, response.body).toBe(400);
    const index = behaviours.findIndex((b) => b.code === 'allocate');
    expect(json(response)).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: `/behaviours/${index}/confirmPreview`, code: 'noPreview' }] });
  });
});

describe('cancel after its preview', () => {
  it('releases exactly the allocated qty the preview told', async () => {
    const told = json<{ messageParams: { allocated: string } }>(await preview('cancel', [ids.allocatedA])).messageParams.allocated;
    const allocatedOf = async () =>
      (await db().selectFrom('inventory_balance').select('allocated_qty').where('sku_id', '=', f.skuIds[0]).where('location_id', '=', f.locationIds[1]).executeTakeFirstOrThrow()).allocated_qty;
    const before = new Decimal(await allocatedOf());
    expect((await runIt('cancel', [ids.allocatedA])).statusCode).toBe(200);
    expect(before.minus(await allocatedOf()).toString()).toBe(told);
  });
});
