import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RightName } from '../../src/common/rights.js';
import { loadDemoData } from '../../src/server/install/demo-data.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { requestApproval } from '../../src/server/modules/inventory/document.service.js';
import { lotFor, receiveStock, type StockScope } from '../../src/server/modules/inventory/inventory.service.js';
import { buildTestApp, createUser, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { MODULES } from '../../src/server/modules/index.js';

/**
 * Inventory's notifications raised with the change itself: a document's approval requested tells
 * the holders of the type's approve verb in the warehouse, a count finished with variance tells the
 * holders of the count's approve verb; never the person who acted, never someone of another
 * warehouse or without the verb, and nothing when the change rolls back.
 */

interface Item {
  category: string;
  title: string;
  body: string | null;
  link: string | null;
}

let t: TestApp;
let admin: string;
let requester: string;
let requesterId: number;
let approver: string;
let otherWarehouse: string;
let noVerb: string;
let scope: StockScope;
let ownerId: number;
let skuId: number;
let locationIds: number[];

const ADJUST_EDIT: RightName[] = [
  'inventory.invAdjust:view',
  'inventory.invAdjust:add',
  'inventory.invAdjust:edit',
  'inventory.invAdjustLine:view',
  'inventory.invAdjustLine:add',
  'inventory.invAdjustLine:edit',
] as RightName[];
const COUNT: RightName[] = ['inventory.cycleCount:view', 'inventory.cycleCount:edit', 'inventory.cycleCountLine:view', 'inventory.cycleCountLine:edit'] as RightName[];

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  await loadDemoData(db, MODULES);
  admin = await signIn(t.app);
  // The requester (and counter) holds the approve verbs too: still never told of his own request.
  const account = await createUserAccount(t, {
    loginAccount: 'req-clerk',
    rights: [...ADJUST_EDIT, ...COUNT, 'inventory.adjust:approve', 'inventory.count:approve'] as RightName[],
    projectCodes: ['PRJ1'],
    warehouseCodes: ['WH1'],
  });
  requester = account.token;
  requesterId = account.uid;
  approver = await createUser(t, {
    loginAccount: 'req-approver',
    rights: ['inventory.invAdjust:view', 'inventory.adjust:approve', 'inventory.count:approve'] as RightName[],
    projectCodes: ['PRJ1'],
    warehouseCodes: ['WH1'],
  });
  otherWarehouse = await createUser(t, {
    loginAccount: 'req-wh2',
    rights: ['inventory.adjust:approve', 'inventory.count:approve'] as RightName[],
    projectCodes: ['PRJ1'],
    warehouseCodes: ['WH2'],
  });
  noVerb = await createUser(t, { loginAccount: 'req-noverb', rights: ADJUST_EDIT, projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  const project = await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const warehouse = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
  scope = { projectId: project.id, warehouseId: warehouse.id, operator: 'receiver' };
  ownerId = (await db.selectFrom('owner').select('id').where('code', '=', 'ACME').where('project_id', '=', project.id).executeTakeFirstOrThrow()).id;
  skuId = (await db.selectFrom('sku').select('id').where('owner_id', '=', ownerId).orderBy('id').executeTakeFirstOrThrow()).id;
  locationIds = (
    await db.selectFrom('location').select('id').where('warehouse_id', '=', warehouse.id).where('location_type', '=', 'storage').orderBy('id').offset(20).limit(2).execute()
  ).map((r) => r.id);
  await inTransaction(db, async (trx) => {
    const lot = await lotFor(trx, scope, ownerId, skuId, { lotNo: 'NOTICE-1' });
    await receiveStock(trx, scope, { key: { ownerId, skuId, lotId: lot.id, locationId: locationIds[0] }, qty: 10 });
    await receiveStock(trx, scope, { key: { ownerId, skuId, lotId: lot.id, locationId: locationIds[1] }, qty: 4 });
  });
});

afterAll(async () => {
  await t?.close();
});

const call = (token: string, url: string, payload: Record<string, unknown>) => injectAs(t.app, token, { method: 'POST', url, payload });
const behaviour = (token: string, functionCode: string, code: string, keys: number[]) =>
  call(token, '/api/generic/behavior', { moduleCode: 'inventory', functionCode, behaviour: code, keys });
const approvals = async (token: string) =>
  json<{ items: Item[] }>(await injectAs(t.app, token, { method: 'GET', url: '/api/notification/latest' })).items.filter((i) => i.category === 'approval');

async function adjustment(withLine: boolean): Promise<{ _key: number; doc_no: string }> {
  const added = await call(requester, '/api/generic/adding', { moduleCode: 'inventory', functionCode: 'invAdjust', record: {} });
  expect(added.statusCode, added.body).toBe(200);
  const doc = json<{ row: { _key: number; doc_no: string } }>(added).row;
  if (withLine) {
    const line = await call(requester, '/api/generic/adding', {
      moduleCode: 'inventory',
      functionCode: 'invAdjustLine',
      record: { document_id: doc._key, action: 'subtract', owner_id: ownerId, sku_id: skuId, location_id: locationIds[0], qty: 1, reason: 'DAMAGE' },
    });
    expect(line.statusCode, line.body).toBe(200);
  }
  return doc;
}

describe('approval requested', () => {
  it('tells the approvers of the warehouse, not the requester, not another warehouse, not those without the verb', async () => {
    const doc = await adjustment(true);
    expect((await behaviour(requester, 'invAdjust', 'requestApproval', [doc._key])).statusCode).toBe(200);
    const seen = await approvals(approver);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ title: `Approval requested: ${doc.doc_no}`, body: `req-clerk asks for approval of ${doc.doc_no}.`, link: `invAdjust?docNo=${doc.doc_no}` });
    expect(await approvals(requester)).toEqual([]);
    expect(await approvals(otherWarehouse)).toEqual([]);
    expect(await approvals(noVerb)).toEqual([]);
    // Administrators hold every verb everywhere.
    expect((await approvals(admin)).map((i) => i.title)).toContain(`Approval requested: ${doc.doc_no}`);
  });

  it('is stored with the request: a request that rolls back tells no one', async () => {
    const doc = await adjustment(true);
    const before = (await approvals(approver)).length;
    const user = { userId: requesterId, isAdmin: false, loginAccount: 'req-clerk', projectId: scope.projectId, warehouseId: scope.warehouseId };
    await expect(
      inTransaction(t.database.db, async (trx) => {
        await requestApproval(trx, { user, events: t.app.events }, 'adjust', doc._key);
        throw new Error('something later in the same transaction failed');
      }),
    ).rejects.toThrow('something later');
    expect((await t.database.db.selectFrom('inventory_document').select('status').where('id', '=', doc._key).executeTakeFirstOrThrow()).status).toBe('new');
    expect(await approvals(approver)).toHaveLength(before);
    // A request refused (no lines) tells no one either.
    const empty = await adjustment(false);
    expect(json(await behaviour(requester, 'invAdjust', 'requestApproval', [empty._key]))).toMatchObject({ code: 'DOCUMENT_NO_LINES' });
    expect(await approvals(approver)).toHaveLength(before);
    // Through the header route, committed: told.
    expect((await call(requester, '/api/inventory/invAdjHeader/requestApproval', { id: doc._key })).statusCode).toBe(200);
    expect(await approvals(approver)).toHaveLength(before + 1);
  });
});

describe('count variance awaiting approval', () => {
  async function countOrder(): Promise<{ ticketId: number; ticketNo: string; lines: { _key: number; _version: string }[] }> {
    const db = t.database.db;
    const code = (await db.selectFrom('location').select('code').where('id', '=', locationIds[0]).executeTakeFirstOrThrow()).code;
    const code2 = (await db.selectFrom('location').select('code').where('id', '=', locationIds[1]).executeTakeFirstOrThrow()).code;
    const plan = await call(admin, '/api/generic/adding', {
      moduleCode: 'inventory',
      functionCode: 'cycleCountMaster',
      record: { plan_code: `N${Date.now() % 100000}`, location_from: code, location_to: code2, max_locations: 10 },
    });
    expect(plan.statusCode, plan.body).toBe(200);
    const made = await call(admin, '/api/inventory/cycleCountMaster/createCountOrder', { id: json<{ row: { _key: number } }>(plan).row._key });
    expect(made.statusCode, made.body).toBe(200);
    const { ticketId } = json<{ ticketId: number }>(made);
    const ticketNo = (await db.selectFrom('count_ticket').select('ticket_no').where('id', '=', ticketId).executeTakeFirstOrThrow()).ticket_no;
    const tab = await call(admin, '/api/generic/tab', { moduleCode: 'inventory', functionCode: 'cycleCount', subPage: 'count', parentKey: ticketId, page: 1, pageSize: 100 });
    return { ticketId, ticketNo, lines: json<{ rows: { _key: number; _version: string }[] }>(tab).rows };
  }

  async function systemQty(lineId: number): Promise<number> {
    return Number((await t.database.db.selectFrom('count_ticket_line').select('system_qty').where('id', '=', lineId).executeTakeFirstOrThrow()).system_qty);
  }

  it('the last count of a ticket with variance tells the count approvers, not the counter', async () => {
    const { ticketId, ticketNo, lines } = await countOrder();
    expect(lines.length).toBe(2);
    const before = (await approvals(approver)).length;
    // The first line matches; nothing is said while the ticket is still open.
    expect((await call(requester, '/api/inventory/cycleCount/count', { lineId: lines[0]._key, qty: await systemQty(lines[0]._key) })).statusCode).toBe(200);
    expect(await approvals(approver)).toHaveLength(before);
    // The last line, through the engine page's writer, is off by 2.
    const saved = await call(requester, '/api/generic/updating', {
      moduleCode: 'inventory',
      functionCode: 'cycleCountLine',
      key: lines[1]._key,
      version: lines[1]._version,
      record: { counted_qty: (await systemQty(lines[1]._key)) + 2 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const seen = await approvals(approver);
    expect(seen).toHaveLength(before + 1);
    expect(seen[0]).toMatchObject({
      title: `Count ${ticketNo} awaits approval`,
      body: `Counting of ${ticketNo} is finished with 1 lines off the system quantity.`,
      link: `cycleCount?ticketNo=${ticketNo}`,
    });
    expect((await approvals(requester)).filter((i) => i.title.includes(ticketNo))).toEqual([]);
    expect(await approvals(otherWarehouse)).toEqual([]);
    // Approved, the locations are free for the next count.
    const approved = await call(approver, '/api/inventory/cycleCount/approve', { id: ticketId });
    expect(approved.statusCode, approved.body).toBe(200);
  });

  it('a count that matches everywhere awaits no one', async () => {
    const { ticketNo, lines } = await countOrder();
    for (const line of lines) expect((await call(requester, '/api/inventory/cycleCount/count', { lineId: line._key, qty: await systemQty(line._key) })).statusCode).toBe(200);
    expect((await approvals(approver)).filter((i) => i.title.includes(ticketNo))).toEqual([]);
  });
});
