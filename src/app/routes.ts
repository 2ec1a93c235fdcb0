import type { ComponentType } from 'react';

/**
 * THE table of the /page shell's child routes (spec section 2). Each route opens a page
 * definition rendered by the engine, a hand-written screen, or, until the issue that builds it
 * lands, the "not yet available" screen naming it. Nothing else registers /page routes.
 */
export type RouteTarget =
  | { kind: 'definition'; moduleCode: string; functionCode: string }
  | { kind: 'screen'; load: () => Promise<{ default: ComponentType }> }
  | { kind: 'pending' };

export type RouteGroup = 'home' | 'generic' | 'operations' | 'setup' | 'transport';

export interface PageRoute {
  /** The child path under /page without its slash, e.g. `sku`; also the tab's key. */
  route: string;
  group: RouteGroup;
  /** Locale key of the tab and page title. */
  titleKey: string;
  target: RouteTarget;
}

const pending: RouteTarget = { kind: 'pending' };

function definition(moduleCode: string) {
  return (route: string): RouteTarget => ({ kind: 'definition', moduleCode, functionCode: route });
}

const masterdata = definition('masterdata');
const setup = definition('setup');
const transport = definition('transport');

const TABLE: [RouteGroup, string, (route: string) => RouteTarget][] = [
  ['home', 'home', () => ({ kind: 'screen', load: () => import('../screens/home/HomeScreen') })],
  // The designer (issue 6) is a lazy chunk of its own: nothing of it loads before /generic opens.
  ['generic', 'generic', () => ({ kind: 'screen', load: () => import('./shell/designer-page') })],
  // Any page definition by its codes: /page/mapTo?moduleCode=&functionCode= (src/app/engine-services.tsx).
  ['generic', 'mapTo', () => ({ kind: 'screen', load: () => import('./engine-services') })],
  ...(
    [
      ['blankHome', () => pending],
      ['shipmentOrder', () => pending],
      ['proj_ge', () => pending],
      ['sku', masterdata],
      ['whs', masterdata],
      ['loa', masterdata],
      ['ogr', masterdata],
      ['project', masterdata],
      ['partner', masterdata],
      ['sysparam', masterdata],
      ['mult', masterdata],
      ['codeMaster', masterdata],
      ['menu', masterdata],
      ['sysModule', masterdata],
      ['idGener', masterdata],
      ['invCode', masterdata],
      ['rfUser', masterdata],
      ['po', () => pending],
      ['asnStatic', () => pending],
      ['support', () => pending],
      ['billingMaintance', () => pending],
      ['job', () => pending],
      ['timer', () => pending],
      ['asn', () => pending],
      ['inbGr', () => pending],
      ['receive', () => pending],
      ['putaway', () => pending],
      ['pso', () => pending],
      ['so', () => pending],
      ['wave', () => pending],
      ['pick', () => pending],
      ['ediLogSummary', () => pending],
      ['pack', () => pending],
      ['cmg', () => pending],
      ['balance', () => pending],
      ['transaction', () => pending],
      ['transactionNew', () => pending],
      ['enquiryLot', () => pending],
      ['enquiryUser', () => pending],
      ['enquirySku', () => pending],
      ['enquiryLoc', () => pending],
      ['lnvnMove', () => pending],
      ['invAdjust', () => pending],
      ['invTransfer', () => pending],
      ['invHold', () => pending],
      ['skuHeader', () => pending],
      ['userReport', () => pending],
      ['userGeneric', () => pending],
      ['importConfig', () => pending],
      ['noneEditable', () => pending],
      ['stdBalanceReport', () => pending],
      ['deliveryOrderSum', () => pending],
      ['consignment', () => pending],
      ['pallet', () => pending],
      ['shipment', () => pending],
      ['cycleCount', () => pending],
      ['cycleCountMaster', () => pending],
      ['scanToPrintWindow', () => pending],
    ] as [string, (route: string) => RouteTarget][]
  ).map(([route, target]): [RouteGroup, string, (route: string) => RouteTarget] => ['operations', route, target]),
  ['setup', 'user', setup],
  ['setup', 'role', setup],
  ['setup', 'all_rule', setup],
  ['transport', 'vehicle', transport],
  ['transport', 'driver', transport],
  ['transport', 'tmsOrder', () => pending],
  ['transport', 'doOrders', () => pending],
];

export const PAGE_ROUTES: readonly PageRoute[] = TABLE.map(([group, route, target]) => ({
  route,
  group,
  titleKey: `ui.shell.route.${route}`,
  target: target(route),
}));

const BY_ROUTE = new Map(PAGE_ROUTES.map((r) => [r.route, r]));

/** The /page child route named `route` (with or without its leading slash), if the table has it. */
export function findPageRoute(route: string): PageRoute | undefined {
  return BY_ROUTE.get(route.replace(/^\/+/, ''));
}

/** The route the shell opens when no tab is open. */
export const HOME_ROUTE = 'home';
