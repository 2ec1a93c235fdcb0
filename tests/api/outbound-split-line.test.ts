import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { outboundFixture, type OutboundFixture } from '../helpers/outbound.js';

/**
 * The "Split line" action of the order lines tab (`outbound.soLine.split` through
 * /api/generic/behavior) on the real server: the entered quantity moves to a new line whose named
 * field takes the new value; a split of the whole line, of a field the line leaves empty, of an
 * unknown field or with a bad quantity is refused in the user's language and changes nothing; a
 * user without the edit right is refused.
 */
let t: TestApp;
let admin: string;
let viewer: string;
let f: OutboundFixture;
let seq = 0;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  f = await outboundFixture(t.database.db, 'SP', 2);
  viewer = await createUser(t, { loginAccount: 'split-viewer', rights: ['outbound.so:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
});

afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: Record<string, unknown>, token = admin, language = 'en') =>
  injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload, headers: { 'x-language': language } });

async function newLine(qty: number): Promise<{ soId: number; lineId: number }> {
  seq += 1;
  const added = await post('/generic/adding', { moduleCode: 'outbound', functionCode: 'so', record: { order_no: `SPLIT-${seq}`, owner_id: f.ownerId, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-01-31' } });
  expect(added.statusCode, added.body).toBe(200);
  const soId = json<{ row: { _key: number } }>(added).row._key;
  const line = await post('/so/create/soDetail', { soId, skuCode: 'SKU-SP-1', qty });
  expect(line.statusCode, line.body).toBe(200);
  return { soId, lineId: json<{ lineId: number }>(line).lineId };
}

const split = (lineId: number, inputs: Record<string, unknown>, token = admin, language = 'en') =>
  post('/generic/behavior', { moduleCode: 'outbound', functionCode: 'soDetail', behaviour: 'splitLine', keys: [lineId], inputs }, token, language);

async function linesOf(soId: number) {
  const rows = await t.database.db.selectFrom('so_line').select(['line_no', 'qty', 'uom', 'lot_no']).where('so_id', '=', soId).orderBy('line_no').execute();
  return rows.map((r) => ({ lineNo: r.line_no, qty: Number(r.qty), uom: r.uom, lotNo: r.lot_no }));
}

describe('split line on the order lines tab', () => {
  it('moves the entered quantity to a new line with the new value of the named field', async () => {
    const { soId, lineId } = await newLine(10);
    const answer = await split(lineId, { qty: '4', field: 'uom', toValue: 'CS' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await linesOf(soId)).toEqual([
      { lineNo: 1, qty: 6, uom: 'EA', lotNo: null },
      { lineNo: 2, qty: 4, uom: 'CS', lotNo: null },
    ]);
  });

  it.each([
    ['the whole line', { qty: '10', field: 'uom', toValue: 'CS' }, 409, 'SPLIT_NOT_ALLOWED'],
    ['more than the line', { qty: '11', field: 'uom', toValue: 'CS' }, 409, 'SPLIT_NOT_ALLOWED'],
    ['a field the line leaves empty', { qty: '2', field: 'lot_no', toValue: 'L1' }, 400, 'SPLIT_VALUE_REQUIRED'],
    ['a field a split may not change', { qty: '2', field: 'sku_id', toValue: '1' }, 400, 'VALIDATION_FAILED'],
    ['no new value', { qty: '2', field: 'uom', toValue: ' ' }, 400, 'VALIDATION_FAILED'],
    ['a quantity that is not a number', { qty: 'abc', field: 'uom', toValue: 'CS' }, 400, 'VALIDATION_FAILED'],
    ['a quantity of 0', { qty: '0', field: 'uom', toValue: 'CS' }, 400, 'VALIDATION_FAILED'],
  ])('refuses %s and changes nothing', async (_name, inputs, status, code) => {
    const { soId, lineId } = await newLine(10);
    const answer = await split(lineId, inputs);
    expect(answer.statusCode, answer.body).toBe(status);
    expect(json<{ code: string }>(answer).code).toBe(code);
    expect(await linesOf(soId)).toEqual([{ lineNo: 1, qty: 10, uom: 'EA', lotNo: null }]);
  });

  it('answers the refusal in the user language', async () => {
    const { lineId } = await newLine(10);
    const answer = await split(lineId, { qty: '10', field: 'uom', toValue: 'CS' }, admin, 'zh');
    expect(answer.statusCode).toBe(409);
    expect(json<{ message: string }>(answer).message).not.toBe('Not allowed to split.');
  });

  it('refuses a user who may only view orders', async () => {
    const { soId, lineId } = await newLine(10);
    const answer = await split(lineId, { qty: '4', field: 'uom', toValue: 'CS' }, viewer);
    expect(answer.statusCode, answer.body).toBe(403);
    expect(await linesOf(soId)).toEqual([{ lineNo: 1, qty: 10, uom: 'EA', lotNo: null }]);
  });
});
