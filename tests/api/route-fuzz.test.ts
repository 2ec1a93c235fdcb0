import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQuantity } from '../../src/common/quantity.js';
import { QUANTITY_KEYWORD, type QuantitySchemaOptions } from '../../src/server/http/quantity-schema.js';
import { compilePendingSerializers } from '../../src/server/http/schema-compilers.js';
import { buildTestApp, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/**
 * Every route of the OpenAPI document, called by a signed-in administrator with
 * malformed input, answers a clear 4xx (or a 2xx when the input happens to be acceptable), never a
 * 500 and never a dropped connection.
 */

const deep = (levels: number): unknown => (levels === 0 ? 'x' : { a: deep(levels - 1) });

/** Values that have broken servers before: NUL, extreme and non-integer numbers, wrong types. */
const VALUES: unknown[] = [
  // Quantities that were rounded or answered 500 (1e308, true, -1, 0 and null are below).
  1e-7,
  '0.00001',
  '1.23456',
  '1e3',
  1e13,
  'abc',
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

/** Values that have been rounded, turned into 1 or answered 500 where a quantity was expected. */
const QUANTITY_VALUES: unknown[] = [1e308, -1e308, 1e-7, '0.00001', '1.23456', 1.23456, 99999999999.99998, true, false, -1, '-1', 0, '0', '1e3', 1e13, '10000000000000', 'abc', '', ' ', 'Infinity', 'NaN', '0x10', '1,5', null, [], {}, [1]];

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  minLength?: number;
  pattern?: string;
  [QUANTITY_KEYWORD]?: QuantitySchemaOptions;
}

/** Every quantity of a body schema, by its path (the first item of each array), with its rule. */
function quantityPaths(schema: JsonSchema | undefined, path: Array<string | number> = []): Array<{ path: Array<string | number>; rule: QuantitySchemaOptions }> {
  if (!schema) return [];
  if (schema[QUANTITY_KEYWORD]) return [{ path, rule: schema[QUANTITY_KEYWORD] }];
  const out = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((s) => quantityPaths(s, path));
  for (const [name, property] of Object.entries(schema.properties ?? {})) out.push(...quantityPaths(property, [...path, name]));
  if (schema.items) out.push(...quantityPaths(schema.items, [...path, 0]));
  return out;
}

/** Body properties, at any depth, that hold a quantity by their name (qty, expectedQty, quantity...). */
function quantityNamedPaths(schema: JsonSchema | undefined, path: Array<string | number> = []): Array<{ path: Array<string | number>; schema: JsonSchema }> {
  if (!schema) return [];
  const out = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((s) => quantityNamedPaths(s, path));
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (/qty|quantit/i.test(name)) out.push({ path: [...path, name], schema: property });
    else out.push(...quantityNamedPaths(property, [...path, name]));
  }
  if (schema.items) out.push(...quantityNamedPaths(schema.items, [...path, 0]));
  return out;
}

/** Every quantity of a body, by the schema's keyword or by its name, with its rule (by default above 0). */
function quantityTargets(schema: JsonSchema | undefined): Array<{ path: Array<string | number>; rule: QuantitySchemaOptions }> {
  const targets = new Map(quantityPaths(schema).map((q) => [fieldName(q.path), q]));
  for (const named of quantityNamedPaths(schema)) {
    if (!targets.has(fieldName(named.path))) targets.set(fieldName(named.path), { path: named.path, rule: named.schema[QUANTITY_KEYWORD] ?? {} });
  }
  return [...targets.values()];
}

/** A body of the schema's shape with plausible values, its quantities included (so that they can be replaced). */
function sample(schema: JsonSchema): unknown {
  if (schema[QUANTITY_KEYWORD]) return 1;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const union = schema.anyOf ?? schema.oneOf;
  if (union?.length) return sample(union.find((s) => s.type !== 'null') ?? union[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(name) || quantityTargets(property).length || /qty|quantit/i.test(name)) out[name] = sample(property);
      }
      return out;
    }
    case 'array':
      return schema.items ? [sample(schema.items)] : [];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'string':
      return schema.pattern?.includes('\\d{4}') ? '2030-01-01' : 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return 'x';
  }
}

function withValue(body: unknown, path: Array<string | number>, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let at = copy;
  for (const step of path.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
  at[path[path.length - 1]] = value;
  return copy;
}

/** A path as the error answer names it: `lines[0].qty`. */
function fieldName(path: Array<string | number>): string {
  return path.reduce<string>((name, step) => (typeof step === 'number' ? `${name}[${step}]` : name ? `${name}.${step}` : step), '');
}

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
  body?: JsonSchema;
}

function operations(doc: { paths: Record<string, Record<string, { requestBody?: unknown; parameters?: Array<{ in: string; name: string }> }>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (path.startsWith('/api/docs')) continue;
    for (const [method, op] of Object.entries(methods)) {
      const schema = (op.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content?.['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(),
        path,
        properties: Object.keys(schema?.properties ?? {}),
        queryNames: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        body: schema,
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

  it('compiles the response schema of every route (compiled when a route first answers, not at start)', () => {
    expect(compilePendingSerializers()).toEqual([]);
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

  it('takes every quantity of every route by the one quantity rule', () => {
    const loose = ops.flatMap((op) => quantityNamedPaths(op.body).filter((q) => !quantityPaths(q.schema).length).map((q) => `${op.method} ${op.path} ${fieldName(q.path)}`));
    expect(loose).toEqual([]);
    expect(ops.filter((op) => quantityPaths(op.body).length).length).toBeGreaterThan(10);
  });

  it('refuses every value that is no quantity with the field and the rule, never a 500, never a write', async () => {
    const failures: string[] = [];
    for (const op of ops) {
      if (!op.body) continue;
      const base = sample(op.body);
      for (const { path, rule } of quantityTargets(op.body)) {
        for (const value of QUANTITY_VALUES) {
          const url = fill(op.path, '1');
          const response = await injectAs(t.app, token, { method: op.method as 'POST', url, payload: JSON.stringify(withValue(base, path, value)), headers: { 'content-type': 'application/json' } });
          const label = `${op.method} ${url} ${fieldName(path)}=${JSON.stringify(value)}`;
          if (response.statusCode >= 500) {
            failures.push(`${label} -> ${response.statusCode}`);
            continue;
          }
          const accepted = (rule.nullable && (value === null || value === '')) || parseQuantity(value, rule).ok;
          if (accepted) continue;
          const expected = parseQuantity(value, rule);
          const code = expected.ok ? '' : expected.problem.code;
          const details = (json<{ details?: Array<{ field: string; code: string }> }>(response).details ?? []).map((d) => `${d.field}:${d.code}`);
          if (response.statusCode !== 400 || !details.includes(`${fieldName(path)}:${code}`)) failures.push(`${label} -> ${response.statusCode} ${response.body.slice(0, 200)}`);
        }
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
