import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatePageDefinition, type BehaviourInputDefinition, type PageDefinition } from '../../../engine/schema/index.js';
import { checkBehaviourInputs } from '../../../engine/server/index.js';

const LOA = path.resolve(import.meta.dirname, '../../../definitions/masterdata/loa.page.json');
const loa = (): PageDefinition => JSON.parse(fs.readFileSync(LOA, 'utf8')) as PageDefinition;

function problems(document: unknown): string[] {
  const result = validatePageDefinition(document);
  return result.ok ? [] : result.problems.map((p) => `${p.path} ${p.code}`);
}

describe('behaviour inputs in the schema', () => {
  it('accepts the declared inputs of /loa "generate"', () => {
    const page = loa();
    expect(page.behaviours?.find((b) => b.code === 'generate')?.inputs?.map((i) => i.name)).toContain('aisleFrom');
    expect(problems(page)).toEqual([]);
  });

  it('refuses an unknown type or property, and inconsistent inputs', () => {
    const page = loa();
    const generate = page.behaviours!.find((b) => b.code === 'generate')!;
    (generate.inputs![0] as Record<string, unknown>).type = 'colour';
    expect(problems(page).some((p) => p.startsWith('/behaviours/0/inputs/0/type'))).toBe(true);

    const again = loa();
    const inputs = again.behaviours!.find((b) => b.code === 'generate')!.inputs!;
    inputs[1] = { ...inputs[0] }; // a duplicate name
    inputs[2] = { ...inputs[2], type: 'integer', length: 3 }; // length on a number
    inputs[3] = { ...inputs[3], min: 1 }; // range on text
    inputs.push({ name: 'span', labelCode: 'md.field.zone', type: 'integer', min: 5, max: 1 });
    expect(problems(again)).toEqual([
      '/behaviours/0/inputs/1/name duplicate',
      '/behaviours/0/inputs/2/length notApplicable',
      '/behaviours/0/inputs/3/min notApplicable',
      `/behaviours/0/inputs/${inputs.length - 1}/max badRange`,
    ]);
  });
});

describe(checkBehaviourInputs.name, () => {
  const declared: BehaviourInputDefinition[] = [
    { name: 'aisle', labelCode: 'x.aisle', type: 'text', mandatory: true, length: 3 },
    { name: 'count', labelCode: 'x.count', type: 'integer', min: 1, max: 10 },
    { name: 'weight', labelCode: 'x.weight', type: 'number', min: 0 },
    { name: 'on', labelCode: 'x.on', type: 'date' },
    { name: 'mix', labelCode: 'x.mix', type: 'boolean', default: true },
    { name: 'separator', labelCode: 'x.sep', type: 'text', default: '-' },
  ];

  it('parses the values and applies defaults', () => {
    expect(checkBehaviourInputs(declared, { aisle: 'A', count: '3', weight: 1.5, on: '2026-01-31' })).toEqual({
      values: { aisle: 'A', count: 3, weight: '1.5', on: '2026-01-31', mix: true, separator: '-' },
      errors: [],
    });
  });

  it('answers every problem at once, keyed by input name', () => {
    const { errors } = checkBehaviourInputs(declared, { aisle: '  ', count: 11, weight: 'heavy', on: '2026-02-30', mix: 'maybe', extra: 1 });
    expect(errors.map((e) => `${e.field} ${e.code}`)).toEqual([
      'extra FIELD_UNKNOWN',
      'aisle FIELD_REQUIRED',
      'count FIELD_RANGE',
      'weight FIELD_TYPE',
      'on FIELD_TYPE',
      'mix FIELD_TYPE',
    ]);
    expect(checkBehaviourInputs(declared, { aisle: 'ABCD' }).errors).toEqual([{ field: 'aisle', code: 'FIELD_TOO_LONG', params: { max: 3, length: 4 } }]);
  });

  it('takes a value among the choices only, and declares choices on text inputs only', () => {
    const field: BehaviourInputDefinition[] = [
      { name: 'field', labelCode: 'x.field', type: 'text', mandatory: true, choices: [{ value: 'uom', labelCode: 'x.uom' }, { value: 'lot_no', labelCode: 'x.lot' }] },
    ];
    expect(checkBehaviourInputs(field, { field: 'lot_no' })).toEqual({ values: { field: 'lot_no' }, errors: [] });
    expect(checkBehaviourInputs(field, { field: 'sku_id' }).errors).toEqual([{ field: 'field', code: 'FIELD_FOREIGN', params: { list: 'field' } }]);

    const page = loa();
    const generate = page.behaviours!.find((b) => b.code === 'generate')!;
    generate.inputs!.push({ name: 'side', labelCode: 'md.field.zone', type: 'integer', choices: [{ value: '1', labelCode: 'md.field.zone' }] });
    generate.inputs!.push({ name: 'kind', labelCode: 'md.field.zone', type: 'text', choices: [{ value: 'a', labelCode: 'md.field.zone' }, { value: 'a', labelCode: 'md.field.zone' }] });
    const count = generate.inputs!.length;
    expect(problems(page)).toEqual([`/behaviours/0/inputs/${count - 2}/choices notApplicable`, `/behaviours/0/inputs/${count - 1}/choices/1/value duplicate`]);
  });
});
