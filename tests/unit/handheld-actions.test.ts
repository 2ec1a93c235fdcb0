// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { dialogValueValid, HANDHELD_ACTIONS, HANDHELD_FUNCTIONS, parseDimension, RUNTIME_FUNCTIONS, shippedDefinition, type HandheldDefinition } from '../../src/common/handheld-api.js';
import { definitionProblems } from '../../src/server/modules/handheld/handheld.service.js';
import { FLOWS } from '../../src/screens/handheld/actions/index.js';

/**
 * The runtime's action table and what publishing accepts: every action a configuration may name
 * has its code in the table of its function and the other way round, the shipped flows publish,
 * and a wrong action or target field is refused naming the field.
 */
describe('the handheld action table', () => {
  it('holds the code of exactly the step actions the configurations may name, one order search per function', () => {
    for (const fn of RUNTIME_FUNCTIONS) {
      expect(FLOWS[fn].fn).toBe(fn);
      const listed = HANDHELD_ACTIONS.filter((a) => a.fn === fn && a.kind === 'step').map((a) => a.name).sort();
      expect(Object.keys(FLOWS[fn].steps).sort()).toEqual(listed);
      expect(HANDHELD_ACTIONS.filter((a) => a.fn === fn && a.kind === 'search')).toHaveLength(1);
    }
    // The functions without a runtime have no action at all: publishing refuses any.
    const others = HANDHELD_FUNCTIONS.filter((fn) => !(RUNTIME_FUNCTIONS as readonly string[]).includes(fn));
    expect(HANDHELD_ACTIONS.filter((a) => others.includes(a.fn))).toEqual([]);
  });

  it('publishes the shipped flow of every function the runtime runs', () => {
    for (const fn of RUNTIME_FUNCTIONS) {
      const shipped = shippedDefinition(fn);
      expect(shipped.orderSearch?.action.startsWith(`${fn}.`)).toBe(true);
      expect(shipped.steps.length).toBeGreaterThan(0);
      expect(definitionProblems(fn, shipped)).toEqual([]);
    }
    // A function without a runtime starts with an empty flow.
    for (const fn of HANDHELD_FUNCTIONS.filter((f) => !(RUNTIME_FUNCTIONS as readonly string[]).includes(f))) expect(shippedDefinition(fn).steps).toEqual([]);
  });

  it('refuses an action of another function, a search action as a step and a target field the action does not fill, naming the field', () => {
    const move: HandheldDefinition = shippedDefinition('move');
    move.steps[0] = { ...move.steps[0], action: 'count.scanItem' };
    move.steps[1] = { ...move.steps[1], targetField: 'toLocation' };
    move.steps[2] = { ...move.steps[2], action: 'move.scanFrom', targetField: 'fromLocation' };
    expect(definitionProblems('move', move).map((p) => [p.field, p.code])).toEqual([
      ['steps[0].action', 'HH_ACTION_UNKNOWN'],
      ['steps[1].targetField', 'HH_TARGET_UNKNOWN'],
      ['steps[2].action', 'HH_ACTION_UNKNOWN'],
    ]);
    const count = shippedDefinition('count');
    count.orderSearch = { ...count.orderSearch!, action: 'count.scanItem' };
    count.steps[1] = { ...count.steps[1], targetField: 'lpn' };
    expect(definitionProblems('count', count).map((p) => [p.field, p.code])).toEqual([['orderSearch.action', 'HH_ACTION_UNKNOWN']]);
    const pack = shippedDefinition('pack');
    pack.orderSearch = { ...pack.orderSearch!, action: 'load.findLoad', targetField: 'loadNo' };
    pack.steps[1] = { ...pack.steps[1], targetField: 'cartonNo' };
    expect(definitionProblems('pack', pack).map((p) => [p.field, p.code])).toEqual([
      ['orderSearch.action', 'HH_ACTION_UNKNOWN'],
      ['steps[1].targetField', 'HH_TARGET_UNKNOWN'],
    ]);
    const load = shippedDefinition('load');
    load.steps.push({ scanName: 'pallet', prompt: '', action: 'load.scanPallet', targetField: 'code' });
    expect(definitionProblems('load', load).map((p) => [p.field, p.code])).toEqual([['steps[1].action', 'HH_ACTION_UNKNOWN']]);
    const receive = shippedDefinition('receive');
    receive.steps.push({ scanName: 'carton', prompt: '', action: 'receive.scanLpn', targetField: 'cartonId' });
    expect(definitionProblems('receive', receive).map((p) => [p.field, p.code]).sort()).toEqual([
      [`steps[${receive.steps.length - 1}].scanName`, 'FIELD_NOT_UNIQUE'],
      [`steps[${receive.steps.length - 1}].targetField`, 'HH_TARGET_UNKNOWN'],
    ]);
  });
});

describe('the step actions', () => {
  const t = ((key: string, params?: Record<string, unknown>) => `${key}${params ? JSON.stringify(params) : ''}`) as never;
  const ticket = {
    id: 1,
    ticketNo: 'CT-1',
    status: 'open',
    recount: false,
    lines: [
      { id: 11, lineNo: 1, locationCode: 'A-01', skuCode: 'SKU1', skuDescription: null, lotNo: 'L7', lpn: '', barcodes: ['690001', '4006381333931'], toCount: true },
      { id: 12, lineNo: 2, locationCode: 'A-02', skuCode: 'SKU2', skuDescription: null, lotNo: null, lpn: 'P-9', barcodes: [], toCount: true },
      { id: 13, lineNo: 3, locationCode: 'A-03', skuCode: 'SKU3', skuDescription: null, lotNo: null, lpn: '', barcodes: [], toCount: false },
    ],
  };
  const at = (fn: 'count' | 'putaway' | 'pick' | 'pack' | 'load', action: string, index: number, task: unknown, fields: Record<string, string>) => {
    const definition = shippedDefinition(fn);
    return (value: string) => FLOWS[fn].steps[action](value, { t, definition, task, fields, step: definition.steps[index], index });
  };

  it('count: a location or item not on the ticket is refused; a barcode or GS1 label finds its line; a counted qty is above 0; the location scanned again asks whether it is empty', async () => {
    expect(await at('count', 'count.scanLocation', 0, ticket, {})('B-09')).toHaveProperty('error');
    expect(await at('count', 'count.scanLocation', 0, ticket, {})('a-01')).toEqual({ fields: { locationCode: 'A-01', lineId: '', empty: '' } });
    // A location counted before may be counted again; its line says so.
    expect(await at('count', 'count.scanLocation', 0, ticket, {})('A-03')).toEqual({ fields: { locationCode: 'A-03', lineId: '', empty: '' } });
    expect(await at('count', 'count.scanItem', 1, ticket, { locationCode: 'A-03' })('SKU3')).toMatchObject({ fields: { lineId: '13' }, warning: expect.stringContaining('alreadyCounted') });
    expect(await at('count', 'count.scanItem', 1, ticket, { locationCode: 'A-01' })('690001')).toEqual({ fields: { sku: '690001', lineId: '11', locationCode: 'A-01', empty: '' } });
    // A GS1-128 label: the GTIN-14 of the barcode (a leading 0) names the SKU; a label that cannot be read says why.
    expect(await at('count', 'count.scanItem', 1, ticket, { locationCode: 'A-01' })('(01)04006381333931(10)L7')).toMatchObject({ fields: { lineId: '11' } });
    expect(await at('count', 'count.scanItem', 1, ticket, { locationCode: 'A-01' })('(01)04006381333931(10)L8')).toHaveProperty('error');
    expect(await at('count', 'count.scanItem', 1, ticket, { locationCode: 'A-01' })('(01)04006381333932')).toHaveProperty('error');
    expect(await at('count', 'count.scanItem', 1, ticket, { locationCode: 'A-01' })('SKU2')).toHaveProperty('error');
    expect(await at('count', 'count.scanItem', 1, ticket, { locationCode: 'A-01' })('A-01')).toMatchObject({ ask: { field: 'empty', choices: [{ value: 'yes' }, { value: 'no' }] } });
    expect(await at('count', 'count.enterQty', 2, ticket, {})('0')).toEqual({ error: 'errors.QTY_NOT_POSITIVE' });
    expect(await at('count', 'count.enterQty', 2, ticket, {})('-1')).toHaveProperty('error');
    expect(await at('count', 'count.enterQty', 2, ticket, {})('2.5')).toEqual({ fields: { qty: '2.5' } });
    const definition = shippedDefinition('count');
    expect(FLOWS.count.missing!({ t, definition, task: ticket, fields: { locationCode: 'A-01', sku: '690001', lineId: '11', qty: '3' } })).toBeNull();
    expect(FLOWS.count.missing!({ t, definition, task: ticket, fields: { locationCode: 'A-01', sku: '690001', lineId: '11', qty: '0' } })).toMatchObject({ action: 'count.enterQty' });
    expect(FLOWS.count.missing!({ t, definition, task: ticket, fields: { locationCode: 'A-01', empty: 'no' } })).toMatchObject({ action: 'count.scanItem' });
    // Empty: the item and quantity are passed over and nothing is missing.
    const empty = { t, definition, task: ticket, fields: { locationCode: 'A-01', empty: 'yes' } };
    expect(definition.steps.map((step) => FLOWS.count.skipStep!(step, empty))).toEqual([true, true, true]);
    expect(FLOWS.count.missing!(empty)).toBeNull();
    // Staying at a location with lines left, its scan is not asked again.
    expect(FLOWS.count.skipStep!(definition.steps[0], { t, definition, task: ticket, fields: { locationCode: 'A-01' } })).toBe(true);
    expect(FLOWS.count.skipStep!(definition.steps[0], { t, definition, task: ticket, fields: {} })).toBe(false);
  });

  it('putaway: another location than the suggested one asks for a reason unless a later step takes it', async () => {
    const task = { id: 1, asn_no: 'ASN', sku_code: 'S', qty: '4', from_location: 'DOCK', suggested_location: 'B-01', lpn: '' };
    const outcome = await at('putaway', 'putaway.scanLocation', 0, task, { suggested: 'B-01' })('B-02');
    expect(outcome).toMatchObject({ fields: { locationCode: 'B-02' }, ask: { field: 'reason' } });
    expect(await at('putaway', 'putaway.scanLocation', 0, task, { suggested: 'B-01' })('B-01')).toEqual({ fields: { locationCode: 'B-01' } });
  });

  it('pick: a location of another task takes that task, a location of none is refused, less than left asks for the reason, more is refused', async () => {
    const view = (id: number, location: string, sku: string, qty: string, picked = '0') => ({
      id, wave_id: null, wave_no: null, so_id: 7, order_no: 'SO-7', line_no: id, sku_id: id, sku_code: sku, sku_description: '', lot_no: '', expiry_date: null,
      location_id: id, location_code: location, zone: null, pick_seq: null, lpn: '', qty, picked_qty: picked, status: 'open', to_lpn: null, reason: null, other_available: '0', held_qty: '0',
    });
    const task = { code: 'SO-7', tasks: [view(1, 'A-01', 'SKU1', '5'), view(2, 'A-02', 'SKU2', '4', '1')] };
    expect(await at('pick', 'pick.scanLocation', 0, task, {})('B-09')).toEqual({ error: 'errors.PICK_WRONG_LOCATION{"location":"A-01"}' });
    expect(await at('pick', 'pick.scanLocation', 0, task, {})('a-02')).toEqual({ fields: { locationCode: 'A-02', taskId: '2' } });
    expect(await at('pick', 'pick.scanItem', 1, task, { locationCode: 'A-02', taskId: '2' })('SKU2')).toEqual({ fields: { sku: 'SKU2', taskId: '2', locationCode: 'A-02' } });
    // Task 2 has 3 left: 4 is an over-pick, 2 a short pick asking its reason (no reason step in the shipped flow), 3 all of it.
    const qty = at('pick', 'pick.confirmQty', 2, task, { locationCode: 'A-02', taskId: '2', sku: 'SKU2' });
    expect(await qty('4')).toEqual({ error: 'errors.OVER_PICK{"qty":3}' });
    expect(await qty('2')).toMatchObject({ fields: { qty: '2' }, ask: { field: 'reason' } });
    expect(await qty('3')).toEqual({ fields: { qty: '3' } });
    expect(await qty('x1')).toHaveProperty('error');
    const definition = shippedDefinition('pick');
    const short = { locationCode: 'A-02', taskId: '2', sku: 'SKU2', qty: '2' };
    expect(FLOWS.pick.missing!({ t, definition, task, fields: short })).toMatchObject({ action: 'pick.confirmQty' });
    expect(FLOWS.pick.missing!({ t, definition, task, fields: { ...short, reason: 'damaged' } })).toBeNull();
    expect(FLOWS.pick.missing!({ t, definition, task, fields: { taskId: '2' } })).toMatchObject({ action: 'pick.scanLocation' });
    // With a reason step after the quantity, the quantity does not ask.
    definition.steps.push({ scanName: 'reason', prompt: '', action: 'pick.shortReason', targetField: 'reason', optional: true });
    expect(await FLOWS.pick.steps['pick.confirmQty']('2', { t, definition, task, fields: short, step: definition.steps[2], index: 2 })).toEqual({ fields: { qty: '2' } });
    expect(FLOWS.pick.missing!({ t, definition, task, fields: short })).toMatchObject({ action: 'pick.shortReason' });
  });

  it('receive: a container passes over the line steps and a line the carton steps; a line is chosen of several; the quantity is a decimal above 0 or the label\'s', async () => {
    const definition = shippedDefinition('receive');
    const step = (action: string) => definition.steps.find((s) => s.action === action)!;
    const line = (id: number, asnNo: string) => ({ id, asn_id: id, asn_no: asnNo, asn_status: 'new', line_no: 1, sku_code: 'SKU1', sku_description: '', expected_qty: '8', received_qty: '2', uom: null, lot_no: null, manufacture_date: null, expiry_date: null, shelf_date: null, udf1: null, udf2: null, udf3: null, received_at: null, base_uom: 'EA', case_qty: null });
    const lines = { mode: 'lines', code: '(01)0690', lines: [line(5, 'ASN-5'), line(6, 'ASN-6')], label: { batch: 'B1' } };
    const container = { mode: 'container', containerId: 'C-1', cartons: [] };
    const passed = (task: unknown, fields: Record<string, string> = {}) => definition.steps.filter((s) => FLOWS.receive.skipStep!(s, { t, definition, task, fields })).map((s) => s.action);
    expect(passed(container)).toEqual(['receive.chooseLine', 'receive.enterQty']);
    expect(passed(lines)).toEqual(['receive.scanCarton', 'receive.scanEpc', 'receive.scanCartonType', 'receive.scanAntiCounterfeit']);
    expect(passed(lines, { asnLineId: '6' })).toEqual(['receive.chooseLine', 'receive.scanCarton', 'receive.scanEpc', 'receive.scanCartonType', 'receive.scanAntiCounterfeit']);
    expect(FLOWS.receive.choices!(step('receive.chooseLine'), { t, definition, task: lines, fields: {} })?.map((c) => c.value)).toEqual(['5', '6']);
    expect(FLOWS.receive.choices!(step('receive.scanLocation'), { t, definition, task: lines, fields: {} })).toBeNull();
    const run = (action: string, fields: Record<string, string> = {}) => (value: string) =>
      FLOWS.receive.steps[action](value, { t, definition, task: lines, fields, step: step(action), index: definition.steps.indexOf(step(action)) });
    expect(await run('receive.chooseLine')('6')).toEqual({ fields: { asnLineId: '6' } });
    expect(await run('receive.chooseLine')('asn-5/1')).toEqual({ fields: { asnLineId: '5' } });
    expect(await run('receive.chooseLine')('7')).toHaveProperty('error');
    expect(await run('receive.enterQty')('2.5')).toEqual({ fields: { qty: '2.5' } });
    for (const wrong of ['0', '-1', 'x']) expect(await run('receive.enterQty')(wrong)).toEqual({ error: 'hh.run.badReceiveQty' });
    // Without a quantity the label's count is taken; without either the quantity is asked.
    const filled = { asnLineId: '6', locationCode: 'DOCK-01' };
    expect(FLOWS.receive.missing!({ t, definition, task: lines, fields: filled })).toMatchObject({ action: 'receive.enterQty' });
    expect(FLOWS.receive.missing!({ t, definition, task: { ...lines, label: { count: 3 } }, fields: filled })).toBeNull();
    expect(FLOWS.receive.missing!({ t, definition, task: lines, fields: { locationCode: 'DOCK-01', qty: '1' } })).toMatchObject({ action: 'receive.chooseLine' });
    await expect(FLOWS.receive.search('(01)123', { t, definition })).rejects.toThrow('inb.ui.badBarcode');
  });

  const cartonOf = (id: number, cartonNo: string, status: string, lines: Array<[string, string]>) => ({
    id,
    cartonNo,
    cartonType: 'S',
    status,
    grossWeight: null,
    netWeight: null,
    weightUom: null,
    length: null,
    width: null,
    height: null,
    sscc: status === 'closed' ? `00${id}` : null,
    trackingNo: null,
    cardId: null,
    lines: lines.map(([skuCode, qty], i) => ({ soLineId: i + 1, skuId: i + 1, skuCode, qty })),
  });
  const packTask = {
    pack: {
      order: { id: 7, orderNo: 'SO-7', status: 'picked', waveNo: null },
      lines: [
        { lineId: 1, lineNo: 1, skuId: 1, skuCode: 'SKU1', ordered: '3', picked: '3', packed: '1' },
        { lineId: 2, lineNo: 2, skuId: 2, skuCode: 'SKU2', ordered: '2', picked: '2', packed: '2' },
      ],
      openCarton: null,
      cartons: [cartonOf(31, 'C-31', 'closed', [['SKU2', '2']]), cartonOf(32, 'C-32', 'open', [['SKU1', '1']]), cartonOf(33, 'C-33', 'open', [])],
    },
    cartonTypes: [{ code: 'S', description: 'Small' }],
    units: [{ code: 'KG', description: 'Kilogram' }],
  };
  const packContext = (fields: Record<string, string>) => ({ t, definition: shippedDefinition('pack'), task: packTask, fields });

  it('pack: an open carton of the order is chosen at the carton type, a closed one or an unknown type refused; its own number at the item closes it', async () => {
    expect(await at('pack', 'pack.scanCartonType', 0, packTask, {})('c-32')).toEqual({ fields: { cartonId: '32', cartonKey: '', cartonNo: 'C-32', cartonType: 'S' } });
    expect(await at('pack', 'pack.scanCartonType', 0, packTask, {})('C-31')).toHaveProperty('error', 'hh.run.cartonNotOpen{"carton":"C-31"}');
    expect(await at('pack', 'pack.scanCartonType', 0, packTask, {})('HUGE')).toHaveProperty('error', 'hh.run.unknownCartonType{"code":"HUGE"}');
    const inCarton = { orderNo: 'SO-7', cartonId: '32', cartonNo: 'C-32' };
    expect(await at('pack', 'pack.scanItem', 1, packTask, inCarton)('C-32')).toEqual({ fields: { sku: '' } });
    expect(await at('pack', 'pack.scanItem', 1, packTask, inCarton)('C-33')).toHaveProperty('error');
    // A SKU of the order with nothing left to pack is refused on the handheld; a barcode goes to the server as scanned.
    expect(await at('pack', 'pack.scanItem', 1, packTask, inCarton)('sku2')).toHaveProperty('error', 'hh.run.nothingLeftOf{"sku":"SKU2"}');
    expect(await at('pack', 'pack.scanItem', 1, packTask, inCarton)(' 2012345678901 ')).toEqual({ fields: { sku: '2012345678901' } });
    expect(await at('pack', 'pack.enterQty', 2, packTask, inCarton)('2,5')).toEqual({ fields: { qty: '2.5' } });
    expect(await at('pack', 'pack.enterQty', 2, packTask, inCarton)('0')).toHaveProperty('error');
  });

  it('pack: the carton type is passed over while a carton is open, the quantity and the item when closing; the dialogs only close', async () => {
    const [cartonType, , qty] = shippedDefinition('pack').steps;
    expect(FLOWS.pack.skipStep!(cartonType, packContext({ orderNo: 'SO-7' }))).toBe(false);
    expect(FLOWS.pack.skipStep!(cartonType, packContext({ orderNo: 'SO-7', cartonId: '32' }))).toBe(true);
    expect(FLOWS.pack.skipStep!(qty, packContext({ cartonId: '32', sku: 'SKU1' }))).toBe(false);
    expect(FLOWS.pack.skipStep!(qty, packContext({ cartonId: '32', sku: '' }))).toBe(true);
    expect(FLOWS.pack.asksDialogs!(packContext({ cartonId: '32', sku: 'SKU1' }))).toBe(false);
    expect(FLOWS.pack.asksDialogs!(packContext({ cartonId: '32', sku: '' }))).toBe(true);
    // Closing an empty carton, or none, goes back to the item.
    expect(FLOWS.pack.missing!(packContext({ cartonId: '33', sku: '' }))).toEqual({ action: 'pack.scanItem', error: 'hh.run.cartonEmpty{"carton":"C-33"}' });
    expect(FLOWS.pack.missing!(packContext({ sku: '' }))).toMatchObject({ action: 'pack.scanItem' });
    // A carton opened offline (named by the key of its opening): passed over at the carton type, empty until an item waits to go into it.
    const offline = { orderNo: 'SO-7', cartonId: '', cartonKey: 'k-1', cartonNo: 'new', sku: '' };
    expect(FLOWS.pack.skipStep!(cartonType, packContext(offline))).toBe(true);
    expect(FLOWS.pack.missing!(packContext(offline))).toMatchObject({ action: 'pack.scanItem' });
    const waiting = { ...packTask, waiting: [{ kind: 'item' as const, carton: 'key:k-1', sku: 'sku1', qty: 2 }] };
    expect(FLOWS.pack.missing!({ t, definition: shippedDefinition('pack'), task: waiting, fields: offline })).toBeNull();
    // What waits counts in what is left: nothing more of SKU1 is taken on the handheld.
    expect(await at('pack', 'pack.scanItem', 1, waiting, offline)('SKU1')).toHaveProperty('error', 'hh.run.nothingLeftOf{"sku":"SKU1"}');
    expect(FLOWS.pack.missing!(packContext({ cartonId: '32', sku: '' }))).toBeNull();
    expect(FLOWS.pack.view(packContext({ cartonId: '32', cartonNo: 'C-32' })).lines).toEqual([
      'SO-7 · outbound.status.picked',
      'hh.run.intoCarton{"carton":"C-32","items":"SKU1 × 1"}',
      'hh.run.leftToPack{"items":"SKU1 2"}',
    ]);
  });

  it('load: a GS1-128 label loads its SSCC, a carton or pallet already on the load is refused, the wave is asked once', async () => {
    const table = {
      load: { id: 5, loadNo: 'L-5', status: 'open' },
      cartons: [{ cartonId: 1, cartonNo: 'C-1', sscc: '106141412345678908', palletNo: null, palletSscc: '306141410000000019', soId: 1, orderNo: 'SO-1', orderStatus: 'loaded', qty: '1' }],
      orders: [],
    };
    expect(await at('load', 'load.scanCarton', 0, table, { loadNo: 'L-5' })('(00)106141412345678908')).toHaveProperty('error');
    expect(await at('load', 'load.scanCarton', 0, table, { loadNo: 'L-5' })('306141410000000019')).toHaveProperty('error');
    expect(await at('load', 'load.scanCarton', 0, table, { loadNo: 'L-5' })(']C100106141412345678915')).toEqual({ fields: { code: '106141412345678915' } });
    expect(await at('load', 'load.scanCarton', 0, table, { loadNo: 'L-5' })('C-2')).toEqual({ fields: { code: 'C-2' } });
    const wave = { scanName: 'wave', prompt: '', action: 'load.scanWave', targetField: 'waveNo' };
    const context = (fields: Record<string, string>) => ({ t, definition: shippedDefinition('load'), task: table, fields });
    expect(FLOWS.load.skipStep!(wave, context({ loadNo: 'L-5' }))).toBe(false);
    expect(FLOWS.load.skipStep!(wave, context({ loadNo: 'L-5', waveNo: 'W-1' }))).toBe(true);
  });

  it('dialogs: a dimension is one measure or length × width × height; the others a number above 0', () => {
    expect(parseDimension('40 x 30×20,5')).toEqual(['40', '30', '20.5']);
    expect(parseDimension('12')).toEqual(['12']);
    expect(parseDimension('40x30')).toBeNull();
    expect(parseDimension('40x0x20')).toBeNull();
    expect(dialogValueValid('dimension', '40*30*20')).toBe(true);
    expect(dialogValueValid('grossWeight', '40x30x20')).toBe(false);
    expect(dialogValueValid('grossWeight', '2.5')).toBe(true);
  });
});
