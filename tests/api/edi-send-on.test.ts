import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inTransaction } from '../../src/server/db/transaction.js';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderCalls, outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * When ship notices go out: each owner's EDI setting (kept on the /ediPartner page) says
 * `send_on` check-complete, ship or never. Packing's check-complete and the loading area's
 * `loading.shipped` queue the notice of an owner that sends then, and nothing for the others;
 * `/packHeader/extender/scanPackSendEdi` queues it now whatever the setting, with the load.
 */
const require = createRequire(import.meta.url);
const { Reader } = require('edifact') as { Reader: new () => { define(definitions: Record<string, unknown>): void; parse(text: string): Array<{ name: string; elements: string[][] }> } };
type X12Segment = { tag: string; elements: Array<{ value: string }> };
const { X12Parser } = require('node-x12') as { X12Parser: new (strict: boolean) => { parse(text: string): { functionalGroups: Array<{ transactions: Array<{ segments: X12Segment[] }> }> } } };

let t: TestApp;
let admin: string;
const RUN = `${Date.now().toString(36).toUpperCase()}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
const db = () => t.database.db;
const call = (url: string, payload: Record<string, unknown>) => injectAs(t.app, admin, { method: 'POST', url: `/api${url}`, payload });

async function ok<T>(url: string, payload: Record<string, unknown>): Promise<T> {
  const response = await call(url, payload);
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
}

/** A new owner whose EDI setting (made on the settings page) sends X12 at `sendOn`. */
async function owner(tag: string, sendOn: 'check_complete' | 'ship' | 'never', standard: 'x12' | 'edifact' = 'x12'): Promise<OutboundFixture> {
  const f = await outboundFixture(db(), `ES${tag}${RUN}`, 1);
  const ids = standard === 'x12' ? { sender_id: 'WMS', receiver_id: `SHOP${tag}` } : { sender_id: '5412345000013', receiver_id: '5498765000017' };
  await ok('/generic/adding', { moduleCode: 'edi', functionCode: 'ediPartner', record: { owner_id: f.ownerId, standard, send_on: sendOn, ...ids } });
  return f;
}

/** An order of the owner picked, packed into one closed carton; check-completed when asked. */
async function packed(f: OutboundFixture, tag: string, checkComplete: boolean): Promise<number> {
  const skuCode = (await db().selectFrom('sku').select('code').where('id', '=', f.skuIds[0]).executeTakeFirstOrThrow()).code;
  await stock(db(), f, f.skuIds[0], f.locationIds[0], 3);
  const orders = orderCalls(t.app, admin, db());
  const orderNo = `SOES-${tag}-${RUN}`;
  const soId = await orders.enter(orderNo, f.ownerId, [{ skuCode, qty: 3 }]);
  await orders.allocate(soId);
  expect((await call('/so/pick', { soId })).statusCode).toBe(200);
  await orders.pickSku(soId, f.skuIds[0], skuCode, `TOTE-ES${tag}-${RUN}`);
  await ok('/scanPack', { orderNo });
  const carton = (await ok<{ openCarton: { id: number } }>('/pack/scan/open', { soId })).openCarton;
  await ok('/pack/scan/sku', { cartonId: carton.id, barcode: skuCode, qty: 3 });
  await ok('/pack/scan/close', { cartonId: carton.id, grossWeight: 2, netWeight: 1.5, weightUom: 'KG' });
  if (checkComplete) await ok('/scanPack/closeOrder', { soId });
  return soId;
}

const messagesOf = (soId: number) => db().selectFrom('edi_message').select(['id', 'kind', 'content']).where('order_id', '=', soId).execute();

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
});

afterAll(async () => {
  await t?.close();
});

describe('EDI send_on', () => {
  it('queues the notice at check-complete only for owners that send then', async () => {
    const atCheck = await packed(await owner('C', 'check_complete'), 'C', true);
    const atShip = await packed(await owner('S', 'ship'), 'S', true);
    const never = await packed(await owner('N', 'never'), 'N', true);
    const [message] = await vi.waitFor(async () => {
      const rows = await messagesOf(atCheck);
      expect(rows).toHaveLength(1);
      return rows;
    }, { timeout: 20_000 });
    expect(message.kind).toBe('x12_856');
    expect(Buffer.from(message.content).toString('utf8')).toContain(`SOES-C-${RUN}`);
    // The other two owners' events were handled too (same node, in order): nothing for them.
    expect(await messagesOf(atShip)).toEqual([]);
    expect(await messagesOf(never)).toEqual([]);

  });

  it('queues on loading.shipped for owners that send on ship', async () => {
    const f = await owner('L', 'ship');
    const soId = await packed(f, 'L', false);
    const never = await packed(await owner('M', 'never'), 'M', false);
    await inTransaction(db(), (trx) => t.app.events.emit(trx, 'loading.shipped', { loadId: 4711, soIds: [soId, never], projectId: f.scope.projectId, warehouseId: f.scope.warehouseId }));
    const [message] = await vi.waitFor(async () => {
      const rows = await messagesOf(soId);
      expect(rows).toHaveLength(1);
      return rows;
    }, { timeout: 20_000 });
    expect(Buffer.from(message.content).toString('utf8')).toContain('4711');
    expect(await messagesOf(never)).toEqual([]);
  });

  it('ship confirm of a load puts the load into the DESADV and the 856, read back by EDI parsers', async () => {
    const edifactOwner = await owner('D', 'ship', 'edifact');
    const x12Owner = await owner('X', 'ship', 'x12');
    const edifactOrder = await packed(edifactOwner, 'D', true);
    const x12Order = await packed(x12Owner, 'X', true);
    // Both orders leave on one load of a container on a vessel.
    const transport = { containerNo: 'MSCU7654321', sealNo: `SL-${RUN}`, vessel: 'EVER GIVEN', voyage: '042W', mbl: `MAEU-${RUN}`, hbl: `HB-${RUN}` };
    const load = await ok<{ id: number; loadNo: string }>('/loading/create', transport);
    const cartonOf = async (soId: number) => {
      const carton = await db().selectFrom('carton').select(['carton_no', 'sscc']).where('so_id', '=', soId).executeTakeFirstOrThrow();
      await ok('/loading/scan', { loadId: load.id, code: carton.carton_no });
      return { loadNo: load.loadNo, sscc: carton.sscc as string };
    };
    const onEdifact = await cartonOf(edifactOrder);
    const onX12 = await cartonOf(x12Order);
    expect(await messagesOf(edifactOrder)).toEqual([]);
    await ok('/loading/shipConfirm', { loadId: load.id });
    const messageOf = (soId: number) =>
      vi.waitFor(async () => {
        const rows = await messagesOf(soId);
        expect(rows).toHaveLength(1);
        return { kind: rows[0].kind, text: Buffer.from(rows[0].content).toString('utf8') };
      }, { timeout: 20_000 });

    const desadv = await messageOf(edifactOrder);
    expect(desadv.kind).toBe('desadv');
    const reader = new Reader();
    // TDT names the vessel after the empty conditional C401, which the reader otherwise counts as one component of two.
    reader.define({ C401: { requires: 0, components: ['an..3', 'an..3', 'an..17'] } });
    const segments = reader.parse(desadv.text);
    const of = (tag: string) => segments.filter((s) => s.name === tag).map((s) => s.elements);
    expect(of('RFF')).toEqual(expect.arrayContaining([[['SRN', onEdifact.loadNo]], [['MB', transport.mbl]], [['BH', transport.hbl]]]));
    expect(of('EQD')).toEqual([[['CN'], [transport.containerNo]]]);
    expect(of('SEL')).toEqual([[[transport.sealNo], ['CA']]]);
    const [tdt] = of('TDT');
    expect(tdt[1]).toEqual(['042W']);
    expect(tdt[7]).toEqual(['', '', '', 'EVER GIVEN']);
    expect(of('GIN').map((e) => e[1][0])).toContain(onEdifact.sscc);

    const asn = await messageOf(x12Order);
    expect(asn.kind).toBe('x12_856');
    const set = new X12Parser(true).parse(asn.text).functionalGroups[0].transactions[0].segments;
    const values = (s: X12Segment) => s.elements.map((e) => e.value);
    const firstHl = set.findIndex((s) => s.tag === 'HL');
    const shipmentLevel = set.slice(firstHl, set.findIndex((s, i) => i > firstHl && s.tag === 'HL'));
    const td3 = values(shipmentLevel.find((s) => s.tag === 'TD3')!);
    expect([td3[0], td3[2], td3[8]]).toEqual(['CN', transport.containerNo, transport.sealNo]);
    expect(shipmentLevel.filter((s) => s.tag === 'REF').map(values)).toEqual([
      ['LO', onX12.loadNo],
      ['MB', transport.mbl],
      ['BM', transport.hbl],
      ['WU', 'EVER GIVEN', '042W'],
    ]);
    expect(set.filter((s) => s.tag === 'MAN').map((s) => values(s)[1])).toContain(onX12.sscc);
  });

  it('queues the notice now on request, whatever send_on says, with the load', async () => {
    const f = await owner('R', 'never');
    const soId = await packed(f, 'R', true);
    const sent = await ok<{ messageId: number; queued: boolean }>('/packHeader/extender/scanPackSendEdi', { soId, load: { loadNo: 'LD-1', containerNo: 'MSCU1234567', sealNo: 'SEAL99', vessel: 'EVER GIVEN' } });
    expect(sent.queued).toBe(true);
    const row = await db().selectFrom('edi_message').select(['order_id', 'content']).where('id', '=', sent.messageId).executeTakeFirstOrThrow();
    expect(Number(row.order_id)).toBe(soId);
    const text = Buffer.from(row.content).toString('utf8');
    expect(text).toContain('MSCU1234567');
    expect(text).toContain('SEAL99');

    // An owner without a setting: nothing queued; an unknown order: 404.
    const plain = await outboundFixture(db(), `ESP${RUN}`, 1);
    const plainOrder = await packed(plain, 'P', false);
    expect(await ok('/packHeader/extender/scanPackSendEdi', { soId: plainOrder })).toEqual({ messageId: null, queued: false });
    expect((await call('/packHeader/extender/scanPackSendEdi', { soId: 999999999 })).statusCode).toBe(404);
  });
});
