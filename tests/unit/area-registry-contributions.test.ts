import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { defineModule, type SessionResolver } from '../../src/server/area-kit/area.js';
import { AreaRegistry } from '../../src/server/area-kit/area-registry.js';

const sessions: SessionResolver = { resolve: () => Promise.resolve(undefined) };

describe('what areas contribute to the kernel', () => {
  it('takes the session resolver, right checker and password hashing from the one area that brings each', () => {
    const registry = new AreaRegistry([defineModule({ name: 'one', sessions }), defineModule({ name: 'two' })]);
    expect(registry.sessions).toBe(sessions);
    expect(registry.rightChecker).toBeUndefined();
    expect(registry.passwords).toBeUndefined();
  });

  it('refuses two areas bringing the same piece', () => {
    expect(() => new AreaRegistry([defineModule({ name: 'one', sessions }), defineModule({ name: 'two', sessions })])).toThrow(/sessions is contributed by more than one area: one, two/);
  });

  it('gathers the row filters of every area and refuses a name declared twice', () => {
    const filter = () => sql<boolean>`true`;
    const registry = new AreaRegistry([defineModule({ name: 'one', rowFilters: new Map([['one.mine', filter]]) }), defineModule({ name: 'two', rowFilters: new Map([['two.theirs', filter]]) })]);
    expect([...registry.rowFilters().keys()]).toEqual(['one.mine', 'two.theirs']);
    expect(() => new AreaRegistry([defineModule({ name: 'one', rowFilters: new Map([['x.same', filter]]) }), defineModule({ name: 'two', rowFilters: new Map([['x.same', filter]]) })])).toThrow(/row filter "x.same" is declared twice/);
  });
});
