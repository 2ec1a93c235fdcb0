import type { FastifyInstance, FastifyServerOptions, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { loadConfig, type AppConfig } from '../../src/server/config.js';
import { hashPassword } from '../../src/server/modules/identity/auth/password.js';
import type { RightName } from '../../src/server/http/access.js';
import { inTransaction } from '../../src/server/db/transaction.js';
import { migrateToLatest } from '../../src/server/install/migrate.js';
import type { AreaModule } from '../../src/server/modules/area.js';
import { MODULES } from '../../src/server/modules/index.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { ADMIN } from './accounts.js';
import { syncAsAtStart } from './template.js';

export { ADMIN };

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  config: AppConfig;
  close(): Promise<void>;
}

/**
 * Builds the real app on a fresh, migrated and seeded database (fastify/demo's `build()`). The
 * database is a copy of this run's ready template unless the test brings its own; an extra area's
 * migrations and verbs are then added on top, as a restarted server would add them.
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  options: {
    logger?: FastifyServerOptions['logger'];
    beforeReady?: (app: FastifyInstance) => void;
    database?: TestDatabase;
    /** Areas besides the product's own (a test's tiny area); their migrations run last. */
    extraModules?: AreaModule[];
  } = {},
): Promise<TestApp> {
  // The job scheduler stays off unless a test asks for it (JOB_SCHEDULER=true).
  const config = loadConfig({ LOG_LEVEL: 'silent', ADMIN_PASSWORD: ADMIN.password, DEMO_DATA: 'false', JOB_SCHEDULER: 'false', ...env });
  // A test may bring its own migrated database (another connection role, for example).
  const ready = !options.database && config.adminPassword === ADMIN.password;
  const database = options.database ?? (await createTestDatabase({ ready }));
  const modules = [...MODULES, ...(options.extraModules ?? [])];
  if (options.extraModules?.length) await migrateToLatest(database.db, modules);
  // As start.ts: migrations -> right verbs and definition sync -> seed.
  if (!ready || options.extraModules?.length) await syncAsAtStart(database.db, modules, config.adminPassword);
  const app = await buildApp({ config, database, logger: options.logger ?? false, modules });
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

export interface TestUserSpec {
  loginAccount: string;
  /** Defaults to a password that meets the policy. */
  password?: string;
  /** Rights of one role made for this user, e.g. ['sku:view', 'sku:edit']. */
  rights?: RightName[];
  /** Codes of granted projects and warehouses; the first of each is the session's current one. */
  projectCodes?: string[];
  warehouseCodes?: string[];
  isAdmin?: boolean;
  email?: string;
}

export const TEST_USER_PASSWORD = 'Us3r!Passw0rd';

/**
 * One argon2 hash per password and worker: a salted hash verifies the same password whatever its
 * salt, and each hash costs tens of milliseconds of CPU, for hundreds of test users of the suite.
 */
const passwordHashes = new Map<string, Promise<string>>();
function passwordHashOf(password: string): Promise<string> {
  let hashed = passwordHashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    passwordHashes.set(password, hashed);
  }
  return hashed;
}

/**
 * Creates a user with one role holding the given rights and grants of the given projects and
 * warehouses (and their organizations), signs it in and answers `{ uid, token }`.
 */
export async function createUserAccount(t: TestApp, spec: TestUserSpec): Promise<{ uid: number; token: string }> {
  const db = t.database.db;
  const password = spec.password ?? TEST_USER_PASSWORD;
  const passwordHash = await passwordHashOf(password);
  const uid = await inTransaction(db, async (trx) => {
    const user = await trx
      .insertInto('app_user')
      .values({
        login_account: spec.loginAccount,
        display_name: spec.loginAccount,
        email: spec.email ?? null,
        password_hash: passwordHash,
        is_admin: spec.isAdmin ?? false,
        created_by: 'test',
        updated_by: 'test',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const projects = spec.projectCodes?.length
      ? await trx.selectFrom('project').select(['id', 'code', 'organization_id']).where('code', 'in', spec.projectCodes).execute()
      : [];
    const warehouses = spec.warehouseCodes?.length
      ? await trx.selectFrom('warehouse').select(['id', 'code', 'organization_id']).where('code', 'in', spec.warehouseCodes).execute()
      : [];
    if (projects.length !== (spec.projectCodes?.length ?? 0) || warehouses.length !== (spec.warehouseCodes?.length ?? 0)) {
      throw new Error(`createUser ${spec.loginAccount}: unknown project or warehouse code`);
    }
    const organizations = new Set([...projects, ...warehouses].map((r) => r.organization_id));
    for (const organization_id of organizations) await trx.insertInto('user_organization').values({ user_id: user.id, organization_id }).execute();
    for (const p of projects) await trx.insertInto('user_project').values({ user_id: user.id, project_id: p.id }).execute();
    for (const w of warehouses) await trx.insertInto('user_warehouse').values({ user_id: user.id, warehouse_id: w.id }).execute();
    const firstProject = projects.find((p) => p.code === spec.projectCodes?.[0]);
    const firstWarehouse = warehouses.find((w) => w.code === spec.warehouseCodes?.[0]);
    await trx
      .updateTable('app_user')
      .set({ default_project_id: firstProject?.id ?? null, default_warehouse_id: firstWarehouse?.id ?? null })
      .where('id', '=', user.id)
      .execute();
    if (spec.rights?.length) {
      const role = await trx
        .insertInto('role')
        .values({ name: `role of ${spec.loginAccount}`, created_by: 'test', updated_by: 'test' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const byModule = new Map<string, { module_code: string; sub_module_code: string | null; can_view: boolean; can_add: boolean; can_edit: boolean; can_delete: boolean }>();
      for (const right of spec.rights) {
        const [modulePart, action] = right.split(':');
        if (!['view', 'add', 'edit', 'delete'].includes(action)) {
          // An area's own verb (`masterdata.loa:generate`): granted one by one.
          await trx.insertInto('role_verb').values({ role_id: role.id, right_code: right, created_by: 'test', updated_by: 'test' }).execute();
          continue;
        }
        const [module_code, sub] = modulePart.split('.');
        const key = modulePart;
        const row = byModule.get(key) ?? { module_code, sub_module_code: sub ?? null, can_view: false, can_add: false, can_edit: false, can_delete: false };
        if (action === 'view') row.can_view = true;
        if (action === 'add') row.can_add = true;
        if (action === 'edit') row.can_edit = true;
        if (action === 'delete') row.can_delete = true;
        byModule.set(key, row);
      }
      for (const row of byModule.values()) await trx.insertInto('role_permission').values({ role_id: role.id, ...row }).execute();
      await trx.insertInto('user_role').values({ user_id: user.id, role_id: role.id }).execute();
    }
    return user.id;
  });
  return { uid, token: await signIn(t.app, spec.loginAccount, password) };
}

/** `createUserAccount` for tests that only need the signed-in token. */
export async function createUser(t: TestApp, spec: TestUserSpec): Promise<string> {
  return (await createUserAccount(t, spec)).token;
}
