import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gs1CheckDigit } from '../../src/common/gs1.js';
import { SHIPPED_RECEIVE, type HandheldFlowAnswer } from '../../src/common/handheld-api.js';
import type { ReceivableLinesAnswer, ReceiveAnswer } from '../../src/common/inbound-api.js';
import type { DB } from '../../src/server/db/schema.js';
import { up as grantRuntimeToReceivers } from '../../src/server/modules/handheld/migrations/0412_handheld_receive_right.js';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { outboundFixture, type OutboundFixture } from '../helpers/outbound.js';

/**
 * Receiving by ASN line on the handheld runtime, through the real server and the calls the
 * runtime's receive function makes: the shipped receive flow has the line steps; the order search
 * finds the receivable lines of a GS1-128 label's GTIN (two ASNs: two lines) and of an ASN number;
 * the line's receipt (`/inbound/batch/receive`) with the runtime's idempotency key applies once
 * (sent again: the first answer, one receipt line, one ledger row), the same key with another body
 * is refused and applies nothing, an over receipt is refused with its code and leaves its key free.
 * Migration 0412 gives the runtime's right to the roles that see /receive.
 */
let t: TestApp;
let admin: string;
let f: OutboundFixture;
const tag = `RL${Date.now().toString(36).toUpperCase()}`;
const db = () => t.database.db;
/** The LPN of the label's SSCC: the ledger rows of the receipts carry it. */
const LPN = `00${tag}`;
// A barcode of this run: an EAN-13 made of the run's time, found on a GS1 label as its GTIN-14.
const ean = (() => {
  const twelve = `29${Date.now().toString().slice(-10)}`;
  return twelve + gs1CheckDigit(twelve);
})();

const call = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>, key?: string) =>
  injectAs(t.app, admin, { method, url: `/api${url}`, ...(payload ? { payload } : {}), headers: key === undefined ? {} : { 'idempotency-key': key } });
const ok = async <T>(method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>, key?: string): Promise<T> => {
  const response = await call(method, url, payload, key);
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
};

/** An ASN of the fixture's owner with one line of `qty` of the fixture's SKU: its number and line id. */
async function asnOf(qty: number): Promise<{ asnNo: string; lineId: number }> {
  const asn = await ok<{ id: number; asn_no: string }>('POST', '/asn/saveHeader', { ownerCode: `OW-${tag}` });
  await ok('POST', '/asn/saveDetail', { asnId: asn.id, lines: [{ skuCode: `SKU-${tag}-0`, expectedQty: qty }] });
  const line = await db().selectFrom('asn_line').select('id').where('asn_id', '=', asn.id).executeTakeFirstOrThrow();
  return { asnNo: asn.asn_no, lineId: line.id };
}

/** What the receipts of an ASN line hold: quantity, LPN, trace id, lot number and expiry, and the ledger rows of the LPN. */
async function receivedOf(lineId: number) {
  const lines = await db()
    .selectFrom('receipt_line as r')
    .innerJoin('lot', 'lot.id', 'r.lot_id')
    .select(['r.qty', 'r.lpn', 'r.trace_id', 'lot.lot_no', sql<string | null>`to_char(lot.expiry_date, 'YYYY-MM-DD')`.as('expiry')])
    .where('r.asn_line_id', '=', lineId)
    .orderBy('r.id')
    .execute();
  const asnLine = await db().selectFrom('asn_line').select('received_qty').where('id', '=', lineId).executeTakeFirstOrThrow();
  const ledger = await db().selectFrom('inventory_transaction').select(sql<number>`count(*)::int`.as('n')).where('lpn', '=', LPN).executeTakeFirstOrThrow();
  return { lines: lines.map((l) => ({ ...l, qty: Number(l.qty) })), received: Number(asnLine.received_qty), ledger: ledger.n };
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(db(), tag, 1);
  await db().insertInto('sku_upc').values({ project_id: f.scope.projectId, sku_id: f.skuIds[0], upc: ean, qty: '1', created_by: 'tester', updated_by: 'tester' }).execute();
});
afterAll(() => t?.close());

describe('handheld receiving by ASN line', () => {
  it('ships the receive flow with the line steps: the line chosen, the quantity (optional) after the location', async () => {
    const flow = await ok<HandheldFlowAnswer>('GET', '/handheld/flow?fn=receive');
    expect(flow.definition).toEqual(SHIPPED_RECEIVE);
    expect(flow.definition.steps.map((s) => s.action)).toEqual([
      'receive.chooseLine',
      'receive.scanCarton',
      'receive.scanEpc',
      'receive.scanCartonType',
      'receive.scanAntiCounterfeit',
      'receive.scanLocation',
      'receive.enterQty',
      'receive.scanLpn',
    ]);
  });

  it('finds the lines of a GS1 label and of an ASN number, and receives a line once by its key', async () => {
    const first = await asnOf(8);
    const second = await asnOf(5);
    // The label's GTIN-14 finds the open lines of the SKU on both ASNs.
    const byLabel = await ok<ReceivableLinesAnswer>('POST', '/rec/batch/editor', { text: `0${ean}` });
    expect(byLabel.lines.map((l) => l.id)).toEqual([first.lineId, second.lineId]);
    const byAsn = await ok<ReceivableLinesAnswer>('POST', '/rec/batch/editor', { text: second.asnNo });
    expect(byAsn.lines.map((l) => [l.asn_no, l.sku_code, Number(l.expected_qty)])).toEqual([[second.asnNo, `SKU-${tag}-0`, 5]]);

    // The runtime's receipt of the chosen line: the label's batch, expiry, SSCC (LPN) and serial (trace id).
    const location = await db().selectFrom('location').select('code').where('id', '=', f.locationIds[1]).executeTakeFirstOrThrow();
    const lpn = LPN;
    const receipt = { asnLineId: second.lineId, qty: '3', locationCode: location.code, lotNo: `LOT-${tag}`, expiryDate: '2027-12-31', lpn, traceId: `SN-${tag}` };
    const key = randomUUID();
    const answer = await ok<ReceiveAnswer>('POST', '/inbound/batch/receive', { lines: [receipt] }, key);
    expect(answer.receipts).toHaveLength(1);
    expect(answer.receipts[0]).toMatchObject({ asnNo: second.asnNo, status: 'partial_received' });
    const once = await receivedOf(second.lineId);
    expect(once.received).toBe(3);
    expect(once.lines).toEqual([{ qty: 3, lpn, trace_id: `SN-${tag}`, lot_no: `LOT-${tag}`, expiry: '2027-12-31' }]);
    expect(once.ledger).toBe(1);

    // Sent again (a replay of the offline queue): the first answer, nothing applied.
    expect(await ok<ReceiveAnswer>('POST', '/inbound/batch/receive', { lines: [receipt] }, key)).toEqual(answer);
    expect(await receivedOf(second.lineId)).toEqual(once);

    // The same key with another body is refused and applies nothing.
    const other = await call('POST', '/inbound/batch/receive', { lines: [{ ...receipt, qty: '1' }] }, key);
    expect(other.statusCode, other.body).toBe(409);
    expect(json<{ code: string }>(other).code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await receivedOf(second.lineId)).toEqual(once);

    // More than is open (2 left) is refused with its code; the key stays free, and the right quantity with it is received.
    const overKey = randomUUID();
    const over = await call('POST', '/inbound/batch/receive', { lines: [{ ...receipt, qty: '3' }] }, overKey);
    expect(over.statusCode, over.body).toBe(409);
    expect(json<{ code: string }>(over).code).toBe('OVER_RECEIVE');
    expect(await receivedOf(second.lineId)).toEqual(once);
    const rest = await ok<ReceiveAnswer>('POST', '/inbound/batch/receive', { lines: [{ ...receipt, qty: '2' }] }, overKey);
    expect(rest.receipts[0].status).toBe('received');
    const after = await receivedOf(second.lineId);
    expect(after.received).toBe(5);
    expect(after.lines.map((l) => l.qty)).toEqual([3, 2]);
    // The other ASN's line is untouched.
    expect((await receivedOf(first.lineId)).received).toBe(0);
  });

  it('gives the handheld runtime right to the roles that see /receive, and to no other', async () => {
    const rights = (trx: Kysely<DB>, roleId: number) =>
      trx.selectFrom('role_permission').select(['can_view', 'can_add']).where('role_id', '=', roleId).where('module_code', '=', 'handheld').where('sub_module_code', '=', 'rfFlow').execute();
    await db()
      .transaction()
      .execute(async (trx) => {
        const role = async (name: string) => (await trx.insertInto('role').values({ name: `${name}-${tag}`, description: null, created_by: 'tester', updated_by: 'tester' }).returning('id').executeTakeFirstOrThrow()).id;
        const [receiver, kept, other] = [await role('receiver'), await role('kept'), await role('other')];
        const permission = (roleId: number, module: string, subModule: string | null, view: boolean) =>
          trx.insertInto('role_permission').values({ role_id: roleId, module_code: module, sub_module_code: subModule, can_view: view, can_add: false, can_edit: false, can_delete: false }).execute();
        await permission(receiver, 'receive', null, true);
        await permission(kept, 'receive', null, true);
        await permission(kept, 'handheld', 'rfFlow', false);
        await permission(other, 'inbound', null, true);
        await grantRuntimeToReceivers(trx as unknown as Kysely<unknown>);
        // Run twice, it grants nothing more.
        await grantRuntimeToReceivers(trx as unknown as Kysely<unknown>);
        expect(await rights(trx, receiver)).toEqual([{ can_view: true, can_add: false }]);
        expect(await rights(trx, kept)).toEqual([{ can_view: true, can_add: false }]);
        expect(await rights(trx, other)).toEqual([]);
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
  });
});

/** Ends the transaction of a check that must leave the database as it was. */
class RolledBack extends Error {}
