import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, injectAs, json, type TestApp } from '../helpers/app.js';

/**
 * Inbound rules through the real server: scan-in's carton checks (carton id pattern, EPC, carton
 * type, anti-counterfeit code unless the SKU is a gift), for a carton and for each carton of a whole
 * container, the scanned quantities of a container by SKU, the ASN's cartons tab, the split of a receipt line from
 * the goods receipts page, the link to the ASN a purchase order's action made, the batch receive columns, and the putaway location logic by item type
 * and by the project's zones. Every refusal answers its own message and changes nothing.
 */
let t: TestApp;
let clerk: string;
let projectId: number;

const RIGHTS: `${string}:${string}`[] = [
  'inbound.asn:view',
  'inbound.asn:add',
  'inbound.asn:edit',
  'inbound.asn:receive',
  'inbound.asnLine:view',
  'inbound.asnLine:add',
  'inbound.asnLine:edit',
  'inbound.asnCarton:view',
  'inbound.asnCarton:add',
  'inbound.asnCarton:edit',
  'inbound.asnCarton:delete',
  'inbound.inbGr:view',
  'inbound.putaway:view',
  'inbound.putaway:confirm',
  'masterdata.sku:view',
  'masterdata.sku:edit',
  'inbound.po:view',
  'inbound.po:add',
  'inbound.poLine:view',
  'inbound.poLine:add',
];

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  const project = await db.selectFrom('project').select(['id', 'organization_id']).where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  projectId = project.id;
  const warehouseId = (await db.selectFrom('warehouse').select('id').where('code', '=', 'WH1').executeTakeFirstOrThrow()).id;
  const ownerId = (await db.insertInto('owner').values({ project_id: project.id, code: 'ACME', name: 'Acme', created_by: 't', updated_by: 't' }).returning('id').executeTakeFirstOrThrow()).id;
  const skus = [
    { code: 'SKU-A', sku_group: null, case_qty: '12' },
    { code: 'FOOD-1', sku_group: 'FOOD', case_qty: null },
    { code: 'FOOD-2', sku_group: 'FOOD', case_qty: null },
    { code: 'TOY-1', sku_group: 'TOYS', case_qty: null },
  ];
  for (const sku of skus) {
    await db.insertInto('sku').values({ project_id: project.id, owner_id: ownerId, description: `Item ${sku.code}`, created_by: 't', updated_by: 't', ...sku }).execute();
  }
  const locations = [
    { code: 'DOCK-01', location_type: 'dock' as const, zone: null, pick_seq: null },
    { code: 'Z1-01', location_type: 'storage' as const, zone: 'Z1', pick_seq: 1 },
    { code: 'Z2-01', location_type: 'storage' as const, zone: 'Z2', pick_seq: 2 },
    { code: 'Z3-01', location_type: 'storage' as const, zone: 'Z3', pick_seq: 3 },
    { code: 'Z1-02', location_type: 'storage' as const, zone: 'Z1', pick_seq: 4 },
    { code: 'Z1-03', location_type: 'storage' as const, zone: 'Z1', pick_seq: 5 },
  ];
  await db
    .insertInto('location')
    .values(locations.map((l) => ({ warehouse_id: warehouseId, ...l, created_by: 't', updated_by: 't' })))
    .execute();
  clerk = await createUser(t, { loginAccount: 'receiver', rights: RIGHTS, projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
});

afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown, language = 'en') =>
  injectAs(t.app, clerk, { method: 'POST', url: `/api${url}`, payload: payload as Record<string, unknown>, headers: { 'x-language': language } });

async function ok<T = Record<string, unknown>>(url: string, payload: unknown): Promise<T> {
  const response = await post(url, payload);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return json<T>(response);
}

async function refused(url: string, payload: unknown, code: string, language = 'en') {
  const response = await post(url, payload, language);
  expect(response.statusCode, `${url}: ${response.body}`).toBeGreaterThanOrEqual(400);
  expect(response.statusCode).toBeLessThan(500);
  const body = json<{ code: string; message: string }>(response);
  expect(body.code, response.body).toBe(code);
  return body;
}

async function snapshot() {
  const db = t.database.db;
  const [lines, balances, ledger, receipts, cartons, tasks] = await Promise.all([
    db.selectFrom('asn_line').select(['id', 'received_qty', 'putaway_qty']).orderBy('id').execute(),
    db.selectFrom('inventory_balance').selectAll().orderBy('id').execute(),
    db.selectFrom('inventory_transaction').select('id').orderBy('id').execute(),
    db.selectFrom('receipt_line').selectAll().orderBy('id').execute(),
    db.selectFrom('asn_carton').selectAll().orderBy('id').execute(),
    db.selectFrom('putaway_task').select(['id', 'status', 'qty']).orderBy('id').execute(),
  ]);
  return { lines, balances, ledger, receipts, cartons, tasks };
}

/** Sets the gift flag of a SKU on the SKU page, as a user would. */
async function markGift(skuCode: string, gift: boolean) {
  const rows = (await ok<{ rows: { _key: number; _version: number; code: string; gift: boolean }[] }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'sku', page: 1, pageSize: 100 })).rows;
  const row = rows.find((r) => r.code === skuCode)!;
  await ok('/generic/updating', { moduleCode: 'masterdata', functionCode: 'sku', key: row._key, version: row._version, record: { gift } });
  const after = (await ok<{ rows: { code: string; gift: boolean }[] }>('/generic/selection', { moduleCode: 'masterdata', functionCode: 'sku', page: 1, pageSize: 100 })).rows;
  expect(after.find((r) => r.code === skuCode)!.gift).toBe(gift);
}

async function newAsn(lines: { skuCode: string; expectedQty: number; cartons?: { containerId: string; cartonId: string; qty: number }[] }[]) {
  const asn = await ok<{ id: number; asn_no: string }>('/asn/saveHeader', { ownerCode: 'ACME' });
  const detail = await ok<{ lines: { id: number; line_no: number }[] }>('/asn/saveDetail', { asnId: asn.id, lines });
  return { ...asn, lineIds: detail.lines.map((l) => l.id) };
}

describe('scan-in carton checks', () => {
  let asn: Awaited<ReturnType<typeof newAsn>>;
  beforeAll(async () => {
    asn = await newAsn([
      { skuCode: 'SKU-A', expectedQty: 10, cartons: [{ containerId: 'CONT-R', cartonId: 'CTN-R-1', qty: 5 }] },
      { skuCode: 'TOY-1', expectedQty: 4, cartons: [{ containerId: 'CONT-R', cartonId: 'CTN-G-1', qty: 4 }] },
    ]);
    // The toy is a gift: the flag is the SKU's, set on the SKU page.
    await markGift('TOY-1', true);
  });

  it('refuses a carton id that does not match the pattern, when scanned and when announced', async () => {
    const before = await snapshot();
    const bad = await refused('/scanin/id', { code: 'CT 1!' }, 'CARTON_ID_PATTERN');
    expect(bad.message).toBe('Carton id CT 1! does not match the carton id pattern: 4 to 40 letters, digits or dashes.');
    await refused('/asn/saveDetail', { asnId: asn.id, lines: [{ skuCode: 'SKU-A', expectedQty: 1, cartons: [{ containerId: 'CONT-R', cartonId: 'x#', qty: 1 }] }] }, 'CARTON_ID_PATTERN');
    expect(await snapshot()).toEqual(before);
  });

  it('asks for EPC, carton type and anti-counterfeit code in turn, each with its own message', async () => {
    const before = await snapshot();
    expect((await refused('/scanin/id', { code: 'CTN-R-1' }, 'EPC_REQUIRED')).message).toBe('The EPC is required.');
    expect((await refused('/scanin/id', { code: 'CTN-R-1', epc: 'EPC-1' }, 'CARTON_TYPE_REQUIRED')).message).toBe('The carton type is required.');
    const ac = await refused('/scanin/id', { code: 'CTN-R-1', epc: 'EPC-1', cartonType: 'BOX', antiCounterfeitCode: '  ' }, 'ANTI_COUNTERFEIT_REQUIRED');
    expect(ac.message).toBe('Scan the anti-counterfeit code: it is required unless the item is a gift.');
    expect((await refused('/scanin/id', { code: 'CTN-R-1', epc: 'EPC-1', cartonType: 'BOX' }, 'ANTI_COUNTERFEIT_REQUIRED', 'zh')).message).toBe('请扫描防伪码：除赠品外均为必填。');
    expect(await snapshot()).toEqual(before);
  });

  it('scans a carton with all three, and a gift without the anti-counterfeit code', async () => {
    const scanned = await ok<{ cartons: { carton_id: string; status: string; epc: string | null; carton_type: string | null; anti_counterfeit_code: string | null }[] }>('/scanin/id', {
      code: 'CTN-R-1',
      epc: 'EPC-1',
      cartonType: 'BOX',
      antiCounterfeitCode: 'AC-1',
    });
    expect(scanned.cartons.find((c) => c.carton_id === 'CTN-R-1')).toMatchObject({ status: 'scanned', epc: 'EPC-1', carton_type: 'BOX', anti_counterfeit_code: 'AC-1' });
    const gift = await ok<{ cartons: { carton_id: string; status: string; anti_counterfeit_code: string | null }[] }>('/scanin/id', { code: 'CTN-G-1', epc: 'EPC-2', cartonType: 'BAG' });
    expect(gift.cartons.find((c) => c.carton_id === 'CTN-G-1')).toMatchObject({ status: 'scanned', anti_counterfeit_code: null });
  });
});

describe('scan-in of a whole container', () => {
  type Carton = { carton_id: string; status: string; epc: string | null; carton_type: string | null; anti_counterfeit_code: string | null };
  type Refusal = { code: string; message: string; params?: { cartonId?: string }; details?: { field: string; code: string }[] };
  let asn: Awaited<ReturnType<typeof newAsn>>;
  beforeAll(async () => {
    asn = await newAsn([
      {
        skuCode: 'SKU-A',
        expectedQty: 10,
        cartons: [
          { containerId: 'CONT-W', cartonId: 'CTN-W-1', qty: 5 },
          { containerId: 'CONT-W', cartonId: 'CTN-W-2', qty: 5 },
        ],
      },
      { skuCode: 'TOY-1', expectedQty: 4, cartons: [{ containerId: 'CONT-W', cartonId: 'CTN-W-G', qty: 4 }] },
      { skuCode: 'FOOD-1', expectedQty: 3, cartons: [{ containerId: 'CONT-W', cartonId: 'CTN-W-F', qty: 3 }] },
    ]);
  });

  const refusal = async (payload: Record<string, unknown>, code: string) => {
    const response = await post('/scanin/id', { code: 'CONT-W', ...payload });
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect(response.statusCode, response.body).toBeLessThan(500);
    const body = json<Refusal>(response);
    expect(body.code, response.body).toBe(code);
    return body;
  };

  it('refuses the whole container when one carton misses EPC, carton type or anti-counterfeit code, naming that carton, and changes nothing', async () => {
    const before = await snapshot();
    const noEpc = await refusal({}, 'EPC_REQUIRED');
    expect(noEpc.params?.cartonId).toBe('CTN-W-1');
    expect(noEpc.details).toMatchObject([{ field: 'cartons.CTN-W-1.epc', code: 'EPC_REQUIRED' }]);
    const epcs = ['CTN-W-1', 'CTN-W-2', 'CTN-W-F', 'CTN-W-G'].map((cartonId) => ({ cartonId, epc: `EPC-${cartonId}` }));
    const noType = await refusal({ cartons: epcs }, 'CARTON_TYPE_REQUIRED');
    expect(noType.details?.[0].field).toBe('cartons.CTN-W-1.cartonType');
    // All but CTN-W-2 carry an anti-counterfeit code (the gift carton needs none): the container is refused for CTN-W-2 alone.
    const codes = epcs.map((c) => (c.cartonId === 'CTN-W-2' || c.cartonId === 'CTN-W-G' ? c : { ...c, antiCounterfeitCode: `AC-${c.cartonId}` }));
    const noCode = await refusal({ cartonType: 'BOX', cartons: codes }, 'ANTI_COUNTERFEIT_REQUIRED');
    expect(noCode.params?.cartonId).toBe('CTN-W-2');
    expect(noCode.details).toMatchObject([{ field: 'cartons.CTN-W-2.antiCounterfeitCode', code: 'ANTI_COUNTERFEIT_REQUIRED' }]);
    expect(noCode.message).toBe('Scan the anti-counterfeit code: it is required unless the item is a gift.');
    // A carton the container does not hold is refused too.
    const stranger = await refusal({ cartonType: 'BOX', cartons: [...codes, { cartonId: 'CTN-R-1', epc: 'X' }] }, 'CONTAINER_NOT_FOUND_OR_RECEIVED');
    expect(stranger.params?.cartonId).toBe('CTN-R-1');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a container holding a carton whose id does not match the pattern', async () => {
    const db = t.database.db;
    const line = await db.selectFrom('asn_line').select(['id', 'asn_id', 'project_id']).where('id', '=', asn.lineIds[2]).executeTakeFirstOrThrow();
    const warehouseId = (await db.selectFrom('asn').select('warehouse_id').where('id', '=', asn.id).executeTakeFirstOrThrow()).warehouse_id;
    // A carton stored before the pattern was checked, in a container of its own.
    const legacy = await db
      .insertInto('asn_carton')
      .values({ project_id: line.project_id, warehouse_id: warehouseId, asn_id: asn.id, asn_line_id: line.id, container_id: 'CONT-L', carton_id: 'old #1', qty: '1', receipt_line_id: null, epc: 'E', carton_type: 'BOX', anti_counterfeit_code: 'AC', created_by: 't', updated_by: 't' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = await snapshot();
    const response = await post('/scanin/id', { code: 'CONT-L' });
    expect(json<Refusal>(response)).toMatchObject({ code: 'CARTON_ID_PATTERN', details: [{ field: 'cartons.old #1.cartonId', code: 'CARTON_ID_PATTERN' }] });
    expect(await snapshot()).toEqual(before);
    await db.deleteFrom('asn_carton').where('id', '=', legacy.id).execute();
  });

  it('scans every carton with what the scan gives, a gift without a code, and shows scanned against received by SKU', async () => {
    const show = async () =>
      (await ok<{ skus: { skuCode: string; cartons: number; qty: string; scannedQty: string; receivedQty: string }[] }>('/scan/show', { containerId: 'CONT-W' })).skus
        .map((s) => [s.skuCode, s.cartons, Number(s.qty), Number(s.scannedQty), Number(s.receivedQty)])
        .sort();
    expect(await show()).toEqual([
      ['FOOD-1', 1, 3, 0, 0],
      ['SKU-A', 2, 10, 0, 0],
      ['TOY-1', 1, 4, 0, 0],
    ]);
    // CTN-W-1 was scanned alone first: the container scan keeps what was recorded on it.
    await ok('/scanin/id', { code: 'CTN-W-1', epc: 'EPC-ALONE', cartonType: 'CRATE', antiCounterfeitCode: 'AC-ALONE' });
    const scanned = await ok<{ kind: string; cartons: Carton[] }>('/scanin/id', {
      code: 'CONT-W',
      cartonType: 'BOX',
      cartons: [
        { cartonId: 'CTN-W-2', epc: 'EPC-2', antiCounterfeitCode: 'AC-2' },
        { cartonId: 'CTN-W-F', epc: 'EPC-F', antiCounterfeitCode: 'AC-F', cartonType: 'BAG' },
        { cartonId: 'CTN-W-G', epc: 'EPC-G' },
      ],
    });
    expect(scanned.kind).toBe('container');
    expect(scanned.cartons.map((c) => [c.carton_id, c.status, c.epc, c.carton_type, c.anti_counterfeit_code])).toEqual([
      ['CTN-W-1', 'scanned', 'EPC-ALONE', 'CRATE', 'AC-ALONE'],
      ['CTN-W-2', 'scanned', 'EPC-2', 'BOX', 'AC-2'],
      ['CTN-W-F', 'scanned', 'EPC-F', 'BAG', 'AC-F'],
      ['CTN-W-G', 'scanned', 'EPC-G', 'BOX', null],
    ]);
    expect(await show()).toEqual([
      ['FOOD-1', 1, 3, 3, 0],
      ['SKU-A', 2, 10, 10, 0],
      ['TOY-1', 1, 4, 4, 0],
    ]);
    await ok('/scanin/convertToRec', { containerId: 'CONT-W', locationCode: 'DOCK-01' });
    expect(await show()).toEqual([
      ['FOOD-1', 1, 3, 0, 3],
      ['SKU-A', 2, 10, 0, 10],
      ['TOY-1', 1, 4, 0, 4],
    ]);
  });

  it('offers the two ways to scan', async () => {
    const response = await injectAs(t.app, clerk, { method: 'GET', url: '/api/scanIn/way' });
    expect(json(response)).toEqual({ ways: ['container', 'carton'] });
  });
});

describe('the gift flag', () => {
  it('is the SKU\'s: a SKU no longer a gift needs the code again, and an ASN line marked gift stays an override', async () => {
    await markGift('FOOD-2', false);
    const asn = await newAsn([
      { skuCode: 'FOOD-2', expectedQty: 2, cartons: [{ containerId: 'CONT-V', cartonId: 'CTN-V-1', qty: 2 }] },
      { skuCode: 'FOOD-2', expectedQty: 2, cartons: [{ containerId: 'CONT-V', cartonId: 'CTN-V-2', qty: 2 }] },
    ]);
    await refused('/scanin/id', { code: 'CTN-V-1', epc: 'E1', cartonType: 'BOX' }, 'ANTI_COUNTERFEIT_REQUIRED');
    await markGift('FOOD-2', true);
    await ok('/scanin/id', { code: 'CTN-V-1', epc: 'E1', cartonType: 'BOX' });
    await markGift('FOOD-2', false);
    await refused('/scanin/id', { code: 'CTN-V-2', epc: 'E2', cartonType: 'BOX' }, 'ANTI_COUNTERFEIT_REQUIRED');
    const lines = (await ok<{ rows: { _key: number; _version: number; line_no: number }[] }>('/generic/tab', { moduleCode: 'inbound', functionCode: 'asn', subPage: 'lines', parentKey: asn.id, page: 1, pageSize: 10 })).rows;
    const second = lines.find((l) => l.line_no === 2)!;
    await ok('/generic/updating', { moduleCode: 'inbound', functionCode: 'asnLine', key: second._key, version: second._version, record: { gift: true } });
    await ok('/scanin/id', { code: 'CTN-V-2', epc: 'E2', cartonType: 'BOX' });
  });
});

describe('the cartons tab of an ASN', () => {
  const add = (record: Record<string, unknown>) => post('/generic/adding', { moduleCode: 'inbound', functionCode: 'asnCarton', record });

  it('adds a carton of a new ASN, and refuses a bad carton id, too much quantity and an ASN no longer new', async () => {
    const asn = await newAsn([{ skuCode: 'SKU-A', expectedQty: 6 }]);
    const before = await snapshot();
    const bad = await add({ asn_id: asn.id, asn_line_id: asn.lineIds[0], container_id: 'CONT-T', carton_id: 'no good', qty: 2 });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(json<{ code: string }>(bad).code).toBe('CARTON_ID_PATTERN');
    const over = await add({ asn_id: asn.id, asn_line_id: asn.lineIds[0], container_id: 'CONT-T', carton_id: 'CTN-T-1', qty: 7 });
    expect(json<{ code: string }>(over).code).toBe('OVER_RECEIVE');
    expect(await snapshot()).toEqual(before);
    const added = await add({ asn_id: asn.id, asn_line_id: asn.lineIds[0], container_id: 'CONT-T', carton_id: 'CTN-T-1', qty: 6, status: 'received', epc: 'FORGED' });
    expect(added.statusCode, added.body).toBe(200);
    const carton = await t.database.db.selectFrom('asn_carton').selectAll().where('carton_id', '=', 'CTN-T-1').executeTakeFirstOrThrow();
    expect([carton.status, carton.epc, carton.container_id, Number(carton.qty)]).toEqual(['open', null, 'CONT-T', 6]);

    await ok('/inbound/batch/receive', { lines: [{ asnLineId: asn.lineIds[0], qty: 1, locationCode: 'DOCK-01' }] });
    const late = await add({ asn_id: asn.id, asn_line_id: asn.lineIds[0], container_id: 'CONT-T', carton_id: 'CTN-T-2', qty: 1 });
    expect(json<{ code: string }>(late).code).toBe('ORDER_STATUS_ERROR');
  });
});

describe('an ASN made from a purchase order', () => {
  it('answers the ASN made with a link that opens the ASN page filtered to it', async () => {
    const db = t.database.db;
    const ownerId = (await db.selectFrom('owner').select('id').where('code', '=', 'ACME').executeTakeFirstOrThrow()).id;
    const skuId = (await db.selectFrom('sku').select('id').where('code', '=', 'SKU-A').executeTakeFirstOrThrow()).id;
    const po = await ok<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'inbound', functionCode: 'po', record: { owner_id: ownerId, supplier_code: null } });
    await ok('/generic/adding', { moduleCode: 'inbound', functionCode: 'poLine', record: { po_id: po.row._key, sku_id: skuId, qty: 3 } });
    const answer = await ok<{ result: { asnNos: string[] }; messageCode: string; links: unknown[] }>('/generic/behavior', { moduleCode: 'inbound', functionCode: 'po', behaviour: 'createAsn', keys: [po.row._key] });
    const [asnNo] = answer.result.asnNos;
    const made = await db.selectFrom('asn').select(['asn_no', 'po_id']).where('asn_no', '=', asnNo).executeTakeFirstOrThrow();
    expect(Number(made.po_id)).toBe(Number(po.row._key));
    expect(answer.messageCode).toBe('inb.message.asnCreated');
    expect(answer.links).toEqual([{ labelCode: 'inb.ui.openAsn', labelParams: { asnNo }, moduleCode: 'inbound', functionCode: 'asn', filter: { asn_no: asnNo } }]);
  });
});

describe('batch receive columns', () => {
  it('answers the ASN status, rec date, base unit and package size of each line', async () => {
    const asn = await newAsn([{ skuCode: 'SKU-A', expectedQty: 30 }]);
    const before = (await ok<{ lines: { asn_status: string; received_at: string | null; base_uom: string; case_qty: string | null }[] }>('/rec/batch/editor', { text: asn.asn_no })).lines;
    expect(before[0]).toMatchObject({ asn_status: 'new', received_at: null, base_uom: 'EA' });
    expect(Number(before[0].case_qty)).toBe(12);
    await ok('/inbound/batch/receive', { lines: [{ asnLineId: asn.lineIds[0], qty: 12, locationCode: 'DOCK-01', lpn: 'TOID-1' }] });
    const after = (await ok<{ lines: { asn_status: string; received_at: string | null }[] }>('/rec/batch/editor', { text: asn.asn_no })).lines;
    expect(after[0].asn_status).toBe('partial_received');
    expect(after[0].received_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('split of a receipt line from the goods receipts page', () => {
  const split = (key: number, inputs: Record<string, unknown>) =>
    post('/generic/behavior', { moduleCode: 'inbound', functionCode: 'inbGr', behaviour: 'split', keys: [key], inputs });

  it('refuses a split without a new value or of the whole line, then splits part under a new LPN', async () => {
    const asn = await newAsn([{ skuCode: 'SKU-A', expectedQty: 10 }]);
    const received = await ok<{ receipts: { receiptLineIds: number[] }[] }>('/inbound/batch/receive', {
      lines: [{ asnLineId: asn.lineIds[0], qty: 10, locationCode: 'DOCK-01', lpn: 'LPN-OLD' }],
    });
    const lineId = received.receipts[0].receiptLineIds[0];
    const before = await snapshot();
    const none = await split(lineId, { qty: '3' });
    expect(json<{ code: string; message: string }>(none)).toMatchObject({ code: 'SPLIT_VALUE_REQUIRED', message: 'From-value and to-value must be set.' });
    const whole = await split(lineId, { qty: '10', lpn: 'LPN-NEW' });
    expect(json<{ code: string; message: string }>(whole)).toMatchObject({ code: 'SPLIT_NOT_ALLOWED', message: 'Not allowed to split.' });
    expect(await snapshot()).toEqual(before);

    const done = await split(lineId, { qty: '3', lpn: 'LPN-NEW' });
    expect(done.statusCode, done.body).toBe(200);
    const lines = await t.database.db.selectFrom('receipt_line').select(['lpn', 'qty']).where('asn_id', '=', asn.id).orderBy('id').execute();
    expect(lines.map((l) => [l.lpn, Number(l.qty)])).toEqual([
      ['LPN-OLD', 7],
      ['LPN-NEW', 3],
    ]);
  });
});

describe('putaway location logic', () => {
  type Task = { asn_no: string; sku_code: string; suggested_location: string | null; suggestion_rule: string | null };
  const tasksOf = async (asnNo: string) =>
    json<{ tasks: (Task & { id: number })[] }>(await injectAs(t.app, clerk, { method: 'GET', url: '/api/putaway/tasks' })).tasks.filter((task) => task.asn_no === asnNo);

  it('suggests a zone holding the same item type, then a zone of the project, then the next empty location of the warehouse', async () => {
    await t.database.db.deleteFrom('putaway_task').where('project_id', '=', projectId).where('status', '=', 'open').execute();
    // The first FOOD item goes to the next empty location (Z1-01) and is put away there.
    const first = await newAsn([{ skuCode: 'FOOD-1', expectedQty: 5 }]);
    await ok('/inbound/batch/receive', { lines: [{ asnLineId: first.lineIds[0], qty: 5, locationCode: 'DOCK-01' }] });
    const [task] = await tasksOf(first.asn_no);
    expect([task.suggested_location, task.suggestion_rule]).toEqual(['Z1-01', 'empty']);
    await ok('/putaway/confirm', { taskId: task.id, locationCode: 'Z1-01' });

    // Another FOOD item: its item type lies in zone Z1; a toy: the project keeps stock in zone Z1 too;
    // a third item when zone Z1 is full: the warehouse's next empty location.
    const next = await newAsn([
      { skuCode: 'FOOD-2', expectedQty: 2 },
      { skuCode: 'TOY-1', expectedQty: 2 },
      { skuCode: 'SKU-A', expectedQty: 2 },
    ]);
    await ok('/inbound/batch/receive', {
      lines: next.lineIds.map((asnLineId) => ({ asnLineId, qty: 2, locationCode: 'DOCK-01' })),
    });
    const suggested = (await tasksOf(next.asn_no)).map((task) => [task.sku_code, task.suggested_location, task.suggestion_rule]);
    expect(suggested).toEqual([
      ['FOOD-2', 'Z1-02', 'itemType'],
      ['TOY-1', 'Z1-03', 'project'],
      ['SKU-A', 'Z2-01', 'empty'],
    ]);
  });
});
