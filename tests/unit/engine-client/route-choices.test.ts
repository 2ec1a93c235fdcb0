import { describe, expect, it } from 'vitest';
import { routeCall, routeChoices } from '../../../engine/client/useChoices.js';
import type { FieldDefinition } from '../../../engine/schema/index.js';

type RouteOptions = Extract<NonNullable<FieldDefinition['options']>, { type: 'route' }>;

const label = (code: string) => `text of ${code}`;

/** A dropdown over a route of the application (engine/schema README, "Route dropdowns"): the call it makes and the choices it reads. */
describe('route dropdowns', () => {
  it('calls the path with its fixed query and the values of the record it names, in the query of a GET', () => {
    const reasons: RouteOptions = { type: 'route', path: '/inventory/reasonCode?type=adjust', valueField: 'code', descriptionField: 'description' };
    expect(routeCall(reasons, { sku_id: 7 })).toEqual({ path: '/inventory/reasonCode', method: 'GET', values: { type: 'adjust' } });
  });

  it('sends the record values as the body of a POST, leaving out an empty field', () => {
    const units: RouteOptions = { type: 'route', path: '/generic/uom', method: 'POST', params: [{ name: 'skuId', field: 'sku_id' }] };
    expect(routeCall(units, { sku_id: 7, other: 'x' })).toEqual({ path: '/generic/uom', method: 'POST', values: { skuId: 7 } });
    expect(routeCall(units, { sku_id: null })).toEqual({ path: '/generic/uom', method: 'POST', values: {} });
    expect(routeCall(units, { sku_id: '' })).toEqual({ path: '/generic/uom', method: 'POST', values: {} });
  });

  it('reads items through the value, label and description the definition names, "CODE - Description"', () => {
    const reasons: RouteOptions = { type: 'route', path: '/inventory/reasonCode?type=adjust', valueField: 'code', descriptionField: 'description' };
    const answer = {
      items: [
        { code: 'DMG', description: 'Damaged', requires_approval: true },
        { code: 'FOUND', description: '' },
        { code: 'SAME', description: 'SAME' },
        { code: null, description: 'no code' },
      ],
    };
    expect(routeChoices(reasons, answer, label)).toEqual([
      { value: 'DMG', label: 'DMG - Damaged' },
      { value: 'FOUND', label: 'FOUND' },
      { value: 'SAME', label: 'SAME' },
    ]);
    const named: RouteOptions = { ...reasons, labelField: 'description', descriptionField: undefined };
    expect(routeChoices(named, answer, label).map((c) => c.label)).toEqual(['Damaged', 'FOUND', 'SAME']);
  });

  it('takes options answered as the dropdown route answers them, translating a label code', () => {
    const units: RouteOptions = { type: 'route', path: '/generic/uom', method: 'POST' };
    expect(routeChoices(units, { options: [{ value: 'CS', label: 'CS' }, { value: 'EA', labelCode: 'uom.each' }], truncated: false }, label)).toEqual([
      { value: 'CS', label: 'CS' },
      { value: 'EA', label: 'text of uom.each' },
    ]);
    expect(routeChoices(units, undefined, label)).toEqual([]);
  });
});
