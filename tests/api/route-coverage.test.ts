import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPathPattern, clientApiPaths, HOLE, patternText, reaches, type ClientPath } from '../helpers/client-paths.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/**
 * Every API route of the running app is reached by the product, or is on one of two reviewed lists.
 *
 * "Reached" is read from the source of everything that calls the server inside the product: the
 * browser code (the shell and its API client, the hand-written and handheld screens, the engine's
 * client that renders every page definition) and the shipped page definitions. Scheduled jobs run
 * the areas' services in process and call no route, so they add no caller. A path the client
 * builds from constants and template strings is resolved (see tests/helpers/client-paths.ts); a
 * path used by the browser counts for every method the route answers.
 *
 * A route nothing reaches must be on one of two lists:
 * - API_ONLY: meant to be called by other systems (health checks, the OpenAPI page, host systems
 *   such as an ERP or EDI middleware sending orders and ASNs, identity provisioning). Each entry says
 *   why. Where the reason is that a shipped page offers the same work through the engine (a button
 *   bound to the same action, or the page listing and editing the same records), the entry names
 *   that action or page and the test checks that a shipped definition still has it.
 * - NOT_YET_ON_A_SCREEN: meant for a screen that does not call it yet. The test prints it; it should
 *   only shrink.
 *
 * The lists are kept exact: a listed route that a screen now reaches, or that the server no longer
 * has, fails the test, as does a route on both lists. docs/api.md explains the API-only routes.
 */

const ROOT = resolve(import.meta.dirname, '../..');

/** Where the browser code lives: the shell and API client, the screens (handheld ones included), the engine's renderer. */
const BROWSER_SOURCES = ['src/app', 'src/screens', 'engine/client'];
/** The shipped page definitions (a data source or an action that names a path would count). */
const DEFINITION_SOURCES = ['definitions'];

interface ApiOnly {
  /** Who calls it and why it has no screen of its own. */
  reason: string;
  /** The same work is a button of a shipped page: the actions it runs (each must be bound by a shipped definition). */
  sameAsButton?: string[];
  /** The same records are listed and edited on this shipped engine page (`<module>/<function>`). */
  sameAsPage?: string;
}

const OPENAPI = 'The OpenAPI page and document, for integrators writing clients of the API';
const HOST_ASN = 'Host systems (ERP, EDI middleware) send and read advance shipping notices';
const HOST_SO = 'Host systems (ERP, EDI middleware) send sales orders line by line';
const HOST_INVENTORY = 'Host systems and scanners\' middleware confirm inventory documents made elsewhere';
const PROVISIONING = 'Identity provisioning of a company directory keeps accounts and roles in step';
const SCHEDULER = 'Operations tooling and monitoring drive and watch the scheduled jobs';
const BILLING = 'Finance and ERP systems run billing, read the bills with what each line counted, and confirm and post them';
const HOST_DO = 'Order and ERP systems send and withdraw delivery orders for transport planning';

/** Routes meant to be called by other systems, each with its reason. */
const API_ONLY: Record<string, ApiOnly> = {
  'GET /api/docs': { reason: OPENAPI },
  'GET /api/docs/json': { reason: OPENAPI },
  'GET /api/docs/yaml': { reason: OPENAPI },
  'GET /api/docs/static/index.html': { reason: OPENAPI },
  'GET /api/docs/static/swagger-initializer.js': { reason: OPENAPI },
  'GET /api/docs/static/*': { reason: OPENAPI },
  'GET /api/health': { reason: 'Load balancers and monitoring check the server and its database' },

  'POST /api/user/list': { reason: PROVISIONING, sameAsPage: 'identity/user' },
  'POST /api/user/findOne': { reason: PROVISIONING, sameAsPage: 'identity/user' },
  'POST /api/user/batchUpdate': { reason: PROVISIONING, sameAsButton: ['identity.user.enable', 'identity.user.disable'] },
  'POST /api/user/signOut': { reason: 'A directory or HR system ends the sessions of leavers', sameAsButton: ['identity.user.signOut'] },
  'POST /api/user/logout/loginAccount': { reason: 'A directory or HR system ends the sessions of a leaver by account name', sameAsButton: ['identity.user.signOut'] },
  'POST /api/role/fetch': { reason: PROVISIONING, sameAsPage: 'identity/role' },
  'POST /api/role/findOne': { reason: PROVISIONING, sameAsPage: 'identity/role' },
  'POST /api/role': { reason: PROVISIONING, sameAsPage: 'identity/role' },
  'POST /api/role/delete': { reason: PROVISIONING, sameAsPage: 'identity/role' },
  'GET /api/role/typeAndPerm': { reason: 'The catalogue a provisioning system needs to write roles; the role page takes the same choices from its fields', sameAsPage: 'identity/rolePermission' },
  'POST /api/rule/fetch': { reason: PROVISIONING, sameAsPage: 'identity/all_rule' },
  'POST /api/rule': { reason: PROVISIONING, sameAsPage: 'identity/all_rule' },
  'POST /api/rule/delete': { reason: PROVISIONING, sameAsPage: 'identity/all_rule' },

  'POST /api/inventory/invAdjHeader/confirm': { reason: HOST_INVENTORY, sameAsButton: ['inventory.adjust.confirm'] },
  'POST /api/inventory/invAdjHeader/cancel': { reason: HOST_INVENTORY, sameAsButton: ['inventory.document.cancel'] },
  'POST /api/inventory/invAdjHeader/requestApproval': { reason: HOST_INVENTORY, sameAsButton: ['inventory.document.requestApproval'] },
  'POST /api/inventory/invAdjHeader/cancelRequest': { reason: HOST_INVENTORY, sameAsButton: ['inventory.document.cancelRequest'] },
  'POST /api/inventory/invMoveHeader/confirm': { reason: HOST_INVENTORY, sameAsButton: ['inventory.move.confirm'] },
  'POST /api/inventory/invMoveHeader/cancel': { reason: HOST_INVENTORY, sameAsButton: ['inventory.document.cancel'] },
  'POST /api/inventory/invMoveHeader/requestApproval': { reason: HOST_INVENTORY, sameAsButton: ['inventory.document.requestApproval'] },
  'POST /api/inventory/invMoveHeader/cancelRequest': { reason: HOST_INVENTORY, sameAsButton: ['inventory.document.cancelRequest'] },
  'POST /api/inventory/invTransferHeader/confirm': { reason: HOST_INVENTORY, sameAsButton: ['inventory.transfer.confirm'] },
  'POST /api/inventory/invTransferHeader/cancel': { reason: HOST_INVENTORY, sameAsButton: ['inventory.document.cancel'] },
  'POST /api/inventory/invTransferHeader/requestApproval': { reason: HOST_INVENTORY, sameAsButton: ['inventory.document.requestApproval'] },
  'POST /api/inventory/invTransferHeader/cancelRequest': { reason: HOST_INVENTORY, sameAsButton: ['inventory.document.cancelRequest'] },
  'POST /api/inventory/invTransferHeader/transit': { reason: HOST_INVENTORY, sameAsButton: ['inventory.transfer.transit'] },
  'POST /api/inventory/invTransferHeader/cancelTransit': { reason: HOST_INVENTORY, sameAsButton: ['inventory.transfer.cancelTransit'] },
  'POST /api/inventory/invHoldHeader/confirm': { reason: HOST_INVENTORY, sameAsButton: ['inventory.hold.confirm'] },
  'POST /api/inventory/invHoldHeader/cancel': { reason: HOST_INVENTORY, sameAsButton: ['inventory.document.cancel'] },
  'POST /api/inventory/invHoldHeader/requestApproval': { reason: HOST_INVENTORY, sameAsButton: ['inventory.document.requestApproval'] },
  'POST /api/inventory/invHoldHeader/cancelRequest': { reason: HOST_INVENTORY, sameAsButton: ['inventory.document.cancelRequest'] },
  'POST /api/inventory/cycleCount/recount': { reason: 'Counting devices\' middleware sends tickets back to recount', sameAsButton: ['inventory.count.recount'] },
  'POST /api/inventory/cycleCount/approve': { reason: 'Counting devices\' middleware reports approved tickets', sameAsButton: ['inventory.count.approve'] },
  'POST /api/inventory/cycleCount/close': { reason: 'Counting devices\' middleware closes tickets', sameAsButton: ['inventory.count.close'] },
  'POST /api/inventory/cycleCountMaster/createCountOrder': { reason: 'Host systems order counts from a plan of the count master', sameAsButton: ['inventory.count.createOrder'] },

  'POST /api/asn/list': { reason: HOST_ASN, sameAsPage: 'inbound/asn' },
  'POST /api/asn/getHeader': { reason: HOST_ASN, sameAsPage: 'inbound/asn' },
  'POST /api/asn/getDetail': { reason: HOST_ASN, sameAsPage: 'inbound/asnLine' },
  'POST /api/asn/saveHeader': { reason: HOST_ASN, sameAsPage: 'inbound/asn' },
  'POST /api/asn/saveDetail': { reason: HOST_ASN, sameAsPage: 'inbound/asnLine' },
  'POST /api/asn/deletelist': { reason: HOST_ASN, sameAsButton: ['inbound.asn.delete'] },
  'POST /api/asn/cancel': { reason: HOST_ASN, sameAsButton: ['inbound.asn.cancel'] },
  'POST /api/asn/close': { reason: HOST_ASN, sameAsButton: ['inbound.asn.close'] },
  'POST /api/rec/split': { reason: 'Host systems split the receipt lines they record; the goods receipts page splits a line with its Split line button', sameAsButton: ['inbound.receipt.split'] },
  'POST /api/split/table': { reason: 'Host systems split the lines of any receiving table by name; the goods receipts page splits a line with its Split line button', sameAsButton: ['inbound.receipt.split'] },
  'POST /api/asn/fromPo': { reason: 'Host systems turn what is open on a purchase order into an ASN', sameAsButton: ['inbound.po.createAsn'] },
  'GET /api/inbound/openWork': {
    reason: "Host systems and dashboards read a warehouse's inbound backlog; the home page shows the same ASNs by status and receipts waiting for putaway in its open work",
    sameAsPage: 'inbound/asn',
  },

  'POST /api/so/create/soDetail': { reason: HOST_SO, sameAsPage: 'outbound/soDetail' },
  'POST /api/so/save/soDetail': { reason: HOST_SO, sameAsPage: 'outbound/soDetail' },
  'POST /api/so/export': { reason: 'Host systems and EDI take the orders with their lines in one file; the order page exports through the engine', sameAsPage: 'outbound/so' },
  'POST /api/so/header/allocation': { reason: 'Host systems allocate the orders they send', sameAsButton: ['outbound.so.allocate', 'outbound.so.unallocate'] },
  'POST /api/so/detail/allocation': { reason: 'Host systems allocate the order lines they send', sameAsButton: ['outbound.soLine.allocate', 'outbound.soLine.unallocate'] },
  'POST /api/so/split': { reason: 'Host systems split the order lines they send; the order page splits a line with its Split line button', sameAsButton: ['outbound.soLine.split'] },
  'POST /api/so/pick': { reason: "Scanners' middleware reads one order's pick tasks; the order page prints them as the order's pick list", sameAsPage: 'outbound/so' },
  'POST /api/so/cancelCloseCheck': {
    reason: 'Host systems ask whether orders may still be cancelled or closed; the order page shows the same check before its buttons run',
    sameAsButton: ['outbound.so.cancel', 'outbound.so.close'],
  },
  'POST /api/so/getMaintenanceList': { reason: 'Host systems read the order maintenance list', sameAsPage: 'outbound/soMaintenance' },
  'POST /api/so/addMaintenanceList': { reason: 'Host systems put orders or SKUs on the maintenance list', sameAsButton: ['outbound.maintenance.add'] },
  'POST /api/so/deleteMaintenanceList': { reason: 'Host systems take entries off the maintenance list', sameAsButton: ['outbound.maintenance.delete'] },
  'POST /api/so/addOrderToShipmentId': { reason: 'Host systems and carriers put orders on a shipment order', sameAsButton: ['outbound.shipmentOrder.addOrders'] },
  'POST /api/so/removeOrderFromShipmentId': { reason: 'Host systems and carriers take orders off a shipment order', sameAsButton: ['outbound.shipmentOrder.removeOrders'] },
  'POST /api/wave/batchUpdateRef': { reason: 'Wave planners set the reference of several waves', sameAsButton: ['outbound.wave.batchUpdateRef'] },
  'POST /api/wave/release': { reason: 'Wave planners release waves into pick tasks', sameAsButton: ['outbound.wave.release'] },
  'POST /api/wave/unwave': { reason: 'Wave planners take orders off their wave', sameAsButton: ['outbound.wave.unwave'] },

  'POST /api/billing/run': { reason: BILLING, sameAsButton: ['billing.bill.run'] },
  'POST /api/billing/bill': { reason: BILLING, sameAsPage: 'billing/billingLine' },
  'POST /api/billing/line/sources': { reason: BILLING, sameAsPage: 'billing/billingLineSource' },
  'POST /api/billing/confirm': { reason: BILLING, sameAsButton: ['billing.bill.confirm'] },
  'POST /api/billing/cancel': { reason: BILLING, sameAsButton: ['billing.bill.cancel'] },
  'POST /api/billing/post': { reason: BILLING, sameAsButton: ['billing.bill.post'] },
  'GET /api/inv/nonMer/tempOrder': { reason: 'The temporary non-merchandise order under its own name, for a host system; the wizard screen reads the same answer through findTempSoOrderInfo' },
  'POST /api/tms/saveTmsDoHeader': { reason: HOST_DO, sameAsPage: 'transport/tmsOrder' },
  'POST /api/tms/deleteTmsDoHeader': { reason: HOST_DO, sameAsPage: 'transport/tmsOrder' },

  'GET /api/schedule': { reason: SCHEDULER, sameAsPage: 'job/job' },
  'GET /api/job/handlers': { reason: SCHEDULER, sameAsPage: 'job/job' },
  'GET /api/job/runs': { reason: SCHEDULER, sameAsPage: 'job/jobRun' },
  'POST /api/schedule/addJob': { reason: SCHEDULER, sameAsButton: ['job.job.activate', 'job.timer.activate'] },
  'POST /api/schedule/deleteJob': { reason: SCHEDULER, sameAsButton: ['job.job.inactivate', 'job.timer.inactivate'] },
  'POST /api/manual/schedule': { reason: SCHEDULER, sameAsButton: ['job.job.run', 'job.timer.run'] },
};

/** Routes a screen should call but none does yet, with the screen that should; this list only shrinks. */
const NOT_YET_ON_A_SCREEN: Record<string, string> = {
  'POST /api/report/generic/get': 'report editor opening one report by id (the report list answers every draft with its assignments today)',
  'POST /api/report/generic/versions': "report editor's list of published versions",
};

interface Route {
  method: string;
  url: string;
  /** `METHOD /api/url`, as the lists name it. */
  key: string;
}

/** The routes a client pattern reaches; a fixed route wins over a parameter route of the same path, as in the server's router. */
function reachedBy(pattern: ClientPath['parts'], routes: Route[]): Route[] {
  const all = routes.filter((r) => reaches(pattern, r.url.slice('/api'.length)));
  const fixed = all.filter((r) => !/[:*]/.test(r.url));
  return fixed.length ? fixed : all;
}

/** Every action a shipped page definition binds to a button. */
function boundActions(): Set<string> {
  const out = new Set<string>();
  for (const root of DEFINITION_SOURCES) {
    for (const area of readdirSync(join(ROOT, root))) {
      for (const file of readdirSync(join(ROOT, root, area)).filter((f) => f.endsWith('.page.json'))) {
        const page = JSON.parse(readFileSync(join(ROOT, root, area, file), 'utf8')) as { behaviours?: Array<{ action: string }> };
        for (const behaviour of page.behaviours ?? []) out.add(behaviour.action);
      }
    }
  }
  return out;
}

describe('route coverage', () => {
  let t: TestApp;
  let routes: Route[];
  let paths: ClientPath[];
  /** Route key -> the client files that reach it. */
  const used = new Map<string, Set<string>>();

  beforeAll(async () => {
    t = await buildTestApp();
    routes = t.app.apiRoutes
      .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS')
      .map((r) => ({ method: r.method, url: r.url, key: `${r.method} ${r.url}` }));
    paths = clientApiPaths(ROOT, BROWSER_SOURCES, DEFINITION_SOURCES);
    for (const path of paths) {
      for (const route of reachedBy(path.parts, routes)) used.set(route.key, (used.get(route.key) ?? new Set()).add(path.file));
    }
  });
  afterAll(() => t?.close());

  it('reads the routes of the app and the calls of the browser code', () => {
    for (const root of [...BROWSER_SOURCES, ...DEFINITION_SOURCES]) expect(existsSync(join(ROOT, root)), root).toBe(true);
    expect(routes.length).toBeGreaterThan(100);
    // A literal handed to the engine's services, a constant of another file in a template, a raw fetch.
    expect([...(used.get('POST /api/generic/selection') ?? [])]).toContain('engine/client/usePageRows.ts');
    expect([...(used.get('POST /api/generic/support/getLog') ?? [])]).toContain('src/screens/support/support-api.ts');
    expect([...(used.get('GET /api/notification/stream') ?? [])]).toContain('src/app/shell/notification-stream.ts');
  });

  it('matches a client path to a route by its fixed segments, a hole only standing for a parameter', () => {
    const pattern = (...parts: Array<string | typeof HOLE>) => apiPathPattern(parts)!;
    const table: Route[] = ['GET /api/generic/support/getOrgs', 'GET /api/generic/support/:hash', 'POST /api/so/wave', 'POST /api/so/wave/save', 'GET /api/docs/static/*'].map((key) => {
      const [method, url] = key.split(' ');
      return { method, url, key };
    });
    const keys = (p: ReturnType<typeof pattern>) => reachedBy(p, table).map((r) => r.key);
    expect(keys(pattern('/generic/support/getOrgs'))).toEqual(['GET /api/generic/support/getOrgs']);
    expect(keys(pattern('/api/generic/support/', HOLE))).toEqual(['GET /api/generic/support/:hash']);
    expect(keys(pattern('/generic/support/T00012'))).toEqual(['GET /api/generic/support/:hash']);
    // A wrapper's `${BASE}${path}` reaches nothing: a hole never stands for a fixed segment or a whole path.
    expect(keys(pattern('/generic/support', HOLE))).toEqual([]);
    expect(keys(pattern('/so/', HOLE))).toEqual([]);
    expect(apiPathPattern(['/api', HOLE])).toBeUndefined();
    expect(apiPathPattern([HOLE, '/wave'])).toBeUndefined();
    expect(keys(pattern('/so/wave?x=1'))).toEqual(['POST /api/so/wave']);
    expect(keys(pattern('/so/wave/save'))).toEqual(['POST /api/so/wave/save']);
    expect(keys(pattern('/so/wave/save/more'))).toEqual([]);
    expect(keys(pattern('/docs/static/swagger-ui.css'))).toEqual(['GET /api/docs/static/*']);
    expect(apiPathPattern(['#/page/mapTo'])).toBeUndefined();
  });

  it('reads the paths a client builds: imported constants, concatenations, both branches, parameters kept apart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'client-paths-'));
    try {
      mkdirSync(join(dir, 'screens'));
      writeFileSync(join(dir, 'screens/paths.ts'), "export const SO = '/so';\nexport const WAVE = 'wave';\n");
      writeFileSync(
        join(dir, 'screens/Screen.tsx'),
        [
          "import { SO, WAVE as W } from './paths.js';",
          'declare const api: (path: string) => void;',
          'declare const flag: boolean;',
          "const part = 'split';",
          'api(`${SO}/balance`);',
          "api('/so/' + part);",
          "api(flag ? '/so/sku' : `${SO}/import`);",
          'api(`/so/${W}/save`);',
          // A parameter hides the file's constant of the same name: its value is not fixed.
          'export function lines(part: string) { api(`/rec/${part}`); }',
          'export function ticket(id: number) { api(`/api/generic/support/${id}?full=1`); }',
          'export function wrapper(path: string) { api(`/api${path}`); }',
        ].join('\n'),
      );
      const found = clientApiPaths(dir, ['screens'], []).map((p) => patternText(p.parts));
      expect(new Set(found)).toEqual(new Set(['/so', '/so/balance', '/so/split', '/so/sku', '/so/import', '/so/wave/save', '/rec/${…}', '/generic/support/${…}']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds every route reached by a screen, or reviewed as API-only, or listed as not yet on a screen', () => {
    const unreached = routes.filter((r) => !used.has(r.key) && !(r.key in API_ONLY) && !(r.key in NOT_YET_ON_A_SCREEN)).map((r) => r.key);
    expect(unreached, 'routes no screen, job or page definition reaches: call them from a screen, or list them with a reason').toEqual([]);
  });

  it('keeps both lists exact: no listed route is reached by a screen, gone from the server, or on both lists', () => {
    const existing = new Set(routes.map((r) => r.key));
    const problems: string[] = [];
    for (const [name, list] of [
      ['API_ONLY', Object.keys(API_ONLY)],
      ['NOT_YET_ON_A_SCREEN', Object.keys(NOT_YET_ON_A_SCREEN)],
    ] as const) {
      for (const key of list) {
        if (!existing.has(key)) problems.push(`${name}: ${key} is no route of the server any more`);
        const files = used.get(key);
        if (files) problems.push(`${name}: ${key} is reached by ${[...files].join(', ')}; take it off the list`);
      }
    }
    for (const key of Object.keys(API_ONLY)) if (key in NOT_YET_ON_A_SCREEN) problems.push(`${key} is on both lists`);
    expect(problems).toEqual([]);
  });

  it('gives every API-only route a reason, and the page or button it names still exists', () => {
    const actions = boundActions();
    const problems: string[] = [];
    for (const [key, entry] of Object.entries(API_ONLY)) {
      if (entry.reason.trim().length < 10) problems.push(`${key}: no reason`);
      for (const action of entry.sameAsButton ?? []) if (!actions.has(action)) problems.push(`${key}: no shipped page has a button running ${action}`);
      if (entry.sameAsPage) {
        const [module, fn] = entry.sameAsPage.split('/');
        if (!DEFINITION_SOURCES.some((root) => existsSync(join(ROOT, root, module, `${fn}.page.json`)))) problems.push(`${key}: no shipped page ${entry.sameAsPage}`);
      }
    }
    for (const [key, screen] of Object.entries(NOT_YET_ON_A_SCREEN)) if (!screen.trim()) problems.push(`${key}: names no screen`);
    expect(problems).toEqual([]);
  });

  it('prints the summary and the routes not yet on a screen', () => {
    const reached = routes.filter((r) => used.has(r.key)).length;
    const apiOnly = routes.filter((r) => r.key in API_ONLY).length;
    const notYet = routes.filter((r) => r.key in NOT_YET_ON_A_SCREEN);
    // Paths built with a value the source does not fix, under a first segment the API has (`/page/${…}` is the shell's own route).
    const areas = new Set(routes.map((r) => r.url.split('/')[2]));
    const unresolved = new Set(
      paths
        .filter((p) => p.parts.includes(HOLE) && areas.has(patternText(p.parts).split('/')[1]) && !reachedBy(p.parts, routes).length)
        .map((p) => `${patternText(p.parts)} (${p.file})`),
    );
    console.log(
      [
        `routes: ${routes.length} in total, ${reached} reached by screens, ${apiOnly} API-only, ${notYet.length} not yet on a screen`,
        `not yet on a screen (this list should shrink):`,
        ...notYet.map((r) => `  ${r.key}: ${NOT_YET_ON_A_SCREEN[r.key]}`),
        ...(unresolved.size ? ['client paths with a value the source does not fix that reach no route:', ...[...unresolved].sort().map((p) => `  ${p}`)] : []),
      ].join('\n'),
    );
    expect(reached + apiOnly + notYet.length).toBe(routes.length);
  });
});
