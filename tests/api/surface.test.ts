import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ERRORS, type ErrorCode } from '../../src/common/errors.js';
import type { RouteAccess } from '../../src/server/http/access.js';
import { buildTestApp, json, type TestApp } from '../helpers/app.js';

/**
 * The public surface of the application, as the running app shows it: every API route with who may
 * call it, every right name it knows (page rights, the areas' verbs, what routes and behaviours
 * require) and every error code with the HTTP status the one error handler answers for it. It is
 * compared with tests/fixtures/surface.json, so that moving code between areas cannot change what a
 * client, a role or a page definition relies on without the change being seen.
 *
 * Everything is read from the built app and its database (the access plugin's route list, the area
 * registry, the menu and shipped definitions the start-up sync wrote, the error handler's answers),
 * never from source files, so it keeps working wherever the declarations move.
 *
 * To change the surface on purpose, rewrite the file and review its diff:
 *   UPDATE_SURFACE=1 npx vitest run --project api tests/api/surface.test.ts
 */
const SNAPSHOT = path.resolve(import.meta.dirname, '../fixtures/surface.json');
/** A route of this test only, through which each error code is raised; it is not part of the surface. */
const PROBE_URL = '/api/test/surface/raise/:code';

interface Surface {
  /** `METHOD /api/url` -> who may call it: `public`, `session`, `admin` or `<right> @<scope>`. */
  routes: Record<string, string>;
  rights: {
    /** Page rights: each grants view, add, edit and delete (`<name>:view`...). From the menu and the shipped pages. */
    pages: string[];
    /** The areas' own verbs, granted one by one on the role screen. */
    verbs: string[];
    /** Every right name a route or a behaviour requires. */
    required: string[];
  };
  /** Behaviour (action) name -> the verb it needs besides the page right, or `-`. */
  behaviours: Record<string, string>;
  /** Error code -> the HTTP status the app answers it with. */
  errors: Record<string, number>;
}

function describeAccess(access: RouteAccess): string {
  if ('public' in access) return 'public';
  if ('session' in access) return 'session';
  if ('admin' in access) return 'admin';
  return `${access.right} @${access.scope}`;
}

function sorted<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** Every error code the app knows: the platform's registry and any an area's manifest brings. */
function knownErrorCodes(app: FastifyInstance): string[] {
  const codes = new Set<string>(Object.keys(ERRORS));
  for (const module of app.areas.modules) {
    const declared = (module as { errors?: unknown }).errors;
    if (Array.isArray(declared)) {
      for (const entry of declared as unknown[]) {
        if (typeof entry === 'string') codes.add(entry);
        else if (entry && typeof entry === 'object' && 'code' in entry) codes.add(String(entry.code));
      }
    } else if (declared && typeof declared === 'object') {
      for (const code of Object.keys(declared)) codes.add(code);
    }
  }
  return [...codes];
}

async function collectSurface(t: TestApp): Promise<Surface> {
  const { app } = t;
  const routes: Record<string, string> = {};
  for (const route of app.apiRoutes) {
    if (route.method === 'HEAD' || route.url === PROBE_URL) continue;
    routes[`${route.method} ${route.url}`] = describeAccess(route.access);
  }

  const db = t.database.db;
  const menu = await db.selectFrom('sys_module').select(['code', 'route', 'right_name']).where('route', 'is not', null).execute();
  const shipped = await db.selectFrom('page_definition').select(['module_code', 'function_code']).where('project_id', 'is', null).execute();
  const pages = new Set([...menu.map((row) => row.right_name ?? row.code), ...shipped.map((row) => `${row.module_code}.${row.function_code}`)]);

  const behaviours: Record<string, string> = {};
  const required = new Set<string>();
  for (const route of app.apiRoutes) if ('right' in route.access) required.add(route.access.right);
  for (const name of app.areas.behaviourNames()) {
    const right = app.areas.behaviour(name)?.right;
    behaviours[name] = right ?? '-';
    if (right) required.add(right);
  }

  const errors: Record<string, number> = {};
  for (const code of knownErrorCodes(app)) {
    const response = await app.inject({ method: 'GET', url: `/api/test/surface/raise/${code}` });
    const body = json<{ code?: string }>(response);
    // A code the handler does not answer as itself is recorded as such, so the diff shows it.
    errors[code] = body.code === code ? response.statusCode : -response.statusCode;
  }

  return {
    routes: sorted(routes),
    rights: {
      pages: [...pages].sort(),
      verbs: app.areas.rightVerbs().map((verb) => verb.right).sort(),
      required: [...required].sort(),
    },
    behaviours: sorted(behaviours),
    errors: sorted(errors),
  };
}

/** One line per entry, `section key = value`, so a difference reads as lines added and removed. */
function lines(surface: Surface): string[] {
  return [
    ...Object.entries(surface.routes).map(([route, access]) => `route ${route} = ${access}`),
    ...surface.rights.pages.map((right) => `page right ${right}`),
    ...surface.rights.verbs.map((right) => `verb ${right}`),
    ...surface.rights.required.map((right) => `required right ${right}`),
    ...Object.entries(surface.behaviours).map(([name, right]) => `behaviour ${name} = ${right}`),
    ...Object.entries(surface.errors).map(([code, status]) => `error ${code} = ${status}`),
  ];
}

/**
 * The changes made on purpose since the surface was recorded, applied to the recorded lines before
 * they are compared, so the file stays the record of the surface as it was and each change is named:
 * - the user and role pages belong to the identity area, so their module code and the rights named
 *   after it are `identity.*` instead of `setup.*` (stored rights and pages are renamed by the
 *   migration 0230_identity_module_code);
 * - the browser loads the route table, every area's /page routes merged, from `GET /api/home/routes`;
 * - the transaction log has one screen, `transaction`: the engine page `transactionNew` and its page
 *   right are retired (migration 0240_one_transaction_log).
 */
const CHANGES_ON_PURPOSE = {
  renamedRightPrefixes: [['setup.', 'identity.']] as const,
  addedLines: ['route GET /api/home/routes = session'],
  removedLines: ['page right inventory.transactionNew'],
};

function withChangesOnPurpose(recorded: string[]): string[] {
  const renamed = recorded.map((line) =>
    CHANGES_ON_PURPOSE.renamedRightPrefixes.reduce((text, [from, to]) => text.replace(new RegExp(`(^|[ =])${from.replace('.', '\\.')}`, 'g'), `$1${to}`), line),
  );
  return [...renamed.filter((line) => !CHANGES_ON_PURPOSE.removedLines.includes(line)), ...CHANGES_ON_PURPOSE.addedLines];
}

/** The lines only one side has, as `- expected` and `+ found`; empty when both are equal. */
function surfaceDiff(expected: Surface, found: Surface, expectedLines = lines(expected)): string[] {
  const before = new Set(expectedLines);
  const after = new Set(lines(found));
  return [...[...before].filter((line) => !after.has(line)).map((line) => `- ${line}`), ...[...after].filter((line) => !before.has(line)).map((line) => `+ ${line}`)];
}

describe('the public surface', () => {
  let t: TestApp;
  let found: Surface;

  beforeAll(async () => {
    t = await buildTestApp(
      {},
      {
        beforeReady(app) {
          app.get<{ Params: { code: string } }>(PROBE_URL, { config: { access: { public: true } } }, (request) => {
            throw new AppError(request.params.code as ErrorCode);
          });
        },
      },
    );
    found = await collectSurface(t);
    if (process.env.UPDATE_SURFACE === '1') fs.writeFileSync(SNAPSHOT, `${JSON.stringify(found, null, 2)}\n`);
  });
  afterAll(() => t.close());

  it('reads a surface with routes, rights and errors from the running app', () => {
    expect(Object.keys(found.routes)).toEqual(expect.arrayContaining(['POST /api/user/login', 'GET /api/health']));
    expect(found.rights.pages.length).toBeGreaterThan(10);
    expect(found.rights.verbs).toContain('outbound.so:allocate');
    expect(found.errors.UNAUTHENTICATED).toBe(401);
  });

  it('finds a changed, added or removed entry', () => {
    const changed: Surface = structuredClone(found);
    changed.errors.NO_RECORD = 410;
    delete changed.routes['GET /api/health'];
    changed.rights.verbs.push('outbound.so:teleport');
    expect(surfaceDiff(found, changed)).toEqual(
      expect.arrayContaining(['- error NO_RECORD = 404', '+ error NO_RECORD = 410', '- route GET /api/health = public', '+ verb outbound.so:teleport']),
    );
  });

  it('is the surface recorded in tests/fixtures/surface.json (UPDATE_SURFACE=1 rewrites it on purpose)', () => {
    const expected = JSON.parse(fs.readFileSync(SNAPSHOT, 'utf8')) as Surface;
    const diff = surfaceDiff(expected, found, withChangesOnPurpose(lines(expected)));
    expect(diff, `the surface differs from tests/fixtures/surface.json (- recorded, + now):\n${diff.join('\n')}`).toEqual([]);
  });
});
