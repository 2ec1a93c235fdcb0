import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResPlanListAnswer, ResPlanRate, ResPlanShift, ResPlanWithLines } from '../../src/common/resplan-api.js';
import { buildTestApp, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderCalls, outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * Resource planning through the real server (docs/resplan.md): a shift with its people and
 * equipment per activity and the warehouse's rates are set up; a draft plan of a date and the shift
 * counts the open work of the warehouse (an ASN's lines still to receive, an allocated order's
 * lines still to pick) and turns it into labour and equipment hours, checked here by hand against
 * the rates; more work and a new calculation change a draft, confirming freezes it. Refused, with
 * nothing changed: a plan without a shift or with an unknown one, a shift not running on the date,
 * open work without a rate, confirming twice or before calculating, deleting or calculating a
 * confirmed plan, and every record of the warehouse from a session of another warehouse.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
let orders: ReturnType<typeof orderCalls>;
const RUN = `${Date.now().toString(36).toUpperCase()}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
const TAG = `RP${RUN}`;

const db = () => t.database.db;
const call = (url: string, payload: Record<string, unknown>, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload, headers: { 'x-language': 'en' } });

async function ok<T = Record<string, unknown>>(url: string, payload: Record<string, unknown>, token = admin): Promise<T> {
  const response = await call(url, payload, token);
  expect(response.statusCode, `${url} ${response.body}`).toBe(200);
  return json<T>(response);
}

/** What a refused call must leave as it was. */
async function snapshot() {
  return {
    plans: await db().selectFrom('resplan_header').selectAll().orderBy('id').execute(),
    lines: await db().selectFrom('resplan_line').selectAll().orderBy('id').execute(),
    shifts: await db().selectFrom('resplan_shift').selectAll().orderBy('id').execute(),
    resources: await db().selectFrom('resplan_shift_resource').selectAll().orderBy('id').execute(),
    rates: await db().selectFrom('resplan_rate').selectAll().orderBy('id').execute(),
  };
}

async function refused(url: string, payload: Record<string, unknown>, status: number, code: string, token = admin): Promise<{ code: string; message: string }> {
  const before = await snapshot();
  const response = await call(url, payload, token);
  expect(response.statusCode, response.body).toBe(status);
  const body = json<{ code: string; message: string }>(response);
  expect(body.code).toBe(code);
  expect(body.message).not.toBe(`errors.${code}`);
  expect(await snapshot()).toEqual(before);
  return body;
}

const ALL_DAYS = [1, 2, 3, 4, 5, 6, 7];
/** A Tuesday, and the Monday before it. */
const TUESDAY = '2031-01-07';
const MONDAY = '2031-01-06';

let shift: ResPlanShift;
let baseline: Record<string, number>;

const line = (plan: ResPlanWithLines, activity: string) => plan.lines.find((l) => l.activity === activity)!;
const newPlan = (planDate = TUESDAY, shiftId = shift.id) => ok<ResPlanWithLines>('/saveResPlanHeader', { planDate, shiftId });
const calculate = (id: number) => ok<ResPlanWithLines>('/calculateResPlan', { id });

/** An ASN of the fixture's owner with one line per SKU (expected, none received). */
async function newAsn(lines: number): Promise<number> {
  const asn = await ok<{ id: number }>('/asn/saveHeader', { ownerCode: `OW-${TAG}` });
  await ok('/asn/saveDetail', { asnId: asn.id, lines: Array.from({ length: lines }, (_, i) => ({ skuCode: `SKU-${TAG}-${i}`, expectedQty: 5 })) });
  return asn.id;
}

let orderSeq = 0;
/** An order of the fixture's owner with one line per SKU, allocated (each line from one balance row). */
async function allocatedOrder(skus: number): Promise<number> {
  orderSeq += 1;
  const soId = await orders.enter(`${TAG}-${orderSeq}`, f.ownerId, Array.from({ length: skus }, (_, i) => ({ skuCode: `SKU-${TAG}-${i}`, qty: 1 })));
  await orders.allocate(soId);
  return soId;
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(db(), TAG, 3);
  for (const [i, skuId] of f.skuIds.entries()) await stock(db(), f, skuId, f.locationIds[1 + i], 50);
  orders = orderCalls(t.app, admin, db());
});

afterAll(async () => {
  await t?.close();
});

describe('shifts and rates', () => {
  it('saves a shift with its people and equipment per activity, each head working the shift unless told otherwise', async () => {
    shift = await ok<ResPlanShift>('/saveResPlanShift', {
      code: `D${RUN}`,
      name: 'Day shift',
      startTime: '06:00',
      endTime: '14:00',
      daysOfWeek: [5, 1, 2, 3, 4, 6, 7],
      resources: [
        { activity: 'receiving', headcount: 2, equipmentCount: 1 },
        { activity: 'putaway', headcount: 1, hoursPerHead: '7.5', equipmentCount: 1 },
        // Picking has no one: any picking work is over capacity.
        { activity: 'picking', headcount: 0, equipmentCount: 0 },
        { activity: 'packing', headcount: 1 },
        { activity: 'loading', headcount: 1, hoursPerHead: 4, equipmentCount: 1 },
      ],
    });
    expect(shift).toMatchObject({ code: `D${RUN}`, startTime: '06:00', endTime: '14:00', daysOfWeek: ALL_DAYS, active: true, hours: '8.00' });
    expect(shift.resources).toEqual([
      { activity: 'receiving', headcount: 2, hoursPerHead: '8', equipmentCount: 1 },
      { activity: 'putaway', headcount: 1, hoursPerHead: '7.5', equipmentCount: 1 },
      { activity: 'picking', headcount: 0, hoursPerHead: '8', equipmentCount: 0 },
      { activity: 'packing', headcount: 1, hoursPerHead: '8', equipmentCount: 0 },
      { activity: 'loading', headcount: 1, hoursPerHead: '4', equipmentCount: 1 },
    ]);
    // A night shift runs through midnight.
    const night = await ok<ResPlanShift>('/saveResPlanShift', { code: `N${RUN}`, name: 'Night', startTime: '22:00', endTime: '06:00', daysOfWeek: [1] });
    expect(night.hours).toBe('8.00');
    const list = await ok<{ rows: ResPlanShift[] }>('/getResPlanShiftList', {});
    expect(list.rows.map((s) => s.code)).toEqual(expect.arrayContaining([`D${RUN}`, `N${RUN}`]));
  });

  it('refuses a second shift of one code, a shift ending when it starts, and an activity twice', async () => {
    await refused('/saveResPlanShift', { code: `D${RUN}`, name: 'Again', startTime: '06:00', endTime: '14:00', daysOfWeek: [1] }, 409, 'DUPLICATE_VALUE');
    await refused('/saveResPlanShift', { code: `X${RUN}`, name: 'Zero', startTime: '06:00', endTime: '06:00', daysOfWeek: [1] }, 400, 'RESPLAN_SHIFT_TIMES');
    const twice = await refused(
      '/saveResPlanShift',
      { code: `X${RUN}`, name: 'Twice', startTime: '06:00', endTime: '08:00', daysOfWeek: [1], resources: [{ activity: 'picking', headcount: 1 }, { activity: 'picking', headcount: 2 }] },
      400,
      'VALIDATION_FAILED',
    );
    expect(twice.message).toBeTruthy();
    await refused('/saveResPlanShift', { code: `X${RUN}`, name: 'Long', startTime: '06:00', endTime: '08:00', daysOfWeek: [1], resources: [{ activity: 'picking', headcount: 1, hoursPerHead: 25 }] }, 400, 'VALIDATION_FAILED');
    await refused('/saveResPlanShift', { code: `X${RUN}`, name: 'No day', startTime: '06:00', endTime: '08:00', daysOfWeek: [] }, 400, 'VALIDATION_FAILED');
  });

  it('keeps one rate per activity and the equipment kind with its units per equipment hour', async () => {
    const rates: Array<Record<string, unknown>> = [
      { activity: 'receiving', unitsPerLabourHour: 4, equipmentKind: 'rfGun', unitsPerEquipmentHour: 8 },
      { activity: 'putaway', unitsPerLabourHour: 10, equipmentKind: 'forklift', unitsPerEquipmentHour: 12 },
      { activity: 'picking', unitsPerLabourHour: '2.5' },
      { activity: 'packing', unitsPerLabourHour: 20 },
      { activity: 'loading', unitsPerLabourHour: 30, equipmentKind: 'palletJack', unitsPerEquipmentHour: 40 },
    ];
    for (const rate of rates) await ok('/saveResPlanRate', rate);
    // Without id, the activity's rate is replaced, not doubled.
    await ok('/saveResPlanRate', { activity: 'picking', unitsPerLabourHour: 3 });
    const list = await ok<{ rows: ResPlanRate[] }>('/getResPlanRateList', {});
    expect(list.rows.map((r) => [r.activity, r.unitsPerLabourHour, r.equipmentKind, r.unitsPerEquipmentHour])).toEqual([
      ['receiving', '4', 'rfGun', '8'],
      ['putaway', '10', 'forklift', '12'],
      ['picking', '3', null, null],
      ['packing', '20', null, null],
      ['loading', '30', 'palletJack', '40'],
    ]);
    await refused('/saveResPlanRate', { activity: 'picking', unitsPerLabourHour: 3, equipmentKind: 'forklift' }, 400, 'VALIDATION_FAILED');
    await refused('/saveResPlanRate', { activity: 'picking', unitsPerLabourHour: 0 }, 400, 'QTY_NOT_POSITIVE');
    await refused('/saveResPlanRate', { activity: 'sorting', unitsPerLabourHour: 3 }, 400, 'VALIDATION_FAILED');
  });
});

describe('a plan calculated from the open work', () => {
  let plan: ResPlanWithLines;

  it('makes a numbered draft of a date and shift, without lines until calculated', async () => {
    plan = await newPlan();
    expect(plan).toMatchObject({ status: 'draft', planDate: TUESDAY, shiftId: shift.id, shiftCode: `D${RUN}`, lines: [], calculatedAt: null, createdBy: 'admin' });
    expect(plan.planNo).toMatch(/^RP\d{6}\d{4}$/);
    // Before any work of this test: the file's own database has no open work.
    const first = await calculate(plan.id);
    baseline = Object.fromEntries(first.lines.map((l) => [l.activity, Number(l.openQty)]));
    expect(first.lines.map((l) => l.activity)).toEqual(['receiving', 'putaway', 'picking', 'packing', 'loading']);
    expect(baseline).toEqual({ receiving: 0, putaway: 0, picking: 0, packing: 0, loading: 0 });
    expect(first).toMatchObject({ requiredLabourHours: '0.00', availableLabourHours: '35.50', overCapacity: false });
  });

  it('counts ASN lines to receive and allocated lines to pick, and works out the hours by the rates', async () => {
    await newAsn(3);
    await allocatedOrder(2);
    plan = await calculate(plan.id);
    const receiving = line(plan, 'receiving');
    const picking = line(plan, 'picking');
    expect(plan.lines.map((l) => [l.activity, l.openQty])).toEqual([
      ['receiving', '3'],
      ['putaway', '0'],
      ['picking', '2'],
      ['packing', '0'],
      ['loading', '0'],
    ]);
    // By hand. Receiving: 3 lines at 4 per labour hour = 0.75 h; at 8 per RF gun hour = 0.375, 0.38 h;
    // 2 heads x 8 h = 16 h and 1 gun x 8 h = 8 h available.
    expect(receiving).toEqual({
      activity: 'receiving',
      openQty: '3',
      unitsPerLabourHour: '4',
      labourHours: '0.75',
      equipmentKind: 'rfGun',
      unitsPerEquipmentHour: '8',
      equipmentHours: '0.38',
      headcount: 2,
      hoursPerHead: '8',
      equipmentCount: 1,
      availableLabourHours: '16.00',
      availableEquipmentHours: '8.00',
      labourGap: '15.25',
      equipmentGap: '7.62',
      overCapacity: false,
    });
    // Picking: 2 lines at 3 per hour = 0.666.., 0.67 h with nobody on the shift: over capacity.
    expect(picking).toMatchObject({ openQty: '2', labourHours: '0.67', equipmentHours: '0.00', availableLabourHours: '0.00', labourGap: '-0.67', overCapacity: true });
    // Putaway has no work: 0 h needed of 1 x 7.5 h.
    expect(line(plan, 'putaway')).toMatchObject({ openQty: '0', labourHours: '0.00', availableLabourHours: '7.50', availableEquipmentHours: '7.50', overCapacity: false });
    // The plan: 0.75 + 0.67 h required of 16 + 7.5 + 0 + 8 + 4 = 35.5 h available.
    expect(plan).toMatchObject({ requiredLabourHours: '1.42', availableLabourHours: '35.50', overCapacity: true });
    expect(plan.calculatedAt).not.toBeNull();
  });

  it('calculates a draft again with the work open now: a line received waits for putaway, another order waits for picking', async () => {
    await allocatedOrder(3);
    const [first] = await db().selectFrom('asn_line').select('id').where('sku_id', '=', f.skuIds[0]).orderBy('id').execute();
    await ok('/inbound/batch/receive', { lines: [{ asnLineId: first.id, qty: 5, locationCode: `L-${TAG}-3` }] });
    plan = await calculate(plan.id);
    expect(plan.lines.map((l) => [l.activity, l.openQty])).toEqual([
      ['receiving', '2'],
      ['putaway', '1'],
      ['picking', '5'],
      ['packing', '0'],
      ['loading', '0'],
    ]);
    // Putaway: 1 pallet at 10 per hour = 0.1 h, at 12 per forklift hour = 0.083.., 0.08 h.
    expect(line(plan, 'putaway')).toMatchObject({ labourHours: '0.10', equipmentKind: 'forklift', equipmentHours: '0.08', overCapacity: false });
    const again = await ok<ResPlanWithLines>('/getResPlanHeader', { id: plan.id });
    expect(again.lines).toEqual(plan.lines);
  });

  it('refuses open work of an activity without a rate, and calculates once the rate is back', async () => {
    const rates = await ok<{ rows: ResPlanRate[] }>('/getResPlanRateList', {});
    const receiving = rates.rows.find((r) => r.activity === 'receiving')!;
    await ok('/deleteResPlanRate', { id: receiving.id });
    const body = await refused('/calculateResPlan', { id: plan.id }, 409, 'RESPLAN_RATE_MISSING');
    expect(body.message).toContain('receiving');
    await ok('/saveResPlanRate', { activity: 'receiving', unitsPerLabourHour: 4, equipmentKind: 'rfGun', unitsPerEquipmentHour: 8 });
    await calculate(plan.id);
  });

  it('confirms a calculated draft once; a confirmed plan is neither calculated, changed nor deleted', async () => {
    const fresh = await newPlan();
    await refused('/confirmResPlan', { id: fresh.id }, 409, 'RESPLAN_NOT_CALCULATED');
    const confirmed = await ok<ResPlanWithLines>('/confirmResPlan', { id: plan.id });
    expect(confirmed).toMatchObject({ status: 'confirmed', confirmedBy: 'admin' });
    expect(confirmed.lines).toEqual(plan.lines);
    const twice = await refused('/confirmResPlan', { id: plan.id }, 409, 'RESPLAN_PLAN_CONFIRMED');
    expect(twice.message).toBe(`Resource plan ${plan.planNo} is confirmed and can no longer be changed.`);
    await refused('/deleteResPlanHeader', { id: plan.id }, 409, 'RESPLAN_PLAN_CONFIRMED');
    await refused('/calculateResPlan', { id: plan.id }, 409, 'RESPLAN_PLAN_CONFIRMED');
    await refused('/saveResPlanHeader', { id: plan.id, planDate: TUESDAY, shiftId: shift.id, remark: 'late change' }, 409, 'RESPLAN_PLAN_CONFIRMED');
    // Frozen: more open work changes nothing of it.
    await newAsn(1);
    expect((await ok<ResPlanWithLines>('/getResPlanHeader', { id: plan.id })).lines).toEqual(plan.lines);
    // A shift a plan names is not deleted.
    await refused('/deleteResPlanShift', { id: shift.id }, 409, 'RECORD_IN_USE');
    // A draft is deleted, with its lines.
    await calculate(fresh.id);
    expect(await ok('/deleteResPlanHeader', { id: fresh.id })).toMatchObject({ deleted: fresh.id, planNo: fresh.planNo });
    expect(await db().selectFrom('resplan_line').select('id').where('plan_id', '=', fresh.id).execute()).toEqual([]);
    await refused('/getResPlanHeader', { id: fresh.id }, 404, 'RESPLAN_PLAN_UNKNOWN');
  });

  it('refuses a plan without a shift, with an unknown or inactive one, or on a day the shift does not run', async () => {
    await refused('/saveResPlanHeader', { planDate: TUESDAY }, 400, 'VALIDATION_FAILED');
    await refused('/saveResPlanHeader', { planDate: TUESDAY, shiftId: 999999999 }, 404, 'RESPLAN_SHIFT_UNKNOWN');
    await refused('/saveResPlanHeader', { planDate: '2031-02-30', shiftId: shift.id }, 400, 'VALIDATION_FAILED');
    const mondays = await ok<ResPlanShift>('/saveResPlanShift', { code: `M${RUN}`, name: 'Mondays', startTime: '08:00', endTime: '12:00', daysOfWeek: [1] });
    const body = await refused('/saveResPlanHeader', { planDate: TUESDAY, shiftId: mondays.id }, 409, 'RESPLAN_SHIFT_NOT_ON_DAY');
    expect(body.message).toBe(`Shift M${RUN} does not run on ${TUESDAY}.`);
    const monday = await newPlan(MONDAY, mondays.id);
    // Moving a draft to another day of the shift is refused too; the shift made inactive refuses its calculation.
    await refused('/saveResPlanHeader', { id: monday.id, planDate: TUESDAY, shiftId: mondays.id }, 409, 'RESPLAN_SHIFT_NOT_ON_DAY');
    await ok('/saveResPlanShift', { id: mondays.id, code: `M${RUN}`, name: 'Mondays', startTime: '08:00', endTime: '12:00', daysOfWeek: [1], active: false });
    await refused('/calculateResPlan', { id: monday.id }, 409, 'RESPLAN_SHIFT_INACTIVE');
  });

  it('lists plans a page at a time with filters', async () => {
    const a = await newPlan('2031-03-03');
    await newPlan('2031-03-04');
    const page = await ok<ResPlanListAnswer>('/getResPlanHeaderList', { dateFrom: '2031-03-01', dateTo: '2031-03-31', pageSize: 1 });
    expect(page.total).toBe(2);
    expect(page.rows.map((r) => r.planDate)).toEqual(['2031-03-04']);
    const second = await ok<ResPlanListAnswer>('/getResPlanHeaderList', { dateFrom: '2031-03-01', dateTo: '2031-03-31', pageSize: 1, page: 2 });
    expect(second.rows.map((r) => r.planNo)).toEqual([a.planNo]);
    const confirmed = await ok<ResPlanListAnswer>('/getResPlanHeaderList', { status: 'confirmed', shiftId: shift.id });
    expect(confirmed.rows.map((r) => r.planNo)).toEqual([plan.planNo]);
    expect(confirmed.rows[0]).toMatchObject({ shiftCode: `D${RUN}`, overCapacity: true, requiredLabourHours: plan.requiredLabourHours });
    const byNo = await ok<ResPlanListAnswer>('/getResPlanHeaderList', { planNo: a.planNo.slice(2) });
    expect(byNo.rows.map((r) => r.planNo)).toContain(a.planNo);
    await refused('/getResPlanHeaderList', { pageSize: 1000 }, 400, 'VALIDATION_FAILED');
  });

  it("answers not found to another warehouse's session for every plan, shift and rate of this one", async () => {
    const org = await db().selectFrom('organization').select('id').executeTakeFirstOrThrow();
    const wh2 = await db()
      .insertInto('warehouse')
      .values({ organization_id: org.id, code: `W${RUN}`.slice(0, 20), name: 'Other warehouse', nav_layout: null, created_by: 'test', updated_by: 'test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const prj1 = await db().selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
    await db().insertInto('project_warehouse').values({ project_id: prj1.id, warehouse_id: wh2.id }).execute();
    const rights = (['view', 'add', 'edit', 'delete'] as const).map((a) => `resplan.resPlan:${a}` as const);
    const other = (await createUserAccount(t, { loginAccount: `rp-other-${RUN}`.toLowerCase(), rights, projectCodes: ['PRJ1'], warehouseCodes: [`W${RUN}`.slice(0, 20)] })).token;
    const rate = (await ok<{ rows: ResPlanRate[] }>('/getResPlanRateList', {})).rows[0];

    for (const url of ['/getResPlanHeader', '/calculateResPlan', '/confirmResPlan', '/deleteResPlanHeader']) await refused(url, { id: plan.id }, 404, 'RESPLAN_PLAN_UNKNOWN', other);
    await refused('/saveResPlanHeader', { id: plan.id, planDate: TUESDAY, shiftId: shift.id }, 404, 'RESPLAN_PLAN_UNKNOWN', other);
    await refused('/saveResPlanHeader', { planDate: TUESDAY, shiftId: shift.id }, 404, 'RESPLAN_SHIFT_UNKNOWN', other);
    await refused('/deleteResPlanShift', { id: shift.id }, 404, 'RESPLAN_SHIFT_UNKNOWN', other);
    await refused('/saveResPlanShift', { id: shift.id, code: 'TAKEN', name: 'Taken over', startTime: '06:00', endTime: '14:00', daysOfWeek: [1] }, 404, 'RESPLAN_SHIFT_UNKNOWN', other);
    await refused('/deleteResPlanRate', { id: rate.id }, 404, 'RESPLAN_RATE_UNKNOWN', other);
    await refused('/saveResPlanRate', { id: rate.id, activity: rate.activity, unitsPerLabourHour: 99 }, 404, 'RESPLAN_RATE_UNKNOWN', other);
    expect((await ok<ResPlanListAnswer>('/getResPlanHeaderList', {}, other)).total).toBe(0);
    expect((await ok<{ rows: ResPlanShift[] }>('/getResPlanShiftList', {}, other)).rows).toEqual([]);
    expect((await ok<{ rows: ResPlanRate[] }>('/getResPlanRateList', {}, other)).rows).toEqual([]);

    // Its own shift, rates and plan count its own warehouse's work only: none.
    const own = await ok<ResPlanShift>('/saveResPlanShift', { code: `D${RUN}`, name: 'Their day', startTime: '06:00', endTime: '14:00', daysOfWeek: ALL_DAYS }, other);
    const theirs = await ok<ResPlanWithLines>('/saveResPlanHeader', { planDate: TUESDAY, shiftId: own.id }, other);
    const calculated = await ok<ResPlanWithLines>('/calculateResPlan', { id: theirs.id }, other);
    expect(calculated.lines.map((l) => l.openQty)).toEqual(['0', '0', '0', '0', '0']);
  });

  it('refuses a signed-in user without the right', async () => {
    const viewer = (await createUserAccount(t, { loginAccount: `rp-viewer-${RUN}`.toLowerCase(), rights: ['resplan.resPlan:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] })).token;
    expect((await ok<ResPlanListAnswer>('/getResPlanHeaderList', {}, viewer)).total).toBeGreaterThan(0);
    await refused('/calculateResPlan', { id: plan.id }, 403, 'FORBIDDEN', viewer);
    await refused('/saveResPlanHeader', { planDate: TUESDAY, shiftId: shift.id }, 403, 'FORBIDDEN', viewer);
  });
});
