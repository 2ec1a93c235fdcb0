import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RightName } from '../../src/common/rights.js';
import type { ConfirmPickAnswer, PickTasksAnswer } from '../../src/common/outbound-api.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderInvariantViolations } from '../helpers/order-invariant.js';
import { orderCalls, outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * A short pick that looks for the rest elsewhere holds what the picker did not find at the task's
 * location; the hold is an exception flow in the same transaction, never silent: the picker's
 * answer names what was held (SKU, lot, location, quantity) in the picker's language, the holders
 * of the count's approve verb in the warehouse get a notice (not the picker, not a user without
 * the verb, not another warehouse), a count ticket for the location is raised, and approving that
 * count ends the hold, leaving what was counted on hand and available. The order invariant holds
 * throughout.
 */
let t: TestApp;
let admin: string;
let picker: string;
let supervisor: string;
let clerk: string;
let elsewhere: string;
let f: OutboundFixture;
let orderSeq = 0;

const COUNT_RIGHTS = ['inventory.cycleCount:view', 'inventory.cycleCount:edit', 'inventory.cycleCountLine:view', 'inventory.cycleCountLine:edit', 'inventory.count:approve'] as RightName[];
const PICK_RIGHTS = ['outbound.pick:view', 'outbound.pick:confirm'] as RightName[];

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(t.database.db, 'SH', 10, 5);
  await t.database.db.insertInto('location').values({ warehouse_id: f.scope.warehouseId, code: 'STAGE-SH', location_type: 'stage' }).execute();
  // A second warehouse of the project, whose approver is not told of this one's holds.
  const project = await t.database.db.selectFrom('project').select(['id', 'organization_id']).where('id', '=', f.scope.projectId).executeTakeFirstOrThrow();
  const wh2 = await t.database.db.insertInto('warehouse').values({ organization_id: project.organization_id, code: 'WH2', name: 'Second', nav_layout: null }).returning('id').executeTakeFirstOrThrow();
  await t.database.db.insertInto('project_warehouse').values({ project_id: project.id, warehouse_id: wh2.id }).execute();
  // The picker may approve counts too: still never told of the hold his own pick made.
  picker = await createUser(t, { loginAccount: 'sh-picker', rights: [...PICK_RIGHTS, 'inventory.count:approve'] as RightName[], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  supervisor = await createUser(t, { loginAccount: 'sh-supervisor', rights: COUNT_RIGHTS, projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  clerk = await createUser(t, { loginAccount: 'sh-clerk', rights: [...PICK_RIGHTS, 'inventory.cycleCount:view'] as RightName[], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  elsewhere = await createUser(t, { loginAccount: 'sh-other-wh', rights: COUNT_RIGHTS, projectCodes: ['PRJ1'], warehouseCodes: ['WH2'] });
});

afterAll(async () => {
  await t?.close();
});

const db = () => t.database.db;
const call = (url: string, payload: Record<string, unknown>, token = admin, headers: Record<string, string> = {}) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload, headers });
const gen = (functionCode: string, url: string, payload: Record<string, unknown>) =>
  injectAs(t.app, admin, { method: 'POST', url: `/api/generic/${url}`, payload: { moduleCode: 'outbound', functionCode, ...payload } });
const newOrder = (lines: Array<{ skuId: number; qty: number }>) =>
  orderCalls(t.app, admin, db()).enterOnPages({ order_no: `SOSH-${++orderSeq}`, owner_id: f.ownerId, required_ship_date: '2030-02-15', carrier_code: 'SHC' }, lines);

const tasksOf = (soId: number) => db().selectFrom('pick_task').selectAll().where('so_id', '=', soId).orderBy('id').execute();
const balanceAt = (skuId: number, locationId: number) =>
  db().selectFrom('inventory_balance').select(['id', 'on_hand_qty', 'allocated_qty', 'picked_qty', 'held_qty']).where('sku_id', '=', skuId).where('location_id', '=', locationId).where('lpn', '=', '').executeTakeFirstOrThrow();
const codeOf = async (table: 'location' | 'sku', id: number) => (await db().selectFrom(table).select('code').where('id', '=', id).executeTakeFirstOrThrow()).code;
const ticketByNo = (ticketNo: string) => db().selectFrom('count_ticket').select(['id', 'status', 'ticket_no']).where('ticket_no', '=', ticketNo).executeTakeFirstOrThrow();
const linesOfTicket = (ticketId: number) =>
  db().selectFrom('count_ticket_line').select(['id', 'location_id', 'sku_id', 'system_qty', 'hold_qty', 'status']).where('ticket_id', '=', ticketId).orderBy('line_no').execute();
/** Open or counted tickets of the project that cover the location. */
const openTicketsAt = async (locationId: number) =>
  (
    await db()
      .selectFrom('count_ticket as t')
      .innerJoin('count_ticket_line as l', 'l.ticket_id', 't.id')
      .select('t.ticket_no')
      .distinct()
      .where('l.location_id', '=', locationId)
      .where('t.status', 'in', ['open', 'counted'])
      .execute()
  ).map((r) => r.ticket_no);

interface Notice {
  category: string;
  title: string;
  body: string | null;
  link: string | null;
}
const notices = async (token: string) =>
  json<{ items: Notice[] }>(await injectAs(t.app, token, { method: 'GET', url: '/api/notification/latest?limit=50' })).items.filter((i) => i.title.startsWith('Short pick'));

async function confirmBody(task: { id: number; location_id: number; sku_id: number }, body: Record<string, unknown>) {
  return { taskId: task.id, locationCode: await codeOf('location', Number(task.location_id)), sku: await codeOf('sku', Number(task.sku_id)), toLpn: 'TOTE-SH', ...body };
}

async function expectInvariant() {
  expect(await orderInvariantViolations(db())).toEqual([]);
}

/** Counts every line of the ticket (the held row at `counted`, the others as they are) and approves it as the supervisor. */
async function countAndApprove(ticketNo: string, heldSku: number, counted: number) {
  const ticket = await ticketByNo(ticketNo);
  for (const line of await linesOfTicket(Number(ticket.id))) {
    const qty = Number(line.sku_id) === heldSku ? counted : new Decimal(line.system_qty).toNumber();
    const entered = await call('/inventory/cycleCount/count', { lineId: Number(line.id), qty }, supervisor);
    expect(entered.statusCode, entered.body).toBe(200);
  }
  return call('/inventory/cycleCount/approve', { id: Number(ticket.id) }, supervisor);
}

describe('a short pick that holds stock tells everyone what it held', () => {
  it('names what was held, tells the supervisor, raises a count of the location; the count that finds it all ends the hold', async () => {
    const sku = f.skuIds[0];
    const lot = 'LOT-SH-A';
    // 8 in the pick face (5 for the order, 3 free), 6 in reserve.
    await stock(db(), f, sku, f.locationIds[0], 8, { lotNo: lot });
    await stock(db(), f, sku, f.locationIds[2], 6);
    const so = await newOrder([{ skuId: sku, qty: 5 }]);
    expect((await gen('so', 'behavior', { behaviour: 'allocate', keys: [so], inputs: {} })).statusCode).toBe(200);
    expect((await call('/so/pick', { soId: so })).statusCode).toBe(200);
    const [task] = await tasksOf(so);
    const orderNo = `SOSH-${orderSeq}`;
    const [skuCode, locationCode] = [await codeOf('sku', sku), await codeOf('location', f.locationIds[0])];

    const response = await call('/pick/confirm', await confirmBody(task, { qty: 2, shortReason: 'Not found', reallocate: true }), picker);
    expect(response.statusCode, response.body).toBe(200);
    const answer = json<ConfirmPickAnswer>(response);
    // The picker is told exactly what was held: the 6 left at the pick face, SKU, lot, location, and the count.
    expect(answer).toMatchObject({ taskStatus: 'short', shortQty: '3', reallocatedQty: '3', heldQty: '6' });
    expect(answer.held).toMatchObject({ skuCode, locationCode, lotNo: lot, qty: '6', orderNo, waveNo: null });
    const ticketNo = answer.held!.countTicketNo;
    expect(ticketNo).toMatch(/\S/);
    // Told: the supervisor and the administrator; not the picker, the clerk without the verb or the other warehouse's approver.
    expect(answer.held!.notified).toBe(2);
    expect(answer.heldMessage).toBe(`Held 6 of ${skuCode}, lot ${lot}, at ${locationCode}: nobody takes it until count ${ticketNo} is approved. Your supervisor has been told.`);

    // The supervisor's notice names SKU, lot, location, quantity and order, and opens the count.
    const seen = await notices(supervisor);
    expect(seen).toEqual([
      {
        category: 'inventory',
        title: `Short pick: 6 of ${skuCode} held at ${locationCode}`,
        body: `sh-picker did not find 6 of ${skuCode}, lot ${lot}, at ${locationCode} picking order ${orderNo} (Not found). It is held until count ${ticketNo} is counted and approved.`,
        link: `cycleCount?ticketNo=${ticketNo}`,
        read: false,
        id: expect.any(Number),
        createdAt: expect.any(String),
      },
    ]);
    expect(await notices(admin)).toHaveLength(1);
    expect(await notices(picker)).toEqual([]);
    expect(await notices(clerk)).toEqual([]);
    expect(await notices(elsewhere)).toEqual([]);

    // A count ticket for the pick face's location, its held row's line settling the hold; the only open one there.
    const ticket = await ticketByNo(ticketNo);
    expect(ticket.status).toBe('open');
    const lines = await linesOfTicket(Number(ticket.id));
    expect(lines.map((l) => [Number(l.location_id), Number(l.sku_id), l.system_qty, l.hold_qty, l.status])).toEqual([[f.locationIds[0], sku, '6.0000', '6.0000', 'open']]);
    expect(await openTicketsAt(f.locationIds[0])).toEqual([ticketNo]);
    // The task records the hold and its ticket; both pick screens read it from the task list.
    const listed = json<PickTasksAnswer>(await call('/pick/tasks', { soId: so }, picker)).tasks.find((x) => x.id === task.id)!;
    expect(listed).toMatchObject({ status: 'short', held_qty: '6.0000', count_ticket_no: ticketNo });
    expect(await balanceAt(sku, f.locationIds[0])).toMatchObject({ on_hand_qty: '6.0000', allocated_qty: '0.0000', held_qty: '6.0000' });
    await expectInvariant();

    // The count finds all 6: approving it ends the hold, the 6 are available again, on-hand unchanged.
    const approved = await countAndApprove(ticketNo, sku, 6);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await balanceAt(sku, f.locationIds[0])).toMatchObject({ on_hand_qty: '6.0000', allocated_qty: '0.0000', held_qty: '0.0000' });
    const ledger = await db().selectFrom('inventory_transaction').select(['trans_type', 'qty', 'held_change']).where('order_no', '=', ticketNo).orderBy('id').execute();
    expect(ledger).toEqual([{ trans_type: 'release', qty: '0.0000', held_change: '-6.0000' }]);
    expect((await ticketByNo(ticketNo)).status).toBe('approved');
    expect(await openTicketsAt(f.locationIds[0])).toEqual([]);
    await expectInvariant();
  });

  it('on a wave, a count that finds less ends the hold and takes only what is missing; the notice names the wave', async () => {
    const [skuA, skuB] = [f.skuIds[1], f.skuIds[2]];
    await stock(db(), f, skuA, f.locationIds[1], 4, { lotNo: 'LOT-SH-B' });
    await stock(db(), f, skuB, f.locationIds[3], 2);
    const so = await newOrder([
      { skuId: skuB, qty: 2 },
      { skuId: skuA, qty: 4 },
    ]);
    const saved = json<{ waveId: number }>(await call('/so/wave/save', { orderIds: [so] }));
    expect((await call('/wave/release', { waveId: saved.waveId })).statusCode).toBe(200);
    const waveNo = (await db().selectFrom('wave').select('wave_no').where('id', '=', saved.waveId).executeTakeFirstOrThrow()).wave_no;
    const taskA = (await tasksOf(so)).find((x) => Number(x.sku_id) === skuA)!;
    const [skuCode, locationCode] = [await codeOf('sku', skuA), await codeOf('location', f.locationIds[1])];

    // 1 of 4 found, nothing elsewhere: the 3 left are held.
    const response = await call('/pick/confirm', await confirmBody(taskA, { qty: 1, shortReason: 'Empty', reallocate: true }), picker);
    expect(response.statusCode, response.body).toBe(200);
    const answer = json<ConfirmPickAnswer>(response);
    expect(answer).toMatchObject({ reallocatedQty: '0', heldQty: '3', held: { skuCode, locationCode, lotNo: 'LOT-SH-B', qty: '3', waveNo } });
    const ticketNo = answer.held!.countTicketNo;
    const notice = (await notices(supervisor)).find((n) => n.link === `cycleCount?ticketNo=${ticketNo}`);
    expect(notice?.body).toBe(`sh-picker did not find 3 of ${skuCode}, lot LOT-SH-B, at ${locationCode} picking order SOSH-${orderSeq} of wave ${waveNo} (Empty). It is held until count ${ticketNo} is counted and approved.`);
    await expectInvariant();

    // Only 1 is really there: the hold ends and 2 leave by the count; nothing is held or missing afterwards.
    const approved = await countAndApprove(ticketNo, skuA, 1);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await balanceAt(skuA, f.locationIds[1])).toMatchObject({ on_hand_qty: '1.0000', allocated_qty: '0.0000', held_qty: '0.0000' });
    const ledger = await db().selectFrom('inventory_transaction').select(['trans_type', 'qty', 'held_change']).where('order_no', '=', ticketNo).orderBy('id').execute();
    expect(ledger).toEqual([
      { trans_type: 'release', qty: '0.0000', held_change: '-3.0000' },
      { trans_type: 'count', qty: '-2.0000', held_change: '0.0000' },
    ]);
    await expectInvariant();
  });

  it("tells the picker in the picker's language", async () => {
    const sku = f.skuIds[3];
    await stock(db(), f, sku, f.locationIds[2], 2, { lotNo: 'LOT-SH-C' });
    const so = await newOrder([{ skuId: sku, qty: 2 }]);
    expect((await gen('so', 'behavior', { behaviour: 'allocate', keys: [so], inputs: {} })).statusCode).toBe(200);
    await call('/so/pick', { soId: so });
    const [task] = await tasksOf(so);
    const response = await call('/pick/confirm', await confirmBody(task, { qty: 0, shortReason: '没找到', reallocate: true }), picker, { 'x-language': 'zh' });
    expect(response.statusCode, response.body).toBe(200);
    const answer = json<ConfirmPickAnswer>(response);
    const location = await codeOf('location', f.locationIds[2]);
    expect(answer.heldMessage).toBe(`已冻结 ${await codeOf('sku', sku)}（批次 LOT-SH-C）2，库位 ${location}：盘点单 ${answer.held!.countTicketNo} 审核前不会被分配。已通知主管。`);
    await expectInvariant();
  });

  it('a location already on an open count: the hold joins that ticket, counted again from the stock as it is now', async () => {
    const [sku, other] = [f.skuIds[4], f.skuIds[5]];
    const location = f.locationIds[3];
    await stock(db(), f, sku, location, 5, { lotNo: 'LOT-SH-D' });
    await stock(db(), f, other, location, 2);
    const code = await codeOf('location', location);
    // A count order of the location, counted before the pick.
    const plan = await call('/generic/adding', { moduleCode: 'inventory', functionCode: 'cycleCountMaster', record: { plan_code: 'SH-PLAN', location_from: code, location_to: code, max_locations: 1 } });
    expect(plan.statusCode, plan.body).toBe(200);
    const made = await call('/inventory/cycleCountMaster/createCountOrder', { id: json<{ row: { _key: number } }>(plan).row._key, ignoreCommitted: false });
    expect(made.statusCode, made.body).toBe(200);
    const { ticketId } = json<{ ticketId: number }>(made);
    const before = await linesOfTicket(ticketId);
    expect(before.map((l) => Number(l.sku_id))).toEqual(expect.arrayContaining([sku, other]));
    const skuLine = before.find((l) => Number(l.sku_id) === sku)!;
    expect((await call('/inventory/cycleCount/count', { lineId: Number(skuLine.id), qty: 5 }, supervisor)).statusCode).toBe(200);

    const so = await newOrder([{ skuId: sku, qty: 4 }]);
    expect((await gen('so', 'behavior', { behaviour: 'allocate', keys: [so], inputs: {} })).statusCode).toBe(200);
    await call('/so/pick', { soId: so });
    const [task] = await tasksOf(so);
    const response = await call('/pick/confirm', await confirmBody(task, { qty: 3, shortReason: 'Damaged', reallocate: true }), picker);
    expect(response.statusCode, response.body).toBe(200);
    const answer = json<ConfirmPickAnswer>(response);
    // 3 picked, 1 given back and held with the 1 that was free: 2 held, on the ticket that already covers the location.
    const ticketNo = (await db().selectFrom('count_ticket').select('ticket_no').where('id', '=', ticketId).executeTakeFirstOrThrow()).ticket_no;
    expect(answer).toMatchObject({ heldQty: '2', held: { qty: '2', countTicketNo: ticketNo } });
    expect(await openTicketsAt(location)).toEqual([ticketNo]);
    const line = (await linesOfTicket(ticketId)).find((l) => Number(l.sku_id) === sku)!;
    // Its count came before the pick: counted again, against the 2 on hand now.
    expect(line).toMatchObject({ system_qty: '2.0000', hold_qty: '2.0000', status: 'open' });
    expect(await linesOfTicket(ticketId)).toHaveLength(before.length);
    await expectInvariant();

    const approved = await countAndApprove(ticketNo, sku, 2);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await balanceAt(sku, location)).toMatchObject({ on_hand_qty: '2.0000', held_qty: '0.0000' });
    await expectInvariant();
  });

  it('two short picks at one location at the same time share one count ticket', async () => {
    const [skuA, skuB] = [f.skuIds[6], f.skuIds[7]];
    // A location no count covers yet: both transactions would make a ticket for it.
    const location = f.locationIds[4];
    await stock(db(), f, skuA, location, 3);
    await stock(db(), f, skuB, location, 3);
    const orders = [await newOrder([{ skuId: skuA, qty: 3 }]), await newOrder([{ skuId: skuB, qty: 3 }])];
    expect((await gen('so', 'behavior', { behaviour: 'allocate', keys: orders, inputs: {} })).statusCode).toBe(200);
    const tasks = [];
    for (const so of orders) {
      await call('/so/pick', { soId: so });
      tasks.push((await tasksOf(so))[0]);
    }
    expect(tasks.every((x) => Number(x.location_id) === location)).toBe(true);
    const answers = await Promise.all(tasks.map(async (task) => call('/pick/confirm', await confirmBody(task, { qty: 0, shortReason: 'Empty', reallocate: true }), picker)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const [a, b] = answers.map((x) => json<ConfirmPickAnswer>(x));
    expect(a.held!.countTicketNo).toBe(b.held!.countTicketNo);
    expect(await openTicketsAt(location)).toEqual([a.held!.countTicketNo]);
    const lines = await linesOfTicket(Number((await ticketByNo(a.held!.countTicketNo)).id));
    expect(lines.filter((l) => [skuA, skuB].includes(Number(l.sku_id))).map((l) => l.hold_qty)).toEqual(['3.0000', '3.0000']);
    await expectInvariant();
  });

  it('giving the rest back holds nothing: no count, no notice, no message', async () => {
    const sku = f.skuIds[8];
    await stock(db(), f, sku, f.locationIds[1], 3);
    const so = await newOrder([{ skuId: sku, qty: 3 }]);
    expect((await gen('so', 'behavior', { behaviour: 'allocate', keys: [so], inputs: {} })).statusCode).toBe(200);
    await call('/so/pick', { soId: so });
    const [task] = await tasksOf(so);
    const noticesBefore = (await notices(supervisor)).length;
    const ticketsBefore = await openTicketsAt(f.locationIds[1]);
    const response = await call('/pick/confirm', await confirmBody(task, { qty: 1, shortReason: 'Empty', reallocate: false }), picker);
    expect(json(response)).toMatchObject({ taskStatus: 'short', heldQty: '0', held: null, heldMessage: null });
    expect(await notices(supervisor)).toHaveLength(noticesBefore);
    expect(await openTicketsAt(f.locationIds[1])).toEqual(ticketsBefore);
    expect((await tasksOf(so))[0]).toMatchObject({ held_qty: '0.0000', count_ticket_no: null });
    await expectInvariant();
  });
});
