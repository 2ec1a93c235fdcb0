import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, injectAs, json, signIn, TEST_USER_PASSWORD, type TestApp } from '../helpers/app.js';
import { outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * The wine and non-merchandise order wizards through the real server: a temporary order kept at
 * every step with the step the user is on, each step's data checked with the field named, going
 * back, resuming in a new session, clearing, and submit creating a sales order with its lines.
 */
const TAG = `WZ${Date.now().toString(36).slice(-5)}`;
let t: TestApp;
let clerk: string;
let viewer: string;
let f: OutboundFixture;
let giftId = 0;
let foreignOwnerId = 0;
let foreignSkuId = 0;

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => injectAs(t.app, token, { method, url: `/api${url}`, ...(payload ? { payload } : {}) });
const fields = (response: { body: string }) => json<{ details: Array<{ field: string; code: string }> }>(response as never).details.map((d) => `${d.field}:${d.code}`);
const db = () => t.database.db;

const STEP1 = { ownerId: 0, customerOrderNo: `CO-${TAG}`, shipToName: 'Cellar & Co', shipToAddressEn: '12 Vine Street, Hong Kong', contact: 'Ann', phone: '555' };

beforeAll(async () => {
  t = await buildTestApp();
  f = await outboundFixture(db(), TAG, 3);
  STEP1.ownerId = f.ownerId;
  await stock(db(), f, f.skuIds[0], f.locationIds[1], 10);
  await stock(db(), f, f.skuIds[1], f.locationIds[2], 5);
  giftId = f.skuIds[2];
  await db().updateTable('sku').set({ gift: true }).where('id', '=', giftId).execute();
  await stock(db(), f, giftId, f.locationIds[3], 7);
  await db()
    .insertInto('partner')
    .values([
      { project_id: f.scope.projectId, partner_type: 'consignee', code: `CN-${TAG}`, name: 'Consignee', address1: '1 Quay' },
      { project_id: f.scope.projectId, partner_type: 'carrier', code: `CR-${TAG}`, name: 'Courier' },
    ])
    .execute();
  const project = await db().selectFrom('project').select(['organization_id']).where('id', '=', f.scope.projectId).executeTakeFirstOrThrow();
  const other = await db().insertInto('project').values({ organization_id: project.organization_id, code: `P-${TAG}`, name: 'Other project' }).returning('id').executeTakeFirstOrThrow();
  foreignOwnerId = (await db().insertInto('owner').values({ project_id: other.id, code: `FO-${TAG}`, name: 'Foreign owner' }).returning('id').executeTakeFirstOrThrow()).id;
  foreignSkuId = (await db().insertInto('sku').values({ project_id: other.id, owner_id: foreignOwnerId, code: `FS-${TAG}`, description: 'Foreign' }).returning('id').executeTakeFirstOrThrow()).id;
  clerk = await createUser(t, { loginAccount: `wz-clerk-${TAG}`, rights: ['wizard.wineOrder:view', 'wizard.wineOrder:add', 'wizard.nonMerOrder:view', 'wizard.nonMerOrder:add'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  viewer = await createUser(t, { loginAccount: `wz-viewer-${TAG}`, rights: ['wizard.wineOrder:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
});

afterAll(async () => {
  await t?.close();
});

describe('the wine order wizard', () => {
  it('starts empty at step 1, and refuses an incomplete first step naming its fields, keeping nothing', async () => {
    expect(json(await call(clerk, 'GET', '/inv/wine/allInfo'))).toMatchObject({ kind: 'wine', currentStep: 1, data: {}, items: [] });
    const refused = await call(clerk, 'POST', '/inv/wine/saveTempOrder', { step: 1, data: { customerOrderNo: 'X' } });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(fields(refused)).toEqual(['ownerId:FIELD_REQUIRED', 'shipToName:FIELD_REQUIRED']);
    expect(await db().selectFrom('wizard_order').select('id').where('created_by', '=', `wz-clerk-${TAG}`).execute()).toEqual([]);
  });

  it("refuses another project's owner and an address against the order's address rule", async () => {
    const foreign = await call(clerk, 'POST', '/inv/wine/saveTempOrder', { step: 1, data: { ...STEP1, ownerId: foreignOwnerId } });
    expect(fields(foreign)).toEqual(['ownerId:FIELD_FOREIGN']);
    const address = await call(clerk, 'POST', '/inv/wine/saveTempOrder', { step: 1, data: { ...STEP1, shipToAddressEn: '香港' } });
    expect(fields(address)).toEqual(['ship_to_address_en:ADDRESS_ENGLISH_ONLY']);
  });

  it('keeps each step and moves on; a later step cannot be saved before the earlier ones', async () => {
    const first = await call(clerk, 'POST', '/inv/wine/saveTempOrder', { step: 1, data: STEP1 });
    expect(first.statusCode, first.body).toBe(200);
    expect(json(first)).toMatchObject({ currentStep: 2, data: STEP1 });
    const early = await call(clerk, 'POST', '/inv/wine/saveTempOrder', { step: 3, data: { carrierCode: `CR-${TAG}` } });
    expect(fields(early)).toEqual(['step:FIELD_RANGE']);
  });

  it('offers only wine items of the owner with their stock, and refuses a gift, a foreign SKU, a repeated SKU or a zero quantity', async () => {
    const items = json<{ rows: Array<{ code: string; available: string }> }>(await call(clerk, 'GET', `/inv/wine/items?ownerId=${f.ownerId}&text=${TAG}`)).rows;
    expect(items.map((i) => [i.code, Number(i.available)])).toEqual([
      [`SKU-${TAG}-0`, 10],
      [`SKU-${TAG}-1`, 5],
    ]);
    const bad = await call(clerk, 'POST', '/inv/wine/saveTempOrder', {
      step: 2,
      data: { lines: [{ skuId: giftId, qty: '1' }, { skuId: foreignSkuId, qty: '1' }, { skuId: f.skuIds[0], qty: '0' }] },
    });
    expect(fields(bad)).toEqual(['data.lines[2].qty:QTY_NOT_POSITIVE']);
    const foreign = await call(clerk, 'POST', '/inv/wine/saveTempOrder', { step: 2, data: { lines: [{ skuId: giftId, qty: '1' }, { skuId: foreignSkuId, qty: '1' }] } });
    expect(fields(foreign)).toEqual(['lines[0].skuId:FIELD_FOREIGN', 'lines[1].skuId:FIELD_FOREIGN']);
    const twice = await call(clerk, 'POST', '/inv/wine/saveTempOrder', { step: 2, data: { lines: [{ skuId: f.skuIds[0], qty: '1' }, { skuId: f.skuIds[0], qty: '2' }] } });
    expect(fields(twice)).toEqual(['lines[1].skuId:FIELD_NOT_UNIQUE']);
    const good = await call(clerk, 'POST', '/inv/wine/saveTempOrder', { step: 2, data: { lines: [{ skuId: f.skuIds[0], qty: '4' }, { skuId: f.skuIds[1], qty: '2.5' }] } });
    expect(good.statusCode, good.body).toBe(200);
    expect(json<{ currentStep: number; items: Array<{ code: string }> }>(good)).toMatchObject({ currentStep: 3, items: [{ code: `SKU-${TAG}-0` }, { code: `SKU-${TAG}-1` }] });
  });

  it('checks the courier and the VAS instructions', async () => {
    const unknown = await call(clerk, 'POST', '/inv/wine/saveTempOrder', { step: 3, data: { carrierCode: 'NOPE', vasInstructions: ['GIFTWRAP', 'NOPE'] } });
    expect(fields(unknown)).toEqual(['carrierCode:FIELD_FOREIGN', 'vasInstructions[1]:FIELD_FOREIGN']);
    const codes = json<{ rows: Array<{ code: string }> }>(await call(clerk, 'GET', '/inv/wine/vasInstruction')).rows.map((r) => r.code);
    expect(codes).toEqual(expect.arrayContaining(['LABEL', 'GIFTWRAP']));
    const good = await call(clerk, 'POST', '/inv/wine/saveTempOrder', { step: 3, data: { carrierCode: `CR-${TAG}`, vasInstructions: ['GIFTWRAP'], instructionText: 'Keep upright' } });
    expect(json(good)).toMatchObject({ currentStep: 4 });
  });

  it('resumes at the same step with the same data in a new session, and goes back keeping the data', async () => {
    const again = await signIn(t.app, `wz-clerk-${TAG}`, TEST_USER_PASSWORD);
    const resumed = json<{ currentStep: number; data: Record<string, unknown> }>(await call(again, 'GET', '/inv/wine/allInfo'));
    expect(resumed.currentStep).toBe(4);
    expect(resumed.data).toMatchObject({ ...STEP1, carrierCode: `CR-${TAG}`, lines: [{ skuId: f.skuIds[0], qty: '4' }, { skuId: f.skuIds[1], qty: '2.5' }] });
    const back = await call(again, 'POST', '/inv/wine/addTempOrder', { step: 2 });
    expect(json(back)).toMatchObject({ currentStep: 2, data: { carrierCode: `CR-${TAG}` } });
    // Forward again to a step already reached.
    expect(json(await call(again, 'POST', '/inv/wine/addTempOrder', { step: 4 }))).toMatchObject({ currentStep: 4 });
  });

  it('keeps temporary orders per user: another user sees none, and without the add right cannot save', async () => {
    expect(json(await call(viewer, 'GET', '/inv/wine/allInfo'))).toMatchObject({ currentStep: 1, data: {} });
    const refused = await call(viewer, 'POST', '/inv/wine/saveTempOrder', { step: 1, data: STEP1 });
    expect(refused.statusCode).toBe(403);
  });

  it('submits: a sales order with its lines, the VAS instructions in its remark, and the temporary order gone', async () => {
    const past = await call(clerk, 'POST', '/inv/wine/saveTempOrder', { step: 4, data: { requiredShipDate: '2020-01-01' } });
    expect(fields(past)).toEqual(['requiredShipDate:FIELD_RANGE']);
    const step4 = await call(clerk, 'POST', '/inv/wine/saveTempOrder', { step: 4, data: { requiredShipDate: '2099-12-31', remark: 'Ring twice' } });
    expect(json(step4)).toMatchObject({ currentStep: 5 });
    const submitted = await call(clerk, 'POST', '/inv/wine/saveOrder');
    expect(submitted.statusCode, submitted.body).toBe(200);
    const { soId, orderNo } = json<{ soId: number; orderNo: string }>(submitted);
    expect(orderNo).toMatch(/^SO\d{6}\d{5}$/);
    const order = await db().selectFrom('so_header').selectAll().where('id', '=', soId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ order_no: orderNo, owner_id: f.ownerId, status: 'new', ship_to_name: 'Cellar & Co', customer_order_no: `CO-${TAG}`, carrier_code: `CR-${TAG}` });
    expect(order.remark).toBe('Ring twice\nVAS: GIFTWRAP; Keep upright');
    const lines = await db().selectFrom('so_line').select(['sku_id', 'qty']).where('so_id', '=', soId).orderBy('line_no').execute();
    expect(lines.map((l) => [Number(l.sku_id), Number(l.qty)])).toEqual([
      [f.skuIds[0], 4],
      [f.skuIds[1], 2.5],
    ]);
    expect(json(await call(clerk, 'GET', '/inv/wine/allInfo'))).toMatchObject({ currentStep: 1, data: {} });
    const twice = await call(clerk, 'POST', '/inv/wine/saveOrder');
    expect(twice.statusCode).toBe(404);
  });
});

describe('the non-merchandise order wizard', () => {
  it('offers only non-merchandise items, keeps its own temporary order, and clears it on reset', async () => {
    const items = json<{ rows: Array<{ id: number }> }>(await call(clerk, 'GET', `/so/inv/allNonMer?ownerId=${f.ownerId}&text=${TAG}`)).rows;
    expect(items.map((i) => i.id)).toEqual([giftId]);
    await call(clerk, 'POST', '/inv/nonMer/addTempOrder', { step: 1, data: STEP1 });
    const wine = await call(clerk, 'POST', '/inv/nonMer/addTempOrder', { step: 2, data: { lines: [{ skuId: f.skuIds[0], qty: '1' }] } });
    expect(fields(wine)).toEqual(['lines[0].skuId:FIELD_FOREIGN']);
    const gift = await call(clerk, 'POST', '/inv/nonMer/addTempOrder', { step: 2, data: { lines: [{ skuId: giftId, qty: '3' }] } });
    expect(json(gift)).toMatchObject({ currentStep: 3 });
    expect(json(await call(clerk, 'GET', '/inv/nonMer/findTempSoOrderInfo'))).toMatchObject({ kind: 'nonMer', currentStep: 3 });
    expect(json(await call(clerk, 'GET', '/inv/wine/allInfo'))).toMatchObject({ currentStep: 1 });
    expect(json(await call(clerk, 'POST', '/inv/nonMer/currentStep', { step: 1 }))).toMatchObject({ currentStep: 1 });
    const skip = await call(clerk, 'POST', '/inv/nonMer/currentStep', { step: 5 });
    expect(fields(skip)).toEqual(['step:FIELD_RANGE']);
    expect(json(await call(clerk, 'POST', '/inv/nonMer/resetTempOrder'))).toEqual({ cleared: true });
    expect(json(await call(clerk, 'GET', '/inv/nonMer/tempOrder'))).toMatchObject({ currentStep: 1, data: {} });
  });

  it('refuses bad input before the database: a step out of range, a wrong quantity, unknown fields', async () => {
    for (const payload of [{ step: 0, data: {} }, { step: 6, data: {} }, { step: 2, data: { lines: [{ skuId: giftId, qty: '-1' }] } }, { step: 1, data: { extra: 1 } }, { step: 1 }]) {
      const response = await call(clerk, 'POST', '/inv/nonMer/addTempOrder', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});
