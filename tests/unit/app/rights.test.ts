import { describe, expect, it } from 'vitest';
import { rightsOf } from '../../../src/app/rights.js';

const row = (module: string, subModule: string | null, granted: Partial<Record<'view' | 'add' | 'edit' | 'delete', boolean>>) => ({
  module,
  subModule,
  view: false,
  add: false,
  edit: false,
  delete: false,
  ...granted,
});

describe(rightsOf.name, () => {
  it('grants everything to an administrator', () => {
    expect(rightsOf({ isAdmin: true, permissions: [] }, 'support')).toEqual({ view: true, add: true, edit: true, delete: true });
  });

  it("reads a module's own entry, and counts any right on it as viewing", () => {
    const answer = { isAdmin: false, permissions: [row('support', null, { add: true })] };
    expect(rightsOf(answer, 'support')).toEqual({ view: true, add: true, edit: false, delete: false });
    expect(rightsOf(answer, 'inventory')).toEqual({ view: false, add: false, edit: false, delete: false });
  });

  it("lets a sub-module's own entries decide for it, and the module's otherwise", () => {
    const answer = { isAdmin: false, permissions: [row('inventory', null, { view: true, edit: true }), row('inventory', 'balance', { view: true })] };
    expect(rightsOf(answer, 'inventory.balance')).toEqual({ view: true, add: false, edit: false, delete: false });
    expect(rightsOf(answer, 'inventory.move')).toEqual({ view: true, add: false, edit: true, delete: false });
  });
});
