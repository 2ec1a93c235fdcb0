import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, type TestApp } from '../helpers/app.js';
import { onRealServer } from '../helpers/database.js';

describe('HTTP foundation', () => {
  let t: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    t = await buildTestApp(
      { BODY_LIMIT_MB: '1' },
      {
        logger: { level: 'error', stream },
        beforeReady(app) {
          app.get('/api/test/explode', { config: { access: { public: true } } }, () => {
            throw new Error('secret internal detail: connection string postgres://x:y@db');
          });
        },
      },
    );
  });
  afterAll(() => t.close());

  it('answers health with version and database kind', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    const body = json<{ status: string; version: string; database: { kind: string; version: string } }>(response);
    expect(body.status).toBe('ok');
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.database.kind).toBe(onRealServer ? 'postgres' : 'pglite');
    expect(body.database.version).toMatch(/PostgreSQL \d+/);
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('answers an unknown API route with 404 and a code', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/no/such/route' });
    expect(response.statusCode).toBe(404);
    expect(json(response)).toMatchObject({ code: 'ROUTE_NOT_FOUND', message: expect.any(String) });
  });

  it('answers malformed JSON with 400 BAD_JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { 'content-type': 'application/json' },
      payload: '{"loginAccount": ',
    });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toMatchObject({ code: 'BAD_JSON' });
  });

  it('answers an oversized body with 413', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ blob: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(response.statusCode).toBe(413);
    expect(json(response)).toMatchObject({ code: 'BODY_TOO_LARGE' });
  });

  it('answers an unexpected error with 500 and no internals, and logs the whole error', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/explode' });
    expect(response.statusCode).toBe(500);
    expect(json(response)).toMatchObject({ code: 'INTERNAL' });
    expect(response.body).not.toContain('secret internal detail');
    expect(response.body).not.toContain('postgres://');
    const logged = logLines.join('\n');
    expect(logged).toContain('secret internal detail');
    expect(logged).toContain(response.headers['x-request-id'] as string);
  });

  it('answers in the language the caller asks for', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/no/such', headers: { 'x-language': 'jp' } });
    const english = await t.app.inject({ method: 'GET', url: '/api/no/such', headers: { 'x-language': '2' } });
    expect(json<{ message: string }>(english).message).toBe('There is no such API call.');
    expect(json<{ message: string }>(response).message).not.toBe('There is no such API call.');
  });

  it('serves the OpenAPI document generated from the route schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = json<{ openapi: string; paths: Record<string, unknown> }>(response);
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/health');
  });
});

describe('health without a database', () => {
  it('answers 503 when the database does not answer', async () => {
    const t = await buildTestApp();
    try {
      await t.database.close();
      const response = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(503);
      expect(json(response)).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
    } finally {
      await t.app.close();
    }
  });
});
