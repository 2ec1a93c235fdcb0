import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/server/db/transaction.js';
import { buildTestApp, json, type TestApp } from '../helpers/app.js';

/**
 * No refusal of the database is a 500: a check, foreign-key, unique, not-null, numeric-overflow,
 * text-form or too-long-text violation, and a conflict `inTransaction` gave up retrying, each answer
 * a 4xx with its own code and a text in the caller's language, in one place for every route, and
 * nothing of the constraint's internals. The routes here make the real database refuse (PGlite by
 * default, PostgreSQL with TEST_DATABASE_URL).
 */
let t: TestApp;
let attempts = 0;

/** What each case makes the database do after two scratch tables exist in the transaction. */
const CASES: Record<string, string> = {
  unique: `insert into qt (a) values ('a'), ('a')`,
  check: `insert into qt (a) values ('x')`,
  foreign: `insert into qt (a, b) values ('a', 5)`,
  inUse: `delete from qt_parent where id = 1`,
  notNull: `insert into qt (a) values (null)`,
  overflow: `insert into qt (a, n) values ('a', 1e20)`,
  text: `select 'abc'::int`,
  tooLong: `insert into qt (a) values ('abc')`,
  divide: `select 1 / 0`,
};

beforeAll(async () => {
  t = await buildTestApp({}, {
    beforeReady(app) {
      const db = app.database.db;
      app.post<{ Params: { name: string } }>('/api/test/db/:name', { config: { access: { public: true } } }, async (request) => {
        const statement = CASES[request.params.name];
        await inTransaction(db, async (trx) => {
          await sql`create temp table qt_parent (id int primary key) on commit drop`.execute(trx);
          await sql`create temp table qt (a varchar(2) not null unique check (a <> 'x'), b int references qt_parent (id), n numeric(18,4)) on commit drop`.execute(trx);
          await sql`insert into qt_parent (id) values (1)`.execute(trx);
          await sql`insert into qt (a, b) values ('z', 1)`.execute(trx);
          await sql.raw(statement).execute(trx);
        });
        return { ok: true };
      });
      // Outside any transaction: the same answer.
      app.get('/api/test/db/plain', { config: { access: { public: true } } }, async () => {
        await sql`select 'abc'::int`.execute(db);
        return { ok: true };
      });
      // A serialization failure on every attempt: inTransaction retries, then gives it up to the answer.
      app.get('/api/test/db/conflict', { config: { access: { public: true } } }, async () => {
        attempts = 0;
        await inTransaction(db, async () => {
          attempts += 1;
          throw Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });
        });
        return { ok: true };
      });
    },
  });
});
afterAll(() => t?.close());

interface Answer {
  code: string;
  message: string;
  details?: Array<{ field: string; code: string; message: string }>;
}

const call = (url: string, language = 'en', method: 'GET' | 'POST' = 'POST') => t.app.inject({ method, url, headers: { 'x-language': language } });

describe('refusals of the database', () => {
  it.each([
    ['unique', 409, 'DUPLICATE_VALUE', [{ field: 'a', code: 'DUPLICATE_VALUE' }]],
    ['check', 409, 'DATA_RULE_VIOLATED', undefined],
    ['foreign', 409, 'REFERENCE_NOT_FOUND', [{ field: 'b', code: 'FIELD_FOREIGN' }]],
    ['inUse', 409, 'RECORD_IN_USE', undefined],
    ['notNull', 400, 'VALUE_REQUIRED', [{ field: 'a', code: 'FIELD_REQUIRED' }]],
    ['overflow', 400, 'NUMBER_OUT_OF_RANGE', undefined],
    ['text', 400, 'VALUE_INVALID', undefined],
    ['tooLong', 400, 'VALUE_TOO_LONG', undefined],
    ['divide', 400, 'VALUE_INVALID', undefined],
  ] as const)('answers a %s violation %i %s in the language of the caller', async (name, status, code, details) => {
    const en = await call(`/api/test/db/${name}`);
    expect(en.statusCode, en.body).toBe(status);
    const body = json<Answer>(en);
    expect(body.code).toBe(code);
    if (details) expect(body.details).toEqual(details.map((d) => expect.objectContaining(d) as unknown));
    else expect(body.details).toBeUndefined();
    // Nothing of the database's own words (constraint names, values, SQL) reaches the caller.
    expect(en.body).not.toMatch(/qt_|violates|constraint|Key \(|syntax|abc/);
    const zh = json<Answer>(await call(`/api/test/db/${name}`, 'zh'));
    expect(zh.code).toBe(code);
    expect(zh.message).not.toBe(body.message);
  });

  it('answers a database refusal outside any transaction the same way', async () => {
    const response = await call('/api/test/db/plain', 'en', 'GET');
    expect(response.statusCode, response.body).toBe(400);
    expect(json<Answer>(response).code).toBe('VALUE_INVALID');
  });

  it('answers a conflict that inTransaction retried in vain as 409, after every attempt', async () => {
    const response = await call('/api/test/db/conflict', 'en', 'GET');
    expect(response.statusCode, response.body).toBe(409);
    expect(json<Answer>(response).code).toBe('STALE_UPDATE');
    expect(attempts).toBe(5);
  });
});
