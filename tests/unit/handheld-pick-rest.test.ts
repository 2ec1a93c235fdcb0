// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { shippedDefinition, type HandheldDefinition, type ScanStep } from '../../src/common/handheld-api.js';
import type { PickTaskView } from '../../src/common/outbound-api.js';
import { FLOWS } from '../../src/screens/handheld/actions/index.js';
import type { Fields, StepOutcome } from '../../src/screens/handheld/actions/types.js';

/**
 * Where a short pick's rest goes, in the runtime's pick actions (docs/handheld.md, "The runtime"):
 * asked after the reason only when the SKU is free elsewhere, by a `pick.shortRest` step where the
 * configuration has one (passed over unless the pick is short and may look elsewhere), answered with
 * the two choices, and asked again before the confirmation when it was not answered.
 */
const pick = FLOWS.pick;
// The texts by key and parameters, so that what is asked can be told apart.
const t = ((key: string, params?: Record<string, unknown>) => (params ? `${key} ${JSON.stringify(params)}` : key)) as unknown as TFunction;

const openTask = (otherAvailable: string): PickTaskView => ({
  id: 7,
  wave_id: null,
  wave_no: null,
  so_id: 3,
  order_no: 'SO-REST',
  line_no: 1,
  sku_id: 5,
  sku_code: 'SKU-REST',
  sku_description: 'Rest item',
  lot_no: '',
  expiry_date: null,
  location_id: 9,
  location_code: 'A-01-1',
  zone: null,
  pick_seq: null,
  lpn: '',
  qty: '4',
  picked_qty: '0',
  status: 'open',
  to_lpn: null,
  reason: null,
  other_available: otherAvailable,
  held_qty: '0',
  count_ticket_no: null,
});

const step = (action: string, targetField: string, optional?: true): ScanStep => ({ scanName: targetField, prompt: '', action, targetField, ...(optional ? { optional } : {}) });

function run(definition: HandheldDefinition, otherAvailable: string) {
  const task = { code: 'SO-REST', tasks: [openTask(otherAvailable)] };
  const context = (fields: Fields) => ({ t, definition, task, fields });
  const at = (action: string) => definition.steps.findIndex((s) => s.action === action);
  const scan = (action: string, value: string, fields: Fields) => pick.steps[action](value, { ...context(fields), step: definition.steps[at(action)], index: at(action) }) as StepOutcome;
  return { context, scan, at };
}

const asked = (outcome: StepOutcome) => ('ask' in outcome && outcome.ask ? [outcome.ask].flat() : []);

describe("the runtime's short pick: where the rest goes", () => {
  it('asks the reason, then find it elsewhere or give it back, when the SKU is free elsewhere; only the reason when it is not', () => {
    const shipped = shippedDefinition('pick');
    const found = { locationCode: 'A-01-1', taskId: '7', sku: 'SKU-REST' };
    const free = run(shipped, '10');
    const short = free.scan('pick.confirmQty', '1', found);
    expect(asked(short).map((q) => q.field)).toEqual(['reason', 'rest']);
    const rest = asked(short)[1];
    expect(rest.prompt).toBe('outbound.pick.restAsk {"qty":3}');
    expect(rest.choices).toEqual([
      { value: 'elsewhere', label: 'outbound.pick.findElsewhere' },
      { value: 'giveBack', label: 'outbound.pick.giveBack' },
    ]);
    // Nowhere else to look: the rest is given back without asking.
    expect(asked(run(shipped, '0').scan('pick.confirmQty', '1', found)).map((q) => q.field)).toEqual(['reason']);
    // All of the task picked: nothing asked.
    expect(asked(free.scan('pick.confirmQty', '4', found))).toEqual([]);
    // Before the confirmation: a short pick whose rest was not chosen goes back to the quantity, which asks it.
    expect(pick.missing!(free.context({ ...found, qty: '1', reason: 'Damaged' }))).toEqual({ action: 'pick.confirmQty', error: 'outbound.pick.restAsk {"qty":3}' });
    expect(pick.missing!(free.context({ ...found, qty: '1', reason: 'Damaged', rest: 'giveBack' }))).toBeNull();
    expect(pick.missing!(run(shipped, '0').context({ ...found, qty: '1', reason: 'Damaged' }))).toBeNull();
  });

  it("asks it at the configuration's own step, answered with the two choices, and passes the step over when the pick is not short", () => {
    const configured = shippedDefinition('pick');
    configured.steps.push(step('pick.shortReason', 'reason'), step('pick.shortRest', 'rest', true));
    const found = { locationCode: 'A-01-1', taskId: '7', sku: 'SKU-REST' };
    const free = run(configured, '10');
    // The reason and the rest have steps of their own: the quantity asks nothing, the reason step neither.
    expect(asked(free.scan('pick.confirmQty', '1', found))).toEqual([]);
    expect(asked(free.scan('pick.shortReason', 'Damaged', { ...found, qty: '1' }))).toEqual([]);
    const restStep = configured.steps[free.at('pick.shortRest')];
    expect(pick.skipStep!(restStep, free.context({ ...found, qty: '1' }))).toBe(false);
    expect(pick.skipStep!(restStep, free.context({ ...found, qty: '4' }))).toBe(true);
    expect(pick.skipStep!(restStep, run(configured, '0').context({ ...found, qty: '1' }))).toBe(true);
    expect(pick.choices!(restStep, free.context(found))?.map((c) => c.value)).toEqual(['elsewhere', 'giveBack']);
    expect(pick.choices!(configured.steps[0], free.context(found))).toBeNull();
    // The step takes a choice by its value or its text, and refuses anything else.
    expect(free.scan('pick.shortRest', 'giveBack', found)).toEqual({ fields: { rest: 'giveBack' } });
    expect(free.scan('pick.shortRest', 'OUTBOUND.PICK.FINDELSEWHERE', found)).toEqual({ fields: { rest: 'elsewhere' } });
    expect(free.scan('pick.shortRest', 'maybe', found)).toHaveProperty('error');
    // Not answered yet (e.g. the step stood before the quantity): back to the step.
    expect(pick.missing!(free.context({ ...found, qty: '1', reason: 'Damaged' }))?.action).toBe('pick.shortRest');
    // Skipped (an optional step): the default, elsewhere, is taken without asking again.
    expect(pick.missing!(free.context({ ...found, qty: '1', reason: 'Damaged', rest: '' }))).toBeNull();

    // A reason step without a step of the rest asks where the rest goes after the reason.
    const reasonOnly = shippedDefinition('pick');
    reasonOnly.steps.push(step('pick.shortReason', 'reason'));
    const withReason = run(reasonOnly, '10');
    expect(asked(withReason.scan('pick.confirmQty', '1', found))).toEqual([]);
    expect(asked(withReason.scan('pick.shortReason', 'Damaged', { ...found, qty: '1' })).map((q) => q.field)).toEqual(['rest']);
  });
});
