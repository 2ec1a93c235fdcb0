import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** The headers every answer carries, the app's and the API's alike. */
describe('security headers', () => {
  let plain: TestApp;
  let https: TestApp;
  beforeAll(async () => {
    plain = await buildTestApp();
    https = await buildTestApp({ PUBLIC_URL: 'https://wms.example.com/' });
  });
  afterAll(async () => {
    await plain?.close();
    await https?.close();
  });

  it.each(['/api/health', '/api/no-such-route', '/api/docs/json'])('sends a strict policy on %s', async (url) => {
    const response = await plain.app.inject({ method: 'GET', url });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends HSTS only when the app is served over HTTPS', async () => {
    const response = await https.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('still serves the API documentation page', async () => {
    let url = '/api/docs';
    let response = await plain.app.inject({ method: 'GET', url });
    for (let hops = 0; hops < 3 && response.statusCode >= 300 && response.statusCode < 400; hops++) {
      url = new URL(String(response.headers.location), `http://localhost${url}`).pathname;
      response = await plain.app.inject({ method: 'GET', url });
    }
    expect(response.statusCode, url).toBe(200);
    expect(response.body.toLowerCase()).toContain('swagger');
  });
});

describe('compression and caching', () => {
  let t: TestApp;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-dist-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), `<!doctype html><html><body>${'app '.repeat(600)}</body></html>`);
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
    t = await buildTestApp({ DIST_DIR: dist });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('compresses API answers and files for clients that accept it', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'br, gzip' } });
    expect(api.headers['content-encoding']).toMatch(/br|gzip/);
    const file = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(file.headers['content-encoding']).toBe('gzip');
  });

  it('caches hashed assets for a year and makes index.html be asked again', async () => {
    const file = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(file.statusCode).toBe(200);
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const index = await t.app.inject({ method: 'GET', url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['cache-control']).toBe('no-cache');
  });
});
