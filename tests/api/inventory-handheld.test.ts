import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Decimal from 'decimal.js';
import type { RightName } from '../../src/common/rights.js';
import { loadDemoData } from '../../src/server/install/demo-data.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { lotFor, receiveStock, type StockScope } from '../../src/server/modules/inventory/inventory.service.js';
import { onRealServer } from '../helpers/database.js';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { MODULES } from '../../src/server/modules/index.js';

/**
 * The handheld move and count calls through the real server: a move made and
 * confirmed at once as a move document, a move of more than is available refused with its message
 * and nothing changed, and a count ticket read blind and counted line by line, recount included.
 */

let t: TestApp;
let admin: string;
let mover: string;
let viewer: string;
let scope: StockScope;
let ownerId: number;
let skuId: number;
let skuCode: string;
let ean: string;
let locations: { id: number; code: string }[];

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  await loadDemoData(db, MODULES);
  admin = await signIn(t.app);
  mover = await createUser(t, { loginAccount: 'hh-mover', rights: ['inventory.move:confirm', 'inventory.cycleCount:edit'] as RightName[], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  viewer = await createUser(t, { loginAccount: 'hh-viewer', rights: ['inventory.lnvnMove:view'] as RightName[], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  const project = await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const warehouse = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow();
  scope = { projectId: project.id, warehouseId: warehouse.id, operator: 'receiver' };
  ownerId = (await db.selectFrom('owner').select('id').where('code', '=', 'ACME').where('project_id', '=', project.id).executeTakeFirstOrThrow()).id;
  const sku = await db.selectFrom('sku').select(['id', 'code']).where('owner_id', '=', ownerId).orderBy('id').offset(5).limit(1).executeTakeFirstOrThrow();
  skuId = sku.id;
  skuCode = sku.code;
  ean = (await db.selectFrom('sku_upc').select('upc').where('sku_id', '=', skuId).where('is_default', '=', true).executeTakeFirstOrThrow()).upc;
  // Empty storage locations of their own, so that demo stock does not count.
  locations = (
    await db
      .selectFrom('location')
      .select(['id', 'code'])
      .where('warehouse_id', '=', warehouse.id)
      .where('location_type', '=', 'storage')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('inventory_balance as b').select('b.id').whereRef('b.location_id', '=', 'location.id'))))
      .orderBy('code', 'desc')
      .limit(3)
      .execute()
  ).map((l) => ({ id: l.id, code: l.code }));
  await inTransaction(db, async (trx) => {
    const lot = await lotFor(trx, scope, ownerId, skuId, { lotNo: 'HH-LOT-1' });
    await receiveStock(trx, scope, { key: { ownerId, skuId, lotId: lot.id, locationId: locations[0].id }, qty: 10 });
  });
});

afterAll(async () => {
  await t?.close();
});

const post = (token: string, url: string, payload: Record<string, unknown>, language = 'en') => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload, headers: { 'x-language': language } });

async function onHand(locationId: number): Promise<number> {
  const rows = await t.database.db.selectFrom('inventory_balance').select('on_hand_qty').where('sku_id', '=', skuId).where('location_id', '=', locationId).execute();
  return rows.reduce((s, r) => s + Number(r.on_hand_qty), 0);
}

async function counts() {
  const db = t.database.db;
  const n = async (table: 'inventory_transaction' | 'inventory_document' | 'inventory_document_line') => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  return { ledger: await n('inventory_transaction'), documents: await n('inventory_document'), lines: await n('inventory_document_line'), from: await onHand(locations[0].id), to: await onHand(locations[1].id) };
}

async function expectLedgerAgrees() {
  for (const row of await ledgerAgreement(t.database.db)) expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `on-hand of balance ${row.id}`).toBe(true);
}

describe('handheld move', () => {
  it('shows the stock at a scanned location with what is free to move', async () => {
    const response = await post(viewer, '/inventory/handheld/stock', { location: locations[0].code, sku: ean });
    expect(response.statusCode, response.body).toBe(200);
    expect(json<{ rows: { sku_code: string; lot_no: string; available: string }[] }>(response).rows).toEqual([expect.objectContaining({ sku_code: skuCode, lot_no: 'HH-LOT-1' })]);
    expect(Number(json<{ rows: { available: string }[] }>(response).rows[0].available)).toBe(10);
  });

  it('moves by the GTIN-14 of a GS1 label and a lot, as a confirmed move document in the ledger', async () => {
    const before = await counts();
    const response = await post(mover, '/inventory/handheld/move', { fromLocation: locations[0].code, sku: `0${ean}`, lotNo: 'HH-LOT-1', qty: 4, toLocation: locations[1].code });
    expect(response.statusCode, response.body).toBe(200);
    const answer = json<{ docNo: string; documentId: number; ledgerRows: number }>(response);
    expect(answer.ledgerRows).toBe(2);
    const after = await counts();
    expect(after).toEqual({ ledger: before.ledger + 2, documents: before.documents + 1, lines: before.lines + 1, from: 6, to: 4 });
    const doc = await t.database.db.selectFrom('inventory_document').selectAll().where('id', '=', answer.documentId).executeTakeFirstOrThrow();
    expect(doc).toMatchObject({ doc_type: 'move', doc_no: answer.docNo, status: 'confirmed', confirmed_by: 'hh-mover' });
    const ledger = await t.database.db.selectFrom('inventory_transaction').select(['trans_type', 'qty', 'order_no']).where('order_no', '=', answer.docNo).orderBy('id').execute();
    expect(ledger.map((r) => [r.trans_type, Number(r.qty)])).toEqual([
      ['move', -4],
      ['move', 4],
    ]);
    await expectLedgerAgrees();
  });

  it('refuses a move of more than is available with its message in the language of the user, nothing changed', async () => {
    const before = await counts();
    const en = await post(mover, '/inventory/handheld/move', { fromLocation: locations[0].code, sku: skuCode, qty: 7, toLocation: locations[1].code });
    expect(en.statusCode).toBe(409);
    expect(json<{ code: string; message: string }>(en)).toMatchObject({ code: 'INSUFFICIENT_INVENTORY', message: 'Not enough inventory: 6 available.' });
    const zh = await post(mover, '/inventory/handheld/move', { fromLocation: locations[0].code, sku: skuCode, qty: '7', toLocation: locations[1].code }, 'zh');
    expect(zh.statusCode).toBe(409);
    expect(json<{ message: string }>(zh).message).not.toBe(json<{ message: string }>(en).message);
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['an unknown from-location', { fromLocation: 'NO-SUCH-LOC' }, 404, 'LOCATION_NOT_FOUND'],
    ['an unknown to-location', { toLocation: 'NO-SUCH-LOC' }, 404, 'LOCATION_NOT_FOUND'],
    ['an unknown SKU', { sku: 'NO-SUCH-SKU' }, 400, 'INVALID_SKU'],
    ['qty 0', { qty: 0 }, 400, 'QTY_NOT_POSITIVE'],
    ['a qty that is not a number', { qty: 'abc' }, 400, 'VALIDATION_FAILED'],
    ['an unknown lot', { lotNo: 'NO-SUCH-LOT' }, 409, 'INSUFFICIENT_INVENTORY'],
    ['the same location', { toLocation: 'FROM' }, 400, 'VALIDATION_FAILED'],
  ])('refuses %s, nothing changed', async (_name, patch: Record<string, unknown>, status, code) => {
    const before = await counts();
    const body = { fromLocation: locations[0].code, sku: skuCode, qty: 1, toLocation: locations[1].code, ...patch };
    if (body.toLocation === 'FROM') body.toLocation = locations[0].code;
    const response = await post(mover, '/inventory/handheld/move', body);
    expect(response.statusCode, response.body).toBe(status);
    expect(json<{ code: string }>(response).code).toBe(code);
    expect(await counts()).toEqual(before);
  });

  it('needs the move right', async () => {
    const before = await counts();
    const response = await post(viewer, '/inventory/handheld/move', { fromLocation: locations[0].code, sku: skuCode, qty: 1, toLocation: locations[1].code });
    expect(response.statusCode).toBe(403);
    expect(await counts()).toEqual(before);
  });
});

describe('handheld moves at once', () => {
  // Several PostgreSQL sessions: on PGlite the calls run one after the other anyway.
  it.skipIf(!onRealServer)('six handhelds moving 2 each of the same 6: three moved, three refused, the ledger agrees', async () => {
    const before = await counts();
    expect(before.from).toBe(6);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => post(mover, '/inventory/handheld/move', { fromLocation: locations[0].code, sku: skuCode, qty: 2, toLocation: locations[2].code })),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 409, 409, 409]);
    const after = await counts();
    expect(after.from).toBe(0);
    expect(await onHand(locations[2].id)).toBe(6);
    expect(after.documents - before.documents).toBe(3);
    expect(after.ledger - before.ledger).toBe(6);
    await expectLedgerAgrees();
    // Back where the count below expects it.
    const back = await post(mover, '/inventory/handheld/move', { fromLocation: locations[2].code, sku: skuCode, qty: 6, toLocation: locations[0].code });
    expect(back.statusCode, back.body).toBe(200);
  });
});

describe('handheld count', () => {
  it('reads a ticket blind, counts its lines, recounts what differs and ends counted', async () => {
    const db = t.database.db;
    // A plan over the two locations holding the SKU: 6 at the first, 4 at the second.
    const range = [locations[0].code, locations[1].code].sort();
    const plan = await post(admin, '/generic/adding', { moduleCode: 'inventory', functionCode: 'cycleCountMaster', record: { plan_code: 'HH1', location_from: range[0], location_to: range[1], max_locations: 10 } });
    expect(plan.statusCode, plan.body).toBe(200);
    const made = await post(admin, '/inventory/cycleCountMaster/createCountOrder', { id: json<{ row: { _key: number } }>(plan).row._key });
    expect(made.statusCode, made.body).toBe(200);
    const { ticketId, ticketNo } = json<{ ticketId: number; ticketNo: string }>(made);

    const list = await injectAs(t.app, mover, { method: 'GET', url: '/api/inventory/handheld/countTickets' });
    expect(list.statusCode, list.body).toBe(200);
    expect(json<{ tickets: { id: number; locations: number; recount: boolean }[] }>(list).tickets).toContainEqual(expect.objectContaining({ id: ticketId, ticketNo, status: 'open', recount: false }));

    const read = async () => {
      const response = await post(mover, '/inventory/handheld/countTicket', { ticketNo });
      expect(response.statusCode, response.body).toBe(200);
      return json<{ id: number; status: string; recount: boolean; lines: { id: number; locationCode: string; skuCode: string; barcodes: string[]; toCount: boolean }[] }>(response);
    };
    const ticket = await read();
    expect(ticket.id).toBe(ticketId);
    expect(ticket.lines.map((l) => l.locationCode).sort()).toEqual(range);
    expect(ticket.lines.every((l) => l.skuCode === skuCode && l.barcodes.includes(ean) && l.toCount)).toBe(true);
    // Blind: nothing of the system qty leaves the server.
    expect(JSON.stringify(ticket)).not.toMatch(/system|counted_qty|"6"|"4"/);

    const first = ticket.lines.find((l) => l.locationCode === locations[0].code)!;
    const second = ticket.lines.find((l) => l.locationCode === locations[1].code)!;
    expect((await post(mover, '/inventory/cycleCount/count', { lineId: first.id, qty: 6 })).statusCode).toBe(200);
    expect((await post(mover, '/inventory/cycleCount/count', { lineId: second.id, qty: 3 })).statusCode).toBe(200);
    expect((await read()).status).toBe('counted');

    expect((await post(admin, '/inventory/cycleCount/recount', { id: ticketId })).statusCode).toBe(200);
    const recount = await read();
    expect(recount).toMatchObject({ status: 'open', recount: true });
    expect(recount.lines.filter((l) => l.toCount).map((l) => l.id)).toEqual([second.id]);
    expect((await post(mover, '/inventory/cycleCount/count', { lineId: second.id, qty: 4 })).statusCode).toBe(200);
    expect((await read()).status).toBe('counted');
    const line = await db.selectFrom('count_ticket_line').select(['counted_qty', 'recount_qty']).where('id', '=', second.id).executeTakeFirstOrThrow();
    expect([Number(line.counted_qty), Number(line.recount_qty)]).toEqual([3, 4]);
  });

  it('answers no record for a ticket number that is not there', async () => {
    const response = await post(mover, '/inventory/handheld/countTicket', { ticketNo: 'CC-NOPE' });
    expect(response.statusCode).toBe(404);
  });
});
