import Decimal from 'decimal.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadDemoData } from '../../src/server/install/demo-data.js';
import { ledgerAgreement } from '../../src/server/modules/inventory/inventory.repository.js';
import { buildTestApp, createUser, type TestApp } from '../helpers/app.js';
import { onRealServer } from '../helpers/database.js';
import { MODULES } from '../../src/server/modules/index.js';

/**
 * The inventory invariants at the document level, on the real PostgreSQL
 * server: 8 signed-in users, each an HTTP client of one running app, for
 * INVENTORY_DOC_STRESS_SECONDS (default 30) do random receipts of ASN lines, putaways, moves,
 * adjustments (with approval by another user), holds and releases, transfers (owner to owner,
 * through transit) and cycle counts (count order, blind entry, approval by another user), all
 * through the product's routes and page behaviours. Afterwards the ledger equals every balance,
 * nothing is negative or over-committed, every answer 200 is in the ledger under its document and
 * line, and no answer was a 500: every refusal is a 4xx with a code.
 */
if (!onRealServer) console.warn('skipped: the document stress test needs real PostgreSQL sessions; set TEST_DATABASE_URL to run it');

const SECONDS = Number(process.env.INVENTORY_DOC_STRESS_SECONDS ?? 30);
const SESSIONS = 8;

let t: TestApp;
let base: string;
const tokens: string[] = [];
let warehouseId: number;
let ownerId: number;
let otherOwnerId: number;
let otherSkuId: number;
let skus: { id: number; code: string }[];
let storage: { id: number; code: string }[];
let dock: { id: number; code: string };

beforeAll(async () => {
  if (!onRealServer) return;
  t = await buildTestApp();
  const db = t.database.db;
  await loadDemoData(db, MODULES);
  const project = await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  warehouseId = (await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow()).id;
  ownerId = (await db.selectFrom('owner').select('id').where('code', '=', 'ACME').where('project_id', '=', project.id).executeTakeFirstOrThrow()).id;
  const other = await db.selectFrom('owner').select('id').where('project_id', '=', project.id).where('id', '<>', ownerId).orderBy('id').executeTakeFirstOrThrow();
  otherOwnerId = other.id;
  otherSkuId = (await db.selectFrom('sku').select('id').where('owner_id', '=', otherOwnerId).orderBy('id').executeTakeFirstOrThrow()).id;
  skus = await db.selectFrom('sku').select(['id', 'code']).where('owner_id', '=', ownerId).orderBy('id').limit(6).execute();
  storage = await db.selectFrom('location').select(['id', 'code']).where('warehouse_id', '=', warehouseId).where('location_type', '=', 'storage').orderBy('id').limit(12).execute();
  dock = await db.selectFrom('location').select(['id', 'code']).where('warehouse_id', '=', warehouseId).where('location_type', '=', 'dock').orderBy('id').executeTakeFirstOrThrow();
  // Transfers of the owner change need approval; the stress confirms them through a second user.
  for (let i = 0; i < SESSIONS; i++) {
    tokens.push(await createUser(t, { loginAccount: `stress-${i}`, isAdmin: true, projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] }));
  }
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** Every answer of the run, by path and status; a 500 or a refusal without a code fails the test at the end. */
const answers = new Map<string, number>();
const broken: string[] = [];
/** What the ledger must hold: one reference (document number and line) per line of an answer 200. */
const expected: { op: string; orderNo: string; line: number }[] = [];
const done = new Map<string, number>();
const refusedOps = new Map<string, number>();

async function send(token: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${base}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    broken.push(`${path} answered ${response.status} not JSON: ${text.slice(0, 200)}`);
  }

  const key = `${path} ${response.status}${response.status === 200 ? '' : ` ${String(parsed.code)}`}`;
  answers.set(key, (answers.get(key) ?? 0) + 1);
  if (response.status >= 500) broken.push(`${path} answered ${response.status}: ${text.slice(0, 300)}`);
  else if (response.status !== 200 && typeof parsed.code !== 'string') broken.push(`${path} refused without a code: ${response.status} ${text.slice(0, 300)}`);
  return { status: response.status, body: parsed };
}

/** A step that must succeed for the operation to go on; a refusal ends the operation (counted). */
class Refused extends Error {}
async function must(token: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const answer = await send(token, path, body);
  if (answer.status !== 200) throw new Refused(String(answer.body.code));
  return answer.body;
}

const random = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(list: readonly T[]): T => list[random(list.length)];

/** A balance row of the warehouse with available stock (read from the database to choose what to act on). */
async function someStock(minAvailable = 1) {
  const rows = await t.database.db
    .selectFrom('inventory_balance as b')
    .innerJoin('location as l', 'l.id', 'b.location_id')
    .select(['b.owner_id', 'b.sku_id', 'b.lot_id', 'b.location_id', 'b.lpn', 'b.on_hand_qty', 'b.allocated_qty', 'b.picked_qty', 'b.held_qty'])
    .where('b.warehouse_id', '=', warehouseId)
    .where('b.owner_id', '=', ownerId)
    .where('l.location_type', '=', 'storage')
    .where((eb) => eb(eb('b.on_hand_qty', '-', eb(eb('b.allocated_qty', '+', eb.ref('b.picked_qty')), '+', eb.ref('b.held_qty'))), '>=', String(minAvailable)))
    .limit(40)
    .execute();
  return rows.length ? pick(rows) : undefined;
}

const page = (token: string, functionCode: string, record: Record<string, unknown>) =>
  must(token, '/generic/adding', { moduleCode: 'inventory', functionCode, record }).then((b) => (b as { row: { _key: number; doc_no: string } }).row);

const behaviour = (token: string, functionCode: string, code: string, keys: number[], inputs?: Record<string, unknown>) =>
  must(token, '/generic/behavior', { moduleCode: 'inventory', functionCode, behaviour: code, keys, ...(inputs ? { inputs } : {}) });

// ---------------------------------------------------------------- the operations

async function receipt(token: string) {
  const asn = (await must(token, '/asn/saveHeader', { ownerCode: 'ACME', remark: 'stress' })) as { id: number; asn_no: string };
  const count = 1 + random(3);
  const detail = (await must(token, '/asn/saveDetail', {
    asnId: asn.id,
    lines: Array.from({ length: count }, () => ({ skuCode: pick(skus).code, expectedQty: 10 + random(20), lotNo: `ST-${random(3)}` })),
  })) as { lines: { id: number; line_no: number; expected_qty: string }[] };
  // Part of a line, or all of it; sometimes one more than expected (refused: over-receive).
  const lines = detail.lines.map((l) => ({ asnLineId: l.id, qty: random(10) === 0 ? Number(l.expected_qty) + 1 : 1 + random(Number(l.expected_qty)), locationCode: dock.code, holdQty: random(5) === 0 ? 1 : 0 }));
  await must(token, '/inbound/batch/receive', { lines });
  for (const l of detail.lines) expected.push({ op: 'receipt', orderNo: asn.asn_no, line: l.line_no });
}

async function putaway(token: string) {
  const { tasks } = (await must(token, '/putaway/tasks')) as { tasks: { id: number; asn_no: string; suggested_location: string | null; from_location: string; lpn: string; qty: string }[] };
  if (tasks.length === 0) throw new Refused('NO_TASK');
  const task = pick(tasks);
  const suggested = task.suggested_location && task.suggested_location !== task.from_location ? task.suggested_location : null;
  const location = suggested && random(3) > 0 ? suggested : pick(storage).code;
  // Sometimes part of the task: the rest stays open.
  const qty = random(3) === 0 && Number(task.qty) > 1 ? 1 + random(Number(task.qty) - 1) : undefined;
  const confirmed = (await must(token, '/putaway/confirm', { taskId: task.id, locationCode: location, lpn: task.lpn || null, reason: location === suggested ? null : 'stress', qty })) as {
    asnLineNo: number;
  };
  expected.push({ op: 'putaway', orderNo: task.asn_no, line: confirmed.asnLineNo });
}

async function move(token: string) {
  const stock = await someStock();
  if (!stock) throw new Refused('NO_STOCK');
  const doc = await page(token, 'lnvnMove', {});
  const to = pick(storage.filter((l) => l.id !== stock.location_id));
  await page(token, 'lnvnMoveLine', { document_id: doc._key, owner_id: stock.owner_id, sku_id: stock.sku_id, lot_id: stock.lot_id, location_id: stock.location_id, to_location_id: to.id, qty: 1 + random(3), reason: 'REPLEN' });
  await must(token, '/inventory/invMoveHeader/confirm', { id: doc._key });
  expected.push({ op: 'move', orderNo: doc.doc_no, line: 1 });
}

async function adjustment(token: string, approverToken: string) {
  const subtract = random(2) === 0;
  const stock = subtract ? await someStock() : undefined;
  if (subtract && !stock) throw new Refused('NO_STOCK');
  const doc = await page(token, 'invAdjust', {});
  await page(token, 'invAdjustLine', {
    document_id: doc._key,
    action: subtract ? 'subtract' : 'add',
    owner_id: ownerId,
    sku_id: stock?.sku_id ?? pick(skus).id,
    location_id: stock?.location_id ?? pick(storage).id,
    ...(stock ? { lot_id: stock.lot_id } : {}),
    qty: 1 + random(3),
    reason: subtract ? 'DAMAGE' : 'FOUND',
  });
  if (subtract) {
    // DAMAGE needs approval: requested by this user, approved by another.
    await behaviour(token, 'invAdjust', 'requestApproval', [doc._key]);
    await must(approverToken, '/inventory/invAdjHeader/confirm', { id: doc._key });
  } else {
    await must(token, '/inventory/invAdjHeader/confirm', { id: doc._key });
  }
  expected.push({ op: 'adjust', orderNo: doc.doc_no, line: 1 });
}

async function holdOrRelease(token: string) {
  const release = random(2) === 0;
  let line: Record<string, unknown>;
  if (release) {
    const held = await t.database.db
      .selectFrom('inventory_balance as b')
      .innerJoin('location as l', 'l.id', 'b.location_id')
      .select(['b.sku_id', 'b.location_id', 'b.held_qty'])
      .where('b.warehouse_id', '=', warehouseId)
      .where('l.location_type', '=', 'storage')
      .where('b.held_qty', '>', '0')
      .limit(20)
      .execute();
    if (held.length === 0) throw new Refused('NOTHING_HELD');
    const row = pick(held);
    line = { action: 'release', sku_id: row.sku_id, location_id: row.location_id, qty: 1, reason: 'QC' };
  } else {
    const stock = await someStock();
    if (!stock) throw new Refused('NO_STOCK');
    line = { action: 'hold', sku_id: stock.sku_id, location_id: stock.location_id, qty: 1 + random(2), reason: 'QC' };
  }
  const doc = await page(token, 'invHold', {});
  await page(token, 'invHoldLine', { document_id: doc._key, ...line });
  await must(token, '/inventory/invHoldHeader/confirm', { id: doc._key });
  expected.push({ op: release ? 'release' : 'hold', orderNo: doc.doc_no, line: 1 });
}

async function transfer(token: string, approverToken: string) {
  const stock = await someStock();
  if (!stock) throw new Refused('NO_STOCK');
  const doc = await page(token, 'invTransfer', {});
  await page(token, 'invTransferLine', {
    document_id: doc._key,
    owner_id: stock.owner_id,
    sku_id: stock.sku_id,
    lot_id: stock.lot_id,
    location_id: stock.location_id,
    to_owner_id: otherOwnerId,
    to_sku_id: otherSkuId,
    to_location_id: pick(storage).id,
    qty: 1,
    reason: 'OWNER',
  });
  // OWNER needs approval: requested here; another user sends it in transit and delivers it.
  await behaviour(token, 'invTransfer', 'requestApproval', [doc._key]);
  if (random(2) === 0) {
    await behaviour(approverToken, 'invTransfer', 'transit', [doc._key]);
    if (random(4) === 0) {
      await behaviour(approverToken, 'invTransfer', 'cancelTransit', [doc._key]);
      expected.push({ op: 'transfer', orderNo: doc.doc_no, line: 1 });
      return;
    }
  }
  await must(approverToken, '/inventory/invTransferHeader/confirm', { id: doc._key });
  expected.push({ op: 'transfer', orderNo: doc.doc_no, line: 1 });
}

async function count(token: string, approverToken: string) {
  const made = (await behaviour(token, 'cycleCount', 'createDefault', [], { locations: 1 })) as { result: { ticketId: number } };
  const ticketId = made.result.ticketId;
  const tab = (await must(token, '/generic/tab', { moduleCode: 'inventory', functionCode: 'cycleCount', subPage: 'count', parentKey: ticketId, page: 1, pageSize: 100 })) as {
    rows: { _key: number }[];
  };
  const db = t.database.db;
  for (const row of tab.rows) {
    const system = await db.selectFrom('count_ticket_line').select('system_qty').where('id', '=', row._key).executeTakeFirstOrThrow();
    // The counter finds one more, one less or the same.
    await must(token, '/inventory/cycleCount/count', { lineId: row._key, qty: Math.max(1, Number(system.system_qty) + random(3) - 1) });
  }
  await must(approverToken, '/inventory/cycleCount/approve', { id: ticketId });
  const ticket = await db.selectFrom('count_ticket').select('ticket_no').where('id', '=', ticketId).executeTakeFirstOrThrow();
  const lines = await db.selectFrom('count_ticket_line').select(['line_no', 'system_qty', 'counted_qty', 'recount_qty']).where('ticket_id', '=', ticketId).execute();
  for (const l of lines) {
    const counted = l.recount_qty ?? l.counted_qty;
    if (counted !== null && !new Decimal(counted).equals(l.system_qty)) expected.push({ op: 'count', orderNo: ticket.ticket_no, line: l.line_no });
  }
}

const OPS: [string, number, (token: string, approver: string) => Promise<void>][] = [
  ['receipt', 3, receipt],
  ['putaway', 3, putaway],
  ['move', 2, move],
  ['adjust', 2, adjustment],
  ['hold', 2, holdOrRelease],
  ['transfer', 1, transfer],
  ['count', 1, count],
];
const WEIGHTED = OPS.flatMap((op) => Array.from({ length: op[1] }, () => op));

it.skipIf(!onRealServer)(
  `8 sessions of receipts, putaways, moves, adjustments, holds, transfers and counts: the ledger never lies`,
  async () => {
    const deadline = Date.now() + SECONDS * 1000;
    await Promise.all(
      tokens.map(async (token, i) => {
        const approver = tokens[(i + 1) % tokens.length];
        while (Date.now() < deadline) {
          const [name, , run] = pick(WEIGHTED);
          try {
            await run(token, approver);
            done.set(name, (done.get(name) ?? 0) + 1);
          } catch (error) {
            if (!(error instanceof Refused)) throw error;
            refusedOps.set(name, (refusedOps.get(name) ?? 0) + 1);
          }
        }
      }),
    );
    const db = t.database.db;
    console.log(
      `document stress, ${SESSIONS} sessions, ${SECONDS} s: done ${JSON.stringify(Object.fromEntries(done))}; refused ${JSON.stringify(Object.fromEntries(refusedOps))}; answers ${JSON.stringify(Object.fromEntries([...answers].sort()))}`,
    );
    expect(broken).toEqual([]);
    // Enough of each kind happened for the run to mean something.
    for (const [name] of OPS) expect(done.get(name) ?? 0, `${name} done`).toBeGreaterThan(0);

    for (const row of await ledgerAgreement(db)) {
      expect(new Decimal(row.ledger_on_hand).equals(row.on_hand_qty), `on-hand of balance ${row.id}`).toBe(true);
      expect(new Decimal(row.ledger_held).equals(row.held_qty), `held of balance ${row.id}`).toBe(true);
      expect(new Decimal(row.ledger_allocated).equals(row.allocated_qty), `allocated of balance ${row.id}`).toBe(true);
      expect(new Decimal(row.ledger_picked).equals(row.picked_qty), `picked of balance ${row.id}`).toBe(true);
      const committed = new Decimal(row.allocated_qty).plus(row.picked_qty).plus(row.held_qty);
      expect(new Decimal(row.on_hand_qty).isNegative(), `balance ${row.id} negative`).toBe(false);
      expect(committed.lessThanOrEqualTo(row.on_hand_qty), `balance ${row.id} over-committed`).toBe(true);
      for (const q of [row.allocated_qty, row.picked_qty, row.held_qty]) expect(new Decimal(q).isNegative()).toBe(false);
    }
    const ledger = await db.selectFrom('inventory_transaction').select(['order_no', 'reference_line']).where('warehouse_id', '=', warehouseId).execute();
    const present = new Set(ledger.map((r) => `${r.order_no}#${r.reference_line}`));
    const missing = expected.filter((e) => !present.has(`${e.orderNo}#${e.line}`));
    expect(missing).toEqual([]);
  },
  (SECONDS + 240) * 1000,
);
