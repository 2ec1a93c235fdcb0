import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/**
 * Issue 9, item 6: every route of the OpenAPI document, called by a signed-in administrator with
 * malformed input, answers a clear 4xx (or a 2xx when the input happens to be acceptable), never a
 * 500 and never a dropped connection.
 */

const deep = (levels: number): unknown => (levels === 0 ? 'x' : { a: deep(levels - 1) });

/** Values that have broken servers before: NUL, extreme and non-integer numbers, wrong types. */
const VALUES: unknown[] = [
  'a\u0000b',
  '\u0000',
  1e308,
  -1e308,
  1.5,
  -1,
  0,
  2 ** 60,
  'Infinity',
  'NaN',
  '1e308',
  '',
  'x'.repeat(100_000),
  true,
  null,
  [],
  {},
  [1, 2, 3],
  { __proto__: { admin: true } },
  "'; drop table sku; --",
];

/** Whole bodies: the values above in every property the route's schema names, plus odd shapes. */
function bodies(schemaProperties: string[]): unknown[] {
  const out: unknown[] = [null, [], 'text', 42, deep(60), JSON.parse('{"__proto__": {"isAdmin": true}}'), { constructor: { prototype: { x: 1 } } }];
  for (const value of VALUES) {
    const body: Record<string, unknown> = {};
    for (const name of schemaProperties.length ? schemaProperties : ['id', 'page', 'moduleCode']) body[name] = value;
    out.push(body);
  }
  return out;
}

interface Operation {
  method: string;
  path: string;
  properties: string[];
  queryNames: string[];
}

function operations(doc: { paths: Record<string, Record<string, { requestBody?: unknown; parameters?: Array<{ in: string; name: string }> }>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (path.startsWith('/api/docs')) continue;
    for (const [method, op] of Object.entries(methods)) {
      const schema = (op.requestBody as { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } | undefined)?.content?.['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(),
        path,
        properties: Object.keys(schema?.properties ?? {}),
        queryNames: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      });
    }
  }
  return ops;
}

function fill(path: string, value: string): string {
  return path.replace(/\{[^}]+\}/g, encodeURIComponent(value));
}

describe('route fuzz', () => {
  let t: TestApp;
  let token: string;
  let ops: Operation[];

  beforeAll(async () => {
    t = await buildTestApp();
    token = await signIn(t.app);
    ops = operations(t.app.swagger() as unknown as Parameters<typeof operations>[0]);
  });
  afterAll(() => t?.close());

  it('finds the routes in the OpenAPI document', () => {
    expect(ops.length).toBeGreaterThan(50);
  });

  it('answers every route with malformed bodies, queries and parameters without a 500', async () => {
    const failures: string[] = [];
    const paramValues = ['1', '0', '-1', '1.5', '1e308', 'Infinity', 'a\u0000b', 'x'.repeat(300)];
    for (const op of ops) {
      // Sign-out and session-ending routes would end the fuzzing session itself.
      if (/logout|signOut|sign-out|sessions\/revoke|all\/loginAccount/i.test(op.path)) continue;
      // An event stream stays open by design (notification.test.ts checks its refusals).
      if (/\/stream$/.test(op.path)) continue;
      const attempts: Array<{ url: string; payload?: unknown; query?: Record<string, string> }> = [];
      for (const param of op.path.includes('{') ? paramValues : ['1']) {
        const url = fill(op.path, param);
        if (op.method === 'GET' || op.method === 'DELETE') {
          for (const value of ['a\u0000b', '1e308', '-1e308', '1.5', 'Infinity', 'x'.repeat(5000), '']) {
            attempts.push({ url, query: Object.fromEntries((op.queryNames.length ? op.queryNames : ['page']).map((n) => [n, value])) });
          }
        } else {
          for (const payload of bodies(op.properties)) attempts.push({ url, payload });
        }
      }
      for (const attempt of attempts) {
        let status: number;
        try {
          const response = await injectAs(t.app, token, {
            method: op.method as 'GET',
            url: attempt.url,
            ...(attempt.query ? { query: attempt.query } : {}),
            ...(attempt.payload !== undefined ? { payload: JSON.stringify(attempt.payload), headers: { 'content-type': 'application/json' } } : {}),
          });
          status = response.statusCode;
        } catch (error) {
          failures.push(`${op.method} ${attempt.url}: no answer (${(error as Error).message})`);
          continue;
        }
        if (status >= 500) failures.push(`${op.method} ${attempt.url} ${JSON.stringify(attempt.payload ?? attempt.query).slice(0, 120)} -> ${status}`);
      }
    }
    expect(failures.join('\n')).toBe('');
  }, 300_000);

  it('refuses a multipart import with a broken boundary, no file or a wrong part as 400', async () => {
    const cases = [
      { 'content-type': 'multipart/form-data; boundary=x', body: '--y\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc\r\n--y--\r\n' },
      { 'content-type': 'multipart/form-data', body: 'garbage' },
      { 'content-type': 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="moduleCode"\r\n\r\nmasterdata\r\n--x--\r\n' },
    ];
    for (const c of cases) {
      const response = await injectAs(t.app, token, { method: 'POST', url: '/api/generic/import', headers: { 'content-type': c['content-type'] }, payload: c.body });
      expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, response.body).toBeLessThan(500);
    }
  });

  it('refuses a NUL character at sign-in before any session, with a clear code', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/user/login', payload: { loginAccount: 'admin\u0000', password: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(json<{ code: string }>(response).code).toBe('INPUT_NUL');
  });
});
