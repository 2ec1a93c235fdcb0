import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaundryBatch, LaundryCounts, LaundryCustomerInfo, LaundryCustomerRow, LaundryDeviceRow, LaundryIssuedDevice } from '../../src/common/laundry-api.js';
import { LAUNDRY_RATE_LIMITS } from '../../src/server/modules/laundry/laundry.public-routes.js';
import { buildTestApp, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/**
 * The laundry through the real server (docs/laundry.md): an administrator issues devices and
 * customers; a device key opens the public /moose routes, bound to the device's warehouse; garments
 * go received -> washing -> cleaned -> returned and no other way; every refusal changes nothing;
 * the public routes are rate limited per device and per address and read only the laundry's tables.
 */
let t: TestApp;
let admin: string;
let otherAdmin: string;
const RUN = `${Date.now().toString(36).toUpperCase()}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
const db = () => t.database.db;
let address = 0;
/** A fresh client address per test, so that the rate limits of one test do not reach another. */
const nextAddress = () => `10.77.${Math.floor(++address / 250)}.${address % 250}`;

const adminCall = (url: string, payload: Record<string, unknown>, token = admin) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload, headers: { 'x-language': 'en' } });

async function adminOk<T>(url: string, payload: Record<string, unknown>, token = admin): Promise<T> {
  const response = await adminCall(url, payload, token);
  expect(response.statusCode, `${url} ${response.body}`).toBe(200);
  return json<T>(response);
}

function moose(url: string, payload: Record<string, unknown>, key: string | null, remoteAddress: string) {
  return t.app.inject({ method: 'POST', url: `/api${url}`, payload, remoteAddress, headers: { 'x-language': 'en', ...(key === null ? {} : { 'x-laundry-device': key }) } });
}

async function mooseOk<T>(url: string, payload: Record<string, unknown>, key: string, ip: string): Promise<T> {
  const response = await moose(url, payload, key, ip);
  expect(response.statusCode, `${url} ${response.body}`).toBe(200);
  return json<T>(response);
}

async function mooseRefused(url: string, payload: Record<string, unknown>, key: string | null, ip: string, status: number, code: string) {
  const response = await moose(url, payload, key, ip);
  expect(response.statusCode, `${url} ${response.body}`).toBe(status);
  const body = json<{ code: string; message: string }>(response);
  expect(body.code).toBe(code);
  expect(body.message.length).toBeGreaterThan(10);
  return body;
}

/** A snapshot of the laundry's rows, to prove that a refusal changed nothing. */
async function laundryRows() {
  const [garments, events, batches] = await Promise.all([
    db().selectFrom('laundry_garment').select(['id', 'status', 'batch_id', 'customer_id', 'updated_at']).orderBy('id').execute(),
    db().selectFrom('laundry_garment_event').select('id').execute(),
    db().selectFrom('laundry_batch').select(['id', 'status']).orderBy('id').execute(),
  ]);
  return { garments, events: events.length, batches };
}

async function issueDevice(name: string, token = admin) {
  return adminOk<LaundryIssuedDevice>('/laundry/device/issue', { name }, token);
}

async function issueCustomer(name: string, token = admin) {
  return adminOk<LaundryCustomerRow>('/laundry/customer/issue', { name, phone: '+66 81 234 5678' }, token);
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  // A second warehouse of the same project, with an administrator of the laundry there.
  const org = await db().selectFrom('organization').select('id').executeTakeFirstOrThrow();
  const project = await db().selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const wh = await db()
    .insertInto('warehouse')
    .values({ organization_id: org.id, code: `LW${RUN}`, name: 'Laundry second warehouse', nav_layout: null, created_by: 'test', updated_by: 'test' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db().insertInto('project_warehouse').values({ project_id: project.id, warehouse_id: wh.id }).execute();
  otherAdmin = (
    await createUserAccount(t, { loginAccount: `laundry-wh2-${RUN}`, rights: ['laundry.admin:view', 'laundry.admin:edit'], projectCodes: ['PRJ1'], warehouseCodes: [`LW${RUN}`] })
  ).token;
});
afterAll(() => t?.close());

describe('laundry administration', () => {
  it('issues a device whose key is answered once and stored only hashed, and lists it without the key', async () => {
    const issued = await issueDevice(`Counter phone ${RUN}`);
    expect(issued.key).toMatch(/^lnd_[A-Za-z0-9_-]{32}$/);
    const stored = await db().selectFrom('laundry_device').selectAll().where('id', '=', issued.device.id).executeTakeFirstOrThrow();
    expect(stored.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(issued.key);
    const list = await adminOk<{ rows: LaundryDeviceRow[] }>('/laundry/devices', {});
    const row = list.rows.find((r) => r.id === issued.device.id);
    expect(row).toMatchObject({ name: `Counter phone ${RUN}`, keyHint: issued.key.slice(0, 8), revokedAt: null });
    expect(JSON.stringify(list)).not.toContain(issued.key);
  });

  it('issues customers with a code of their own', async () => {
    const a = await issueCustomer(`Anna ${RUN}`);
    const b = await issueCustomer(`Boon ${RUN}`);
    expect(a.code).toMatch(/^C[A-Z2-9]{9}$/);
    expect(a.code).not.toBe(b.code);
    const list = await adminOk<{ rows: LaundryCustomerRow[] }>('/laundry/customers', {});
    expect(list.rows.map((r) => r.code)).toEqual(expect.arrayContaining([a.code, b.code]));
  });

  it('needs a session and the laundry right', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/laundry/device/issue', payload: { name: 'x' } })).statusCode).toBe(401);
    const viewer = (await createUserAccount(t, { loginAccount: `laundry-viewer-${RUN}`, rights: ['laundry.admin:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] })).token;
    expect((await adminCall('/laundry/devices', {}, viewer)).statusCode).toBe(200);
    expect((await adminCall('/laundry/device/issue', { name: 'x' }, viewer)).statusCode).toBe(403);
    expect((await adminCall('/laundry/customer/issue', { name: 'x' }, viewer)).statusCode).toBe(403);
  });

  it("does not list or revoke another warehouse's device", async () => {
    const there = await issueDevice(`Other phone ${RUN}`, otherAdmin);
    const here = await adminOk<{ rows: LaundryDeviceRow[] }>('/laundry/devices', {});
    expect(here.rows.some((r) => r.id === there.device.id)).toBe(false);
    expect((await adminCall('/laundry/device/revoke', { deviceId: there.device.id })).statusCode).toBe(404);
    const row = await db().selectFrom('laundry_device').select('revoked_at').where('id', '=', there.device.id).executeTakeFirstOrThrow();
    expect(row.revoked_at).toBeNull();
  });
});

describe('the laundry flow with a device key', () => {
  it('receives, washes, cleans and returns garments, with counts, customer info and an audit of every step', async () => {
    const ip = nextAddress();
    const { key, device } = await issueDevice(`Flow phone ${RUN}`);
    const customer = await issueCustomer(`Flow customer ${RUN}`);
    const tags = [1, 2, 3].map((n) => `T${RUN}-${n}`);
    expect(await mooseOk<{ name: string }>('/moose/device', {}, key, ip)).toEqual({ name: `Flow phone ${RUN}` });
    const before = await mooseOk<LaundryCounts>('/moose/counts', {}, key, ip);

    for (const tag of tags) {
      expect(await mooseOk('/moose/receive', { customerCode: customer.code, tag }, key, ip)).toEqual({ tag, status: 'received', customerName: customer.name });
    }
    // The code is read as the customer gives it: spaces and lower case do not matter.
    const info = await mooseOk<LaundryCustomerInfo>('/moose/query', { customerCode: customer.code.toLowerCase() }, key, ip);
    expect(info.name).toBe(customer.name);
    expect(info.garments.map((g) => [g.tag, g.status]).sort()).toEqual(tags.map((tag) => [tag, 'received']));

    const batch = await mooseOk<LaundryBatch>('/moose/batch/start', {}, key, ip);
    expect(batch).toMatchObject({ status: 'washing', tags: [] });
    for (const tag of tags) expect((await mooseOk<{ status: string }>('/moose/batch/add', { batchId: batch.id, tag }, key, ip)).status).toBe('washing');
    const open = await mooseOk<{ rows: LaundryBatch[] }>('/moose/batches', {}, key, ip);
    expect(open.rows.find((b) => b.id === batch.id)?.tags).toEqual(tags);
    const washing = await mooseOk<LaundryCounts>('/moose/counts', {}, key, ip);
    expect(washing.received - before.received).toBe(3);
    expect(washing.washing - before.washing).toBe(3);

    expect(await mooseOk('/moose/clean', { batchId: batch.id }, key, ip)).toEqual({ batchId: batch.id, cleaned: 3 });
    expect((await mooseOk<{ rows: LaundryBatch[] }>('/moose/batches', {}, key, ip)).rows.some((b) => b.id === batch.id)).toBe(false);
    const cleaned = await mooseOk<LaundryCounts>('/moose/counts', {}, key, ip);
    expect(cleaned.cleaned - before.cleaned).toBe(3);
    expect(cleaned.washing - before.washing).toBe(0);

    for (const tag of tags) expect((await mooseOk<{ status: string }>('/moose/return', { customerCode: customer.code, tag }, key, ip)).status).toBe('returned');
    const after = await mooseOk<LaundryCounts>('/moose/counts', {}, key, ip);
    expect(after.returned - before.returned).toBe(3);
    expect(after.cleaned - before.cleaned).toBe(0);
    const done = await mooseOk<LaundryCustomerInfo>('/moose/query', { customerCode: customer.code }, key, ip);
    expect(done.garments.every((g) => g.status === 'returned' && g.returnedAt !== null && g.batchId === batch.id)).toBe(true);

    // Who and when: every step of every garment, by this device, and the rows written by it.
    const garments = await db().selectFrom('laundry_garment').select(['id', 'created_by', 'updated_by']).where('tag', 'in', tags).execute();
    expect(garments.every((g) => g.created_by === `device:${device.id}:Flow phone ${RUN}` && g.updated_by === g.created_by)).toBe(true);
    const events = await db()
      .selectFrom('laundry_garment_event')
      .select(['garment_id', 'from_status', 'to_status', 'device_id', 'at'])
      .where(
        'garment_id',
        'in',
        garments.map((g) => g.id),
      )
      .orderBy('id')
      .execute();
    expect(events).toHaveLength(12);
    expect(events.every((e) => Number(e.device_id) === device.id && e.at instanceof Date)).toBe(true);
    expect(events.filter((e) => Number(e.garment_id) === Number(garments[0].id)).map((e) => `${e.from_status}>${e.to_status}`)).toEqual([
      'null>received',
      'received>washing',
      'washing>cleaned',
      'cleaned>returned',
    ]);

    // A returned tag can come in again, as a new garment of the laundry.
    expect((await mooseOk<{ status: string }>('/moose/receive', { customerCode: customer.code, tag: tags[0] }, key, ip)).status).toBe('received');
  });

  it('enforces the order of the steps on the server, changing nothing on a refusal', async () => {
    const ip = nextAddress();
    const { key } = await issueDevice(`Rules phone ${RUN}`);
    const customer = await issueCustomer(`Rules customer ${RUN}`);
    const tag = `R${RUN}`;
    await mooseOk('/moose/receive', { customerCode: customer.code, tag }, key, ip);
    let snapshot = await laundryRows();
    // Received twice while not returned.
    await mooseRefused('/moose/receive', { customerCode: customer.code, tag }, key, ip, 409, 'LAUNDRY_TAG_IN_PROCESS');
    // Returned before it was cleaned.
    await mooseRefused('/moose/return', { customerCode: customer.code, tag }, key, ip, 409, 'LAUNDRY_WRONG_STATUS');
    // An unknown tag, a batch that is not washing, an empty batch.
    const batch = await mooseOk<LaundryBatch>('/moose/batch/start', {}, key, ip);
    snapshot = await laundryRows();
    await mooseRefused('/moose/batch/add', { batchId: batch.id, tag: `NONE${RUN}` }, key, ip, 404, 'LAUNDRY_GARMENT_NOT_FOUND');
    await mooseRefused('/moose/clean', { batchId: batch.id }, key, ip, 409, 'LAUNDRY_BATCH_EMPTY');
    await mooseRefused('/moose/batch/add', { batchId: 9_000_000_000, tag }, key, ip, 409, 'LAUNDRY_BATCH_NOT_OPEN');
    expect(await laundryRows()).toEqual(snapshot);
    await mooseOk('/moose/batch/add', { batchId: batch.id, tag }, key, ip);
    snapshot = await laundryRows();
    // In a batch twice; returned while washing.
    await mooseRefused('/moose/batch/add', { batchId: batch.id, tag }, key, ip, 409, 'LAUNDRY_WRONG_STATUS');
    await mooseRefused('/moose/return', { customerCode: customer.code, tag }, key, ip, 409, 'LAUNDRY_WRONG_STATUS');
    expect(await laundryRows()).toEqual(snapshot);
    await mooseOk('/moose/clean', { batchId: batch.id }, key, ip);
    snapshot = await laundryRows();
    // A finished batch takes nothing more and is not finished twice.
    await mooseRefused('/moose/clean', { batchId: batch.id }, key, ip, 409, 'LAUNDRY_BATCH_NOT_OPEN');
    await mooseRefused('/moose/batch/add', { batchId: batch.id, tag }, key, ip, 409, 'LAUNDRY_BATCH_NOT_OPEN');
    expect(await laundryRows()).toEqual(snapshot);
    await mooseOk('/moose/return', { customerCode: customer.code, tag }, key, ip);
    await mooseRefused('/moose/return', { customerCode: customer.code, tag }, key, ip, 404, 'LAUNDRY_GARMENT_NOT_FOUND');
  });

  it('refuses bad input with a 400 before anything is read', async () => {
    const ip = nextAddress();
    const { key } = await issueDevice(`Input phone ${RUN}`);
    for (const payload of [{}, { customerCode: '', tag: 'x' }, { customerCode: 'C1', tag: '' }, { customerCode: "C1'; drop table sku; --", tag: 'x' }, { customerCode: 'C1', tag: 'x'.repeat(100) }, { customerCode: 'C1', tag: 'x', extra: 1 }]) {
      expect((await moose('/moose/receive', payload, key, ip)).statusCode).toBe(400);
    }
  });
});

describe('the safety of the public routes', () => {
  it('answers 401 with a clear code to a call without a key, with an unknown or malformed key, and with a revoked key', async () => {
    const ip = nextAddress();
    const { key, device } = await issueDevice(`Revoked phone ${RUN}`);
    const customer = await issueCustomer(`Key customer ${RUN}`);
    const routes: Array<[string, Record<string, unknown>]> = [
      ['/moose/device', {}],
      ['/moose/counts', {}],
      ['/moose/query', { customerCode: customer.code }],
      ['/moose/receive', { customerCode: customer.code, tag: `K${RUN}` }],
      ['/moose/batches', {}],
      ['/moose/batch/start', {}],
      ['/moose/batch/add', { batchId: 1, tag: `K${RUN}` }],
      ['/moose/clean', { batchId: 1 }],
      ['/moose/return', { customerCode: customer.code, tag: `K${RUN}` }],
    ];
    const snapshot = await laundryRows();
    for (const [url, payload] of routes) {
      await mooseRefused(url, payload, null, ip, 401, 'LAUNDRY_DEVICE_KEY_MISSING');
      await mooseRefused(url, payload, '', ip, 401, 'LAUNDRY_DEVICE_KEY_MISSING');
      await mooseRefused(url, payload, `lnd_${'A'.repeat(32)}`, ip, 401, 'LAUNDRY_DEVICE_UNKNOWN');
      await mooseRefused(url, payload, 'not a key', ip, 401, 'LAUNDRY_DEVICE_UNKNOWN');
      // A session token is no device key.
      const withSession = await t.app.inject({ method: 'POST', url: `/api${url}`, payload, remoteAddress: ip, headers: { authorization: `Bearer ${admin}` } });
      expect(withSession.statusCode).toBe(401);
    }
    // Bad input without a key says nothing about the input: the key is checked first.
    await mooseRefused('/moose/receive', { nonsense: true }, null, ip, 401, 'LAUNDRY_DEVICE_KEY_MISSING');
    expect(await laundryRows()).toEqual(snapshot);

    expect((await moose('/moose/device', {}, key, ip)).statusCode).toBe(200);
    await adminOk('/laundry/device/revoke', { deviceId: device.id });
    for (const [url, payload] of routes) await mooseRefused(url, payload, key, ip, 401, 'LAUNDRY_DEVICE_REVOKED');
    expect(await laundryRows()).toEqual(snapshot);
    const listed = await adminOk<{ rows: LaundryDeviceRow[] }>('/laundry/devices', {});
    expect(listed.rows.find((r) => r.id === device.id)?.revokedBy).toBe('admin');
  });

  it("refuses another customer's code for a garment and a withdrawn customer's code, changing nothing", async () => {
    const ip = nextAddress();
    const { key } = await issueDevice(`Customer phone ${RUN}`);
    const owner = await issueCustomer(`Owner ${RUN}`);
    const stranger = await issueCustomer(`Stranger ${RUN}`);
    const tag = `O${RUN}`;
    await mooseOk('/moose/receive', { customerCode: owner.code, tag }, key, ip);
    const batch = await mooseOk<LaundryBatch>('/moose/batch/start', {}, key, ip);
    await mooseOk('/moose/batch/add', { batchId: batch.id, tag }, key, ip);
    await mooseOk('/moose/clean', { batchId: batch.id }, key, ip);
    const snapshot = await laundryRows();
    await mooseRefused('/moose/return', { customerCode: stranger.code, tag }, key, ip, 403, 'LAUNDRY_GARMENT_OTHER_CUSTOMER');
    // The stranger's info holds none of the owner's garments; an unknown code finds no one.
    const strangerInfo = await mooseOk<LaundryCustomerInfo>('/moose/query', { customerCode: stranger.code }, key, ip);
    expect(strangerInfo.garments).toEqual([]);
    await mooseRefused('/moose/query', { customerCode: `CZZZ${RUN}` }, key, ip, 404, 'LAUNDRY_CUSTOMER_NOT_FOUND');
    await mooseRefused('/moose/return', { customerCode: `CZZZ${RUN}`, tag }, key, ip, 404, 'LAUNDRY_CUSTOMER_NOT_FOUND');
    // A withdrawn code opens nothing.
    await adminOk('/laundry/customer/active', { customerId: owner.id, active: false });
    await mooseRefused('/moose/query', { customerCode: owner.code }, key, ip, 404, 'LAUNDRY_CUSTOMER_NOT_FOUND');
    await mooseRefused('/moose/return', { customerCode: owner.code, tag }, key, ip, 404, 'LAUNDRY_CUSTOMER_NOT_FOUND');
    expect(await laundryRows()).toEqual(snapshot);
    await adminOk('/laundry/customer/active', { customerId: owner.id, active: true });
    expect((await mooseOk<{ status: string }>('/moose/return', { customerCode: owner.code, tag }, key, ip)).status).toBe('returned');
  });

  it("keeps a device to its own warehouse: another warehouse's customers, garments and batches are not found", async () => {
    const ip = nextAddress();
    const here = await issueDevice(`Here phone ${RUN}`);
    const there = await issueDevice(`There phone ${RUN}`, otherAdmin);
    const hereCustomer = await issueCustomer(`Here customer ${RUN}`);
    const thereCustomer = await issueCustomer(`There customer ${RUN}`, otherAdmin);
    const tag = `W${RUN}`;
    await mooseOk('/moose/receive', { customerCode: thereCustomer.code, tag }, there.key, ip);
    const thereBatch = await mooseOk<LaundryBatch>('/moose/batch/start', {}, there.key, ip);
    const snapshot = await laundryRows();
    const thereCounts = await mooseOk<LaundryCounts>('/moose/counts', {}, there.key, ip);
    expect(thereCounts.received).toBe(1);

    await mooseRefused('/moose/query', { customerCode: thereCustomer.code }, here.key, ip, 404, 'LAUNDRY_CUSTOMER_NOT_FOUND');
    await mooseRefused('/moose/receive', { customerCode: thereCustomer.code, tag: `W2${RUN}` }, here.key, ip, 404, 'LAUNDRY_CUSTOMER_NOT_FOUND');
    await mooseRefused('/moose/batch/add', { batchId: thereBatch.id, tag }, here.key, ip, 409, 'LAUNDRY_BATCH_NOT_OPEN');
    await mooseRefused('/moose/clean', { batchId: thereBatch.id }, here.key, ip, 409, 'LAUNDRY_BATCH_NOT_OPEN');
    const hereBatch = await mooseOk<LaundryBatch>('/moose/batch/start', {}, here.key, ip);
    await mooseRefused('/moose/batch/add', { batchId: hereBatch.id, tag }, here.key, ip, 404, 'LAUNDRY_GARMENT_NOT_FOUND');
    await mooseRefused('/moose/return', { customerCode: hereCustomer.code, tag }, here.key, ip, 404, 'LAUNDRY_GARMENT_NOT_FOUND');
    expect((await mooseOk<{ rows: LaundryBatch[] }>('/moose/batches', {}, here.key, ip)).rows.some((b) => b.id === thereBatch.id)).toBe(false);
    // The same tag is a garment of its own in this warehouse.
    await mooseOk('/moose/receive', { customerCode: hereCustomer.code, tag }, here.key, ip);
    const after = await laundryRows();
    expect(after.garments.filter((g) => snapshot.garments.some((s) => s.id === g.id))).toEqual(snapshot.garments);
    expect((await mooseOk<LaundryCounts>('/moose/counts', {}, there.key, ip)).received).toBe(1);
  });

  it('answers 429 with a clear message past the limit of a device, other devices going on', async () => {
    const ip = nextAddress();
    const busy = await issueDevice(`Busy phone ${RUN}`);
    const calm = await issueDevice(`Calm phone ${RUN}`);
    const statuses: number[] = [];
    for (let i = 0; i < LAUNDRY_RATE_LIMITS.perDevice; i++) statuses.push((await moose('/moose/device', {}, busy.key, ip)).statusCode);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await mooseRefused('/moose/counts', {}, busy.key, ip, 429, 'LAUNDRY_TOO_MANY_FROM_DEVICE');
    expect(refused.message).toMatch(/device/i);
    expect((await moose('/moose/device', {}, calm.key, ip)).statusCode).toBe(200);
  });

  it('answers 429 past the limit of an address, guessed keys counted too', async () => {
    const ip = nextAddress();
    const { key } = await issueDevice(`Address phone ${RUN}`);
    const statuses = new Set<number>();
    for (let i = 0; i < LAUNDRY_RATE_LIMITS.perAddress; i++) statuses.add((await moose('/moose/device', {}, `lnd_${String(i).padStart(32, 'G')}`, ip)).statusCode);
    expect([...statuses]).toEqual([401]);
    const refused = await mooseRefused('/moose/device', {}, key, ip, 429, 'LAUNDRY_TOO_MANY_FROM_ADDRESS');
    expect(refused.message).toMatch(/address/i);
    // Another address is not held up.
    expect((await moose('/moose/device', {}, key, nextAddress())).statusCode).toBe(200);
  });

  it('reads and writes only the laundry tables on the public routes', () => {
    // The public services are typed against the laundry tables only (LaundryDb); this reads their source too.
    const folder = resolve(import.meta.dirname, '../../src/server/modules/laundry');
    const files = ['laundry.public-routes.ts', 'laundry.repository.ts', 'laundry.device-key.ts'];
    const named: string[] = [];
    for (const file of files) {
      const source = readFileSync(resolve(folder, file), 'utf8');
      for (const match of source.matchAll(/\.(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|with)\(\s*'([a-z_]+)/g)) named.push(match[1]);
      expect(source).not.toMatch(/sql`[^`]*\b(from|join|into|update)\b/i);
      expect(source).not.toMatch(/import .* from '\.\.\/(?!\.\.)(?!laundry)/);
    }
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((table) => !table.startsWith('laundry_'))).toEqual([]);
  });
});
