import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { buildTestApp, createUserAccount, injectAs, json, type TestApp } from '../helpers/app.js';

/**
 * Inbound through the real server beyond the basic flow: the domain events and the "ASN received"
 * notification (to the ASN's creator and the warehouse's supervisors, never to another
 * warehouse's users), putaway of part of a task, and the ASN pages limited to the session's
 * warehouse.
 */
let t: TestApp;
let clerk: { uid: number; token: string };
let supervisor: { uid: number; token: string };
let operator: { uid: number; token: string };
let otherWarehouse: { uid: number; token: string };
let warehouseId: number;

const RIGHTS: `${string}:${string}`[] = [
  'inbound.asn:view',
  'inbound.asn:add',
  'inbound.asn:edit',
  'inbound.asn:receive',
  'inbound.asn:close',
  'inbound.asnLine:view',
  'inbound.asnStatic:view',
  'inbound.putaway:view',
  'inbound.putaway:confirm',
];

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  const project = await db.selectFrom('project').select(['id', 'organization_id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  warehouseId = (await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow()).id;
  const wh2 = await db
    .insertInto('warehouse')
    .values({ organization_id: project.organization_id, code: 'WH2', name: 'Second', nav_layout: null, created_by: 't', updated_by: 't' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('project_warehouse').values({ project_id: project.id, warehouse_id: wh2.id }).execute();
  const ownerId = (await db.insertInto('owner').values({ project_id: project.id, code: 'ACME', name: 'Acme', created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow()).id;
  for (const code of ['SKU-A', 'SKU-B']) {
    await db.insertInto('sku').values({ project_id: project.id, owner_id: ownerId, code, description: `Item ${code}`, created_by: 't', updated_by: 't' }).execute();
  }
  const locations = [
    { code: 'DOCK-01', location_type: 'dock' as const },
    { code: 'A-01-1', location_type: 'storage' as const, pick_seq: 1 },
    { code: 'A-02-1', location_type: 'storage' as const, pick_seq: 2 },
    { code: 'A-03-1', location_type: 'storage' as const, pick_seq: 3 },
  ];
  await db
    .insertInto('location')
    .values(locations.map((l) => ({ warehouse_id: warehouseId, ...l, created_by: 't', updated_by: 't' })))
    .execute();
  await db.insertInto('location').values({ warehouse_id: wh2.id, code: 'DOCK-09', location_type: 'dock', created_by: 't', updated_by: 't' }).execute();
  clerk = await createUserAccount(t, { loginAccount: 'receiver', rights: RIGHTS, projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  supervisor = await createUserAccount(t, { loginAccount: 'supervisor', rights: ['inbound.asn:view', 'inbound.asn:close'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  operator = await createUserAccount(t, { loginAccount: 'operator', rights: ['inbound.asn:view', 'inbound.asn:receive'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  otherWarehouse = await createUserAccount(t, { loginAccount: 'receiver2', rights: RIGHTS, projectCodes: ['PRJ1'], warehouseCodes: ['WH2'] });
});

afterAll(async () => {
  await t?.close();
});

const post = (token: string, url: string, payload: unknown) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload: payload as Record<string, unknown> });

async function ok<T = Record<string, unknown>>(token: string, url: string, payload: unknown): Promise<T> {
  const response = await post(token, url, payload);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return json<T>(response);
}

/** A new ASN of the caller's warehouse with one line per quantity. */
async function newAsn(token: string, qtys: number[]): Promise<{ id: number; asnNo: string; lineIds: number[] }> {
  const asn = await ok<{ id: number; asn_no: string }>(token, '/asn/saveHeader', { ownerCode: 'ACME' });
  const detail = await ok<{ lines: { id: number }[] }>(token, '/asn/saveDetail', { asnId: asn.id, lines: qtys.map((q, i) => ({ skuCode: i % 2 ? 'SKU-B' : 'SKU-A', expectedQty: q })) });
  return { id: asn.id, asnNo: asn.asn_no, lineIds: detail.lines.map((l) => l.id) };
}

async function notificationsOf(uid: number) {
  return t.database.db.selectFrom('notification').select(['user_id', 'category', 'title_key', 'params', 'link']).where('user_id', '=', uid).orderBy('id').execute();
}

async function asnStatus(id: number): Promise<string> {
  return (await t.database.db.selectFrom('asn').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
}

describe('inbound events and the ASN received notification', () => {
  it('receiving emits inbound.asn.received and notifies the creator and the supervisors of the warehouse only; closing emits inbound.asn.closed', async () => {
    const heard: { name: string; asnNo: string; status?: string }[] = [];
    const offReceived = t.app.events.on('inbound.asn.received', (payload) => void heard.push({ name: 'received', asnNo: payload.asnNo, status: payload.status }));
    const offClosed = t.app.events.on('inbound.asn.closed', (payload) => void heard.push({ name: 'closed', asnNo: payload.asnNo }));
    try {
      const asn = await newAsn(clerk.token, [10, 4]);
      await ok(clerk.token, '/inbound/batch/receive', { lines: [{ asnLineId: asn.lineIds[0], qty: 6, locationCode: 'DOCK-01' }] });
      expect(await asnStatus(asn.id)).toBe('partial_received');
      for (const user of [clerk, supervisor]) {
        const rows = await notificationsOf(user.uid);
        expect(rows, `notifications of ${user.uid}`).toHaveLength(1);
        expect(rows[0]).toMatchObject({ category: 'inbound', title_key: 'inb.notice.partialReceived', params: { asnNo: asn.asnNo, by: 'receiver' } });
      }
      // The operator neither created the ASN nor closes ASNs; the other warehouse's user holds every right but not this warehouse.
      expect(await notificationsOf(operator.uid)).toEqual([]);
      expect(await notificationsOf(otherWarehouse.uid)).toEqual([]);

      // The rest: received, a second notification in the reader's language.
      await ok(clerk.token, '/inbound/batch/receive', {
        lines: [
          { asnLineId: asn.lineIds[0], qty: 4, locationCode: 'DOCK-01' },
          { asnLineId: asn.lineIds[1], qty: 4, locationCode: 'DOCK-01' },
        ],
      });
      expect(await asnStatus(asn.id)).toBe('received');
      expect((await notificationsOf(supervisor.uid)).map((r) => r.title_key)).toEqual(['inb.notice.partialReceived', 'inb.notice.received']);
      const listed = await injectAs(t.app, supervisor.token, { method: 'GET', url: '/api/notification/list?page=1&pageSize=10', headers: { 'x-language': 'zh' } });
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.body).toContain(`ASN ${asn.asnNo} 已收货`);
      expect(await notificationsOf(otherWarehouse.uid)).toEqual([]);

      // A refused receipt notifies no one (the transaction rolled back).
      const before = (await notificationsOf(clerk.uid)).length;
      const over = await post(clerk.token, '/inbound/batch/receive', { lines: [{ asnLineId: asn.lineIds[1], qty: 1, locationCode: 'DOCK-01' }] });
      expect(over.statusCode).toBe(409);
      expect(await notificationsOf(clerk.uid)).toHaveLength(before);

      const { tasks } = json<{ tasks: { id: number; asn_no: string; suggested_location: string | null }[] }>(await injectAs(t.app, clerk.token, { method: 'GET', url: '/api/putaway/tasks' }));
      for (const task of tasks.filter((x) => x.asn_no === asn.asnNo)) {
        await ok(clerk.token, '/putaway/confirm', { taskId: task.id, locationCode: task.suggested_location ?? 'A-03-1', reason: task.suggested_location ? null : 'full' });
      }
      expect(await asnStatus(asn.id)).toBe('putaway');
      await ok(clerk.token, '/asn/close', { id: asn.id });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(heard.filter((h) => h.asnNo === asn.asnNo)).toEqual([
        { name: 'received', asnNo: asn.asnNo, status: 'partial_received' },
        { name: 'received', asnNo: asn.asnNo, status: 'received' },
        { name: 'closed', asnNo: asn.asnNo },
      ]);
    } finally {
      offReceived();
      offClosed();
    }
  });
});

describe('putaway of part of a task', () => {
  it('puts away part of a task: the rest stays an open task and the ASN stays partial putaway until all is put away', async () => {
    const db = t.database.db;
    const asn = await newAsn(clerk.token, [10]);
    const received = await ok<{ receipts: { putawayTaskIds: number[] }[] }>(clerk.token, '/inbound/batch/receive', {
      lines: [{ asnLineId: asn.lineIds[0], qty: 10, holdQty: 2, locationCode: 'DOCK-01' }],
    });
    const [taskId] = received.receipts[0].putawayTaskIds;
    const task = await db.selectFrom('putaway_task').selectAll().where('id', '=', taskId).executeTakeFirstOrThrow();
    const location = task.suggested_location_id
      ? (await db.selectFrom('location').select('code').where('id', '=', task.suggested_location_id).executeTakeFirstOrThrow()).code
      : 'A-01-1';
    const reason = task.suggested_location_id ? null : 'no suggestion';

    // Above the task, zero and negative quantities are refused, nothing changed.
    for (const [qty, code] of [
      [11, 'PUTAWAY_QTY_ABOVE_TASK'],
      [0, 'QTY_NOT_POSITIVE'],
      [-1, 'QTY_NOT_POSITIVE'],
    ] as const) {
      const refused = await post(clerk.token, '/putaway/confirm', { taskId, locationCode: location, reason, qty });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(json<{ code: string }>(refused).code).toBe(code);
    }
    expect(Number((await db.selectFrom('putaway_task').select('qty').where('id', '=', taskId).executeTakeFirstOrThrow()).qty)).toBe(10);

    const target = await db.selectFrom('location').select('id').where('code', '=', location).where('warehouse_id', '=', warehouseId).executeTakeFirstOrThrow();
    const stockAt = async () => {
      const rows = await db.selectFrom('inventory_balance').select(['on_hand_qty', 'held_qty']).where('location_id', '=', target.id).where('lot_id', '=', task.lot_id).execute();
      return [rows.reduce((n, r) => n + Number(r.on_hand_qty), 0), rows.reduce((n, r) => n + Number(r.held_qty), 0)];
    };
    const [onHandBefore, heldBefore] = await stockAt();
    const first = await ok<{ taskId: number; left: string; status: string }>(clerk.token, '/putaway/confirm', { taskId, locationCode: location, reason, qty: 7 });
    expect(first).toMatchObject({ taskId, left: '3', status: 'partial_putaway' });
    const open = await db.selectFrom('putaway_task').select(['qty', 'held_qty', 'status']).where('id', '=', taskId).executeTakeFirstOrThrow();
    // Available stock goes first: 7 of the 8 available; the 2 held stay with the rest.
    expect([Number(open.qty), Number(open.held_qty), open.status]).toEqual([3, 2, 'open']);
    expect(await stockAt()).toEqual([onHandBefore + 7, heldBefore]);
    expect((await db.selectFrom('receipt_line').select(['putaway_qty', 'status']).where('id', '=', task.receipt_line_id).executeTakeFirstOrThrow()).status).toBe('open');
    expect(await asnStatus(asn.id)).toBe('partial_putaway');

    // The rest, in two steps; the held part stays held at the new location.
    expect((await ok<{ status: string }>(clerk.token, '/putaway/confirm', { taskId, locationCode: location, reason, qty: '2' })).status).toBe('partial_putaway');
    const last = await ok<{ status: string; left: string }>(clerk.token, '/putaway/confirm', { taskId, locationCode: location, reason });
    expect(last).toMatchObject({ status: 'putaway', left: '0' });
    expect(await stockAt()).toEqual([onHandBefore + 10, heldBefore + 2]);
    const tasks = await db.selectFrom('putaway_task').select(['qty', 'status']).where('receipt_line_id', '=', task.receipt_line_id).orderBy('id').execute();
    expect(tasks.map((x) => [Number(x.qty), x.status])).toEqual([
      [1, 'done'],
      [7, 'done'],
      [2, 'done'],
    ]);
    const again = await post(clerk.token, '/putaway/confirm', { taskId, locationCode: location, reason, qty: 1 });
    expect(json<{ code: string }>(again).code).toBe('ORDER_STATUS_ERROR');
    // Ledger rows carry the ASN and its line.
    const rows = await db.selectFrom('inventory_transaction').select(['trans_type', 'order_no', 'reference_line']).where('order_no', '=', asn.asnNo).where('trans_type', '=', 'putaway').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.reference_line === 1)).toBe(true);
    for (const row of await ledgerAgreement(db)) expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `balance ${row.id}`).toBe(true);
  });
});

describe('ASN pages by warehouse', () => {
  it('a user of WH1 does not see the ASNs of WH2 on /asn and /asnStatic, nor through the inbound calls', async () => {
    const mine = await newAsn(clerk.token, [1]);
    const theirs = await newAsn(otherWarehouse.token, [1]);
    for (const functionCode of ['asn', 'asnStatic']) {
      const listed = await ok<{ rows: { asn_no: string }[]; total: number }>(clerk.token, '/generic/selection', { moduleCode: 'inbound', functionCode, page: 1, pageSize: 100 });
      const numbers = listed.rows.map((r) => r.asn_no);
      expect(numbers, functionCode).toContain(mine.asnNo);
      expect(numbers, functionCode).not.toContain(theirs.asnNo);
      const other = await ok<{ rows: { asn_no: string }[] }>(otherWarehouse.token, '/generic/selection', { moduleCode: 'inbound', functionCode, page: 1, pageSize: 100 });
      expect(other.rows.map((r) => r.asn_no), functionCode).toEqual([theirs.asnNo]);
    }
    const header = await post(clerk.token, '/asn/getHeader', { id: theirs.id });
    expect(header.statusCode).toBe(404);
  });
});
