// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { HANDHELD_ACTIONS, HANDHELD_FUNCTIONS, RUNTIME_FUNCTIONS, shippedDefinition, type HandheldDefinition } from '../../src/common/handheld-api.js';
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
    const receive = shippedDefinition('receive');
    receive.steps.push({ scanName: 'carton', prompt: '', action: 'receive.scanLpn', targetField: 'cartonId' });
    expect(definitionProblems('receive', receive).map((p) => [p.field, p.code]).sort()).toEqual([
      ['steps[6].scanName', 'FIELD_NOT_UNIQUE'],
      ['steps[6].targetField', 'HH_TARGET_UNKNOWN'],
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
      { id: 11, lineNo: 1, locationCode: 'A-01', skuCode: 'SKU1', skuDescription: null, lotNo: null, lpn: '', barcodes: ['690001'], toCount: true },
      { id: 12, lineNo: 2, locationCode: 'A-02', skuCode: 'SKU2', skuDescription: null, lotNo: null, lpn: 'P-9', barcodes: [], toCount: true },
      { id: 13, lineNo: 3, locationCode: 'A-03', skuCode: 'SKU3', skuDescription: null, lotNo: null, lpn: '', barcodes: [], toCount: false },
    ],
  };
  const at = (fn: 'count' | 'putaway' | 'pick', action: string, index: number, task: unknown, fields: Record<string, string>) => {
    const definition = shippedDefinition(fn);
    return (value: string) => FLOWS[fn].steps[action](value, { t, definition, task, fields, step: definition.steps[index], index });
  };

  it('count: a location or item not to count on the ticket is refused; a barcode finds its SKU; zero is a count', async () => {
    expect(await at('count', 'count.scanLocation', 0, ticket, {})('A-03')).toHaveProperty('error');
    expect(await at('count', 'count.scanLocation', 0, ticket, {})('a-01')).toEqual({ fields: { locationCode: 'a-01' } });
    expect(await at('count', 'count.scanItem', 1, ticket, { locationCode: 'A-01' })('690001')).toEqual({ fields: { sku: '690001' } });
    expect(await at('count', 'count.scanItem', 1, ticket, { locationCode: 'A-01' })('SKU2')).toHaveProperty('error');
    expect(await at('count', 'count.enterQty', 2, ticket, {})('0')).toEqual({ fields: { qty: '0' } });
    expect(await at('count', 'count.enterQty', 2, ticket, {})('-1')).toHaveProperty('error');
    expect(FLOWS.count.missing!({ t, definition: shippedDefinition('count'), task: ticket, fields: { locationCode: 'A-01', sku: '690001', qty: '3' } })).toBeNull();
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
});
