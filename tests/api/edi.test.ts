import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { connectPostgres } from '../../src/server/db/database.js';
import type { DB } from '../../src/server/db/schema.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { queueShipNotice, saveEdiPartner, type ShipNotice } from '../../src/server/modules/edi/index.js';
import { sendQueuedEdiJob } from '../../src/server/modules/edi/edi.jobs.js';
import { buildTestApp, createUser, injectAs, json, type TestApp } from '../helpers/app.js';
import { onRealServer } from '../helpers/database.js';

/**
 * The EDI area on a real database: ship notices queued in the caller's transaction by the owner's
 * setting, the EDI log page, the raw message byte for byte, resend to a local HTTP server (a 2xx
 * marks it sent, a 500 leaves it queued with the error), the queue's job, writing into a folder,
 * and control numbers that never repeat, also under concurrency and rollbacks.
 */

/** A local HTTP server playing the customer's EDI endpoint: it answers `status` and keeps each body. */
interface FakeEndpoint {
  url: string;
  status: number;
  bodies: Buffer[];
  close(): Promise<void>;
}

async function fakeEndpoint(status = 200): Promise<FakeEndpoint> {
  const endpoint: FakeEndpoint = { url: '', status, bodies: [], close: async () => undefined };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      endpoint.bodies.push(Buffer.concat(chunks));
      response.statusCode = endpoint.status;
      response.end(endpoint.status >= 400 ? 'partner system down' : 'OK');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/edi/inbox`;
  endpoint.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return endpoint;
}

const run = Math.random().toString(36).slice(2, 8).toUpperCase();
let t: TestApp;
let viewer: string;
let resender: string;
let projectId: number;
let warehouseId: number;
let ownerSeq = 0;

/** A new owner of PRJ1 with an EDI setting of the given standard and endpoint. */
async function ownerWithSetting(standard: 'edifact' | 'x12' | 'none', endpoint: string | null, sendOn: 'check_complete' | 'ship' | 'never' = 'ship'): Promise<number> {
  ownerSeq += 1;
  const owner = await t.database.db
    .insertInto('owner')
    .values({ project_id: projectId, code: `EDI${run}${ownerSeq}`, name: `EDI customer ${ownerSeq}`, created_by: 'test', updated_by: 'test' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const ownerId = Number(owner.id);
  await inTransaction(t.database.db, (trx) =>
    saveEdiPartner(trx, { projectId, by: 'test' }, { ownerId, standard, sendOn, endpoint, senderId: '5412345000013', receiverId: '5498765000017', senderQualifier: standard === 'x12' ? 'ZZ' : null }),
  );
  return ownerId;
}

function noticeOf(ownerId: number, no: string): ShipNotice {
  return {
    ownerId,
    noticeNo: `SN-${run}-${no}`,
    shipDate: '2026-11-26',
    orderNo: `SO-${run}-${no}`,
    customerPo: 'PO-77',
    shipFrom: { name: 'Main warehouse', gln: '5412345000013', city: 'Antwerp', country: 'BE' },
    shipTo: { name: 'Shop 12', street: 'Market 3', city: 'Ghent', postalCode: '9000', country: 'BE' },
    carrier: { name: 'Road Express' },
    cartons: [
      { sscc: '306141410000000012', palletSscc: '306141410000000029', lines: [{ gtin: '05412345000020', sku: 'SKU-A', qty: '12', unit: 'PCE', lot: 'LOT1', expiry: '2027-03-31' }] },
      { sscc: '306141410000000036', lines: [{ sku: 'SKU-B', qty: '2', unit: 'PCE' }] },
    ],
  };
}

const queue = (notice: ShipNotice, options: { trigger?: 'check_complete' | 'ship' } = {}) =>
  inTransaction(t.database.db, (trx) => queueShipNotice(trx, { projectId, warehouseId, by: 'packer' }, notice, options));
const rowOf = (id: number) => t.database.db.selectFrom('edi_message').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const resend = (token: string, keys: number[]) =>
  injectAs(t.app, token, { method: 'POST', url: '/api/generic/behavior', payload: { moduleCode: 'edi', functionCode: 'ediLogSummary', behaviour: 'resend', keys } });

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  projectId = Number((await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow()).id);
  warehouseId = Number((await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow()).id);
  viewer = await createUser(t, { loginAccount: `edi.viewer.${run}`.toLowerCase(), rights: ['edi.ediLogSummary:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  resender = await createUser(t, { loginAccount: `edi.resender.${run}`.toLowerCase(), rights: ['edi.ediLogSummary:view', 'edi.ediLogSummary:resend'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('queueing a ship notice', () => {
  it('makes an EDIFACT DESADV or an X12 856 as the owner is set up, and nothing for an owner without EDI or another trigger', async () => {
    const edifact = await queue(noticeOf(await ownerWithSetting('edifact', null), 'E1'));
    const x12 = await queue(noticeOf(await ownerWithSetting('x12', null), 'X1'));
    expect(edifact).not.toBeNull();
    expect(x12).not.toBeNull();
    const [e, x] = [await rowOf(edifact!), await rowOf(x12!)];
    expect(e).toMatchObject({ kind: 'desadv', status: 'queued', attempts: 0, warehouse_id: warehouseId, project_id: projectId, reference: `SN-${run}-E1` });
    expect(Buffer.from(e.content).toString('utf8')).toMatch(/^UNA:\+\.\? 'UNB\+UNOC:3\+5412345000013:14\+5498765000017:14\+/);
    expect(x).toMatchObject({ kind: 'x12_856', status: 'queued' });
    expect(Buffer.from(x.content).toString('utf8')).toMatch(/^ISA\*00\*.{10}\*00\*.{10}\*ZZ\*5412345000013 {2}\*/);
    expect(Buffer.from(x.content).toString('utf8')).toContain(`~ST*856*${x.message_control}~`);

    expect(await queue(noticeOf(await ownerWithSetting('none', null), 'N1'))).toBeNull();
    expect(await queue(noticeOf(await ownerWithSetting('x12', null, 'check_complete'), 'T1'), { trigger: 'ship' })).toBeNull();
    expect(await queue(noticeOf(await ownerWithSetting('x12', null, 'never'), 'T2'), { trigger: 'ship' })).toBeNull();
    await expect(queue({ ...noticeOf(await ownerWithSetting('x12', null), 'B1'), cartons: [] })).rejects.toMatchObject({ code: 'EDI_NOTICE_INVALID' });
  });

  it('never gives a control number twice, not to a transaction that rolled back nor to concurrent sessions', async () => {
    const ownerId = await ownerWithSetting('edifact', null);
    let rolledBack = 0;
    await expect(
      inTransaction(t.database.db, async (trx) => {
        const id = await queueShipNotice(trx, { projectId, warehouseId, by: 'packer' }, noticeOf(ownerId, 'RB'));
        rolledBack = Number((await trx.selectFrom('edi_message').select('interchange_control').where('id', '=', id!).executeTakeFirstOrThrow()).interchange_control);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // Two sessions at once (on PostgreSQL a second connection pool, as a second app node would
    // have), each queueing twenty notices in its own transactions, some rolling back.
    const second = t.database.url ? await connectPostgres(t.database.url, 5) : undefined;
    const session = (db: Kysely<DB>, name: string) =>
      Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          inTransaction(db, async (trx) => {
            const id = await queueShipNotice(trx, { projectId, warehouseId, by: name }, noticeOf(ownerId, `${name}${n}`));
            const control = Number((await trx.selectFrom('edi_message').select('interchange_control').where('id', '=', id!).executeTakeFirstOrThrow()).interchange_control);
            if (n % 5 === 4) throw new Error(`rolled back ${control}`);
            return control;
          }).catch((error: Error) => Number(/rolled back (\d+)/.exec(error.message)?.[1] ?? NaN)),
        ),
      );
    let a: number[];
    let b: number[];
    try {
      [a, b] = await Promise.all([session(t.database.db, 'A'), session(second?.db ?? t.database.db, 'B')]);
    } finally {
      await second?.close();
    }
    const handedOut = [rolledBack, ...a, ...b];
    expect(handedOut.every(Number.isInteger)).toBe(true);
    expect(new Set(handedOut).size).toBe(41);
    expect(Math.min(...a, ...b)).toBeGreaterThan(rolledBack);
    const stored = await t.database.db.selectFrom('edi_message as m').innerJoin('edi_partner as p', 'p.id', 'm.partner_id').select('m.interchange_control').where('p.owner_id', '=', ownerId).execute();
    expect(stored).toHaveLength(32);
    if (!onRealServer) console.warn('the concurrency of control numbers is shown on PostgreSQL only: set TEST_DATABASE_URL');
  });


  it('makes the control number sequence of a setting written without it (on its page) once, when two sessions first use it together', async () => {
    const owner = await t.database.db
      .insertInto('owner')
      .values({ project_id: projectId, code: `EDI${run}P`, name: 'Set up on the page', created_by: 'test', updated_by: 'test' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const ownerId = Number(owner.id);
    await t.database.db
      .insertInto('edi_partner')
      .values({ project_id: projectId, owner_id: ownerId, standard: 'x12', send_on: 'ship', endpoint: null, sender_id: 'WMS', sender_qualifier: null, receiver_id: 'SHOP', receiver_qualifier: null, created_by: 'test', updated_by: 'test' })
      .execute();
    const second = t.database.url ? await connectPostgres(t.database.url, 5) : undefined;
    try {
      const ids = await Promise.all(
        Array.from({ length: 10 }, (_, n) => inTransaction(n % 2 && second ? second.db : t.database.db, (trx) => queueShipNotice(trx, { projectId, warehouseId, by: 'packer' }, noticeOf(ownerId, `P${n}`)))),
      );
      const controls = await t.database.db.selectFrom('edi_message').select('interchange_control').where('id', 'in', ids as number[]).execute();
      expect(new Set(controls.map((c) => c.interchange_control)).size).toBe(10);
    } finally {
      await second?.close();
    }
  });
});

describe('the EDI log', () => {
  it('lists the messages of the session\'s warehouse on its page, and hands out the raw message byte for byte', async () => {
    const id = (await queue(noticeOf(await ownerWithSetting('edifact', null), 'L1')))!;
    const page = await injectAs(t.app, viewer, { method: 'POST', url: '/api/generic/selection', payload: { moduleCode: 'edi', functionCode: 'ediLogSummary', page: 1, pageSize: 100 } });
    expect(page.statusCode, page.body).toBe(200);
    const rows = json<{ rows: Array<{ _key: unknown; reference: string; status: string }> }>(page).rows;
    expect(rows.find((r) => Number(r._key) === id)).toMatchObject({ reference: `SN-${run}-L1`, status: 'queued' });

    const stored = Buffer.from((await rowOf(id)).content);
    const raw = await injectAs(t.app, viewer, { method: 'GET', url: `/api/edi/message/raw?id=${id}` });
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-disposition']).toBe(`attachment; filename="DESADV_SN-${run}-L1_${id}.edi"`);
    expect(Buffer.compare(raw.rawPayload, stored)).toBe(0);
    const content = await injectAs(t.app, viewer, { method: 'GET', url: `/api/edi/message/content?id=${id}` });
    expect(json<{ content: string }>(content).content).toBe(stored.toString('utf8'));

    // A message of another warehouse is not found; the ids are checked before the database.
    const otherWarehouse = await t.database.db.selectFrom('warehouse').select('id').where('id', '<>', warehouseId).executeTakeFirst();
    if (otherWarehouse) {
      await t.database.db.updateTable('edi_message').set({ warehouse_id: otherWarehouse.id }).where('id', '=', id).execute();
      expect((await injectAs(t.app, viewer, { method: 'GET', url: `/api/edi/message/raw?id=${id}` })).statusCode).toBe(404);
      await t.database.db.updateTable('edi_message').set({ warehouse_id: warehouseId }).where('id', '=', id).execute();
    }
    expect((await injectAs(t.app, viewer, { method: 'GET', url: '/api/edi/message/raw?id=abc' })).statusCode).toBe(400);
  });

  it('resends to the customer\'s endpoint: a 2xx marks the message sent, a 500 leaves it queued with the error', async () => {
    const endpoint = await fakeEndpoint(500);
    try {
      const id = (await queue(noticeOf(await ownerWithSetting('x12', endpoint.url), 'R1')))!;
      expect((await resend(viewer, [id])).statusCode).toBe(403);

      const failed = await resend(resender, [id]);
      expect(failed.statusCode, failed.body).toBe(200);
      expect(json<{ result: { outcomes: Array<{ status: string; error?: string }> } }>(failed).result.outcomes).toEqual([{ id, status: 'queued', error: expect.stringContaining('answered 500: partner system down') }]);
      expect(await rowOf(id)).toMatchObject({ status: 'queued', attempts: 1, last_error: expect.stringContaining('500'), sent_at: null });

      endpoint.status = 202;
      const done = await resend(resender, [id]);
      expect(done.statusCode, done.body).toBe(200);
      expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
      expect(endpoint.bodies).toHaveLength(2);
      expect(Buffer.compare(endpoint.bodies[1], Buffer.from((await rowOf(id)).content))).toBe(0);
    } finally {
      await endpoint.close();
    }
  });

  it('is sent by the queue\'s job, which fails its run while an endpoint does not take the message', async () => {
    const endpoint = await fakeEndpoint(503);
    try {
      const id = (await queue(noticeOf(await ownerWithSetting('edifact', endpoint.url), 'J1')))!;
      const log: string[] = [];
      await expect(sendQueuedEdiJob.run({ db: t.database.db, params: { batchSize: '1000' }, log: (line: string) => log.push(line) } as never)).rejects.toThrow(/could not be sent/);
      expect(await rowOf(id)).toMatchObject({ status: 'queued', last_error: expect.stringContaining('503') });
      endpoint.status = 200;
      await sendQueuedEdiJob.run({ db: t.database.db, params: { batchSize: '1000' }, log: (line: string) => log.push(line) } as never).catch(() => undefined);
      expect(await rowOf(id)).toMatchObject({ status: 'sent' });
      expect(endpoint.bodies.at(-1)!.toString('utf8')).toContain(`BGM+351+SN-${run}-J1+9'`);
    } finally {
      await endpoint.close();
    }
  });

  it('writes the message into a folder endpoint as one whole file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'edi-out-'));
    try {
      const id = (await queue(noticeOf(await ownerWithSetting('x12', folder), 'F1')))!;
      expect((await resend(resender, [id])).statusCode).toBe(200);
      expect(readdirSync(folder)).toEqual([`856_SN-${run}-F1_${id}.edi`]);
      expect(Buffer.compare(readFileSync(join(folder, readdirSync(folder)[0])), Buffer.from((await rowOf(id)).content))).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
