import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.js';

describe(loadConfig.name, () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.logLevel).toBe('info');
  });

  it.each([['abc'], ['-1'], ['70000'], ['80.5']])('refuses PORT=%s naming the variable', (port) => {
    expect(() => loadConfig({ PORT: port })).toThrowError(ConfigError);
    expect(() => loadConfig({ PORT: port })).toThrowError(/^PORT: /);
  });

  it.each([
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['DEMO_DATA', 'maybe'],
    ['SESSION_DAYS', '0'],
    ['SMTP_URL', 'http://mail'],
  ])('refuses %s=%s with the name of the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrowError(new RegExp(`^${name}: `));
  });

  it('reads a PostgreSQL URL and a data directory', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/wms', DATA_DIR: '/tmp/x', PORT: '0' });
    expect(config.databaseUrl).toBe('postgres://u@127.0.0.1:5432/wms');
    expect(config.dataDir).toBe('/tmp/x');
    expect(config.port).toBe(0);
  });
});
