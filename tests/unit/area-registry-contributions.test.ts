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

  it('takes a dropdown over a route only when an area offers that route as a source of choices', () => {
    const registry = new AreaRegistry([defineModule({ name: 'one', choiceRoutes: ['GET /one/reasons'] }), defineModule({ name: 'two', choiceRoutes: ['POST /two/units'] })]);
    const page = (options: Record<string, unknown>) =>
      ({ schemaVersion: 2, moduleCode: 'm', functionCode: 'f', titleCode: 'T', status: 'published', table: { name: 't' }, fields: [{ name: 'x', labelCode: 'X', type: 'string', options }] }) as never;
    expect(registry.checkPage(page({ type: 'route', path: '/one/reasons?type=adjust' }))).toEqual([]);
    expect(registry.checkPage(page({ type: 'route', path: '/two/units', method: 'POST' }))).toEqual([]);
    // Another method, or a route no area offers, is refused where the definition names it.
    expect(registry.checkPage(page({ type: 'route', path: '/two/units' })).map((p) => `${p.path} ${p.code}`)).toEqual(['/fields/0/options/path unknownChoiceRoute']);
    expect(registry.checkPage(page({ type: 'route', path: '/user/signOut', method: 'POST' })).map((p) => p.code)).toEqual(['unknownChoiceRoute']);
    expect(() => new AreaRegistry([defineModule({ name: 'one', choiceRoutes: ['GET /x'] }), defineModule({ name: 'two', choiceRoutes: ['GET /x'] })])).toThrow(/choice route "GET \/x" is declared twice/);
    expect(() => new AreaRegistry([defineModule({ name: 'one', choiceRoutes: ['/x'] })])).toThrow(/is not "GET\|POST \/path"/);
  });
});
