import type { FastifyInstance, FastifyServerOptions, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { loadConfig, type AppConfig } from '../../src/server/config.js';
import { seedFirstStart } from '../../src/server/db/seed/seed.js';
import { createTestDatabase, type TestDatabase } from './database.js';

/** The seeded administrator of every test app. */
export const ADMIN = { loginAccount: 'admin', password: 'Adm1n!Passw0rd' } as const;

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  config: AppConfig;
  close(): Promise<void>;
}

/** Builds the real app on a fresh, migrated and seeded database (fastify/demo's `build()`). */
export async function buildTestApp(
  env: Record<string, string> = {},
  options: { logger?: FastifyServerOptions['logger']; beforeReady?: (app: FastifyInstance) => void } = {},
): Promise<TestApp> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ADMIN_PASSWORD: ADMIN.password, DEMO_DATA: 'false', ...env });
  const database = await createTestDatabase();
  await seedFirstStart(database.db, config.adminPassword);
  const app = await buildApp({ config, database, logger: options.logger ?? false });
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** Parses a JSON answer, failing with the status and body when it is not JSON. */
export function json<T = unknown>(response: LightMyRequestResponse): T {
  try {
    return JSON.parse(response.body) as T;
  } catch {
    throw new Error(`not JSON (${response.statusCode}): ${response.body.slice(0, 200)}`);
  }
}

/** Signs in through the real login call and answers the bearer token. */
export async function signIn(app: FastifyInstance, loginAccount: string = ADMIN.loginAccount, password: string = ADMIN.password): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/user/login', payload: { loginAccount, password } });
  if (response.statusCode !== 200) throw new Error(`sign-in of ${loginAccount} failed: ${response.statusCode} ${response.body}`);
  const body = json<{ token?: string }>(response);
  if (!body.token) throw new Error(`sign-in of ${loginAccount} answered no token: ${response.body}`);
  return body.token;
}

/** `app.inject` with a bearer token. */
export function injectAs(app: FastifyInstance, token: string, options: InjectOptions): Promise<LightMyRequestResponse> {
  return app.inject({ ...options, headers: { ...options.headers, authorization: `Bearer ${token}` } });
}
