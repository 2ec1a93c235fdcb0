import type { ComponentType } from 'react';
import { DECLARED_ROUTES, type MenuGroupCode, type PageRouteDeclaration, type ScreenRoute } from '../common/page-routes';

export { HOME_ROUTE } from '../common/page-routes';

/**
 * The /page shell's child routes: the declaration of src/common/page-routes.ts (which the menu
 * rows follow too) with the code of each hand-written screen. Each route opens a page definition
 * rendered by the engine, a hand-written screen, or, until the issue that builds it lands, the
 * "not yet available" screen naming it. Nothing else registers /page routes.
 */
export type RouteTarget =
  | { kind: 'definition'; moduleCode: string; functionCode: string }
  | { kind: 'screen'; load: () => Promise<{ default: ComponentType }> }
  | { kind: 'pending' };

export interface PageRoute {
  /** The child path under /page without its slash, e.g. `sku`; also the tab's key. */
  route: string;
  group: MenuGroupCode;
  /** Locale key of the tab and page title (the menu entry's). */
  titleKey: string;
  target: RouteTarget;
}

/** The code of each hand-written screen, a lazy chunk of its own. */
const SCREENS: Record<ScreenRoute, () => Promise<{ default: ComponentType }>> = {
  home: () => import('../screens/home/HomeScreen'),
  // The designer (issue 6) loads nothing before /generic opens.
  generic: () => import('./shell/designer-page'),
  // Any page definition by its codes: /page/mapTo?moduleCode=&functionCode= (src/app/engine-services.tsx).
  mapTo: () => import('./engine-services'),
  stdBalanceReport: () => import('../screens/inventory/StdBalanceReportScreen'),
  transaction: () => import('../screens/inventory/TransactionLogScreen'),
  // Batch receive, scan-in and the handheld receiving flow; the handheld's putaway, move and count (hand-written for scanner speed).
  receive: () => import('../screens/inbound/ReceiveScreen'),
  putaway: () => import('../screens/inbound/HandheldScreen'),
  // Pick tasks and the pick list; handheld picking.
  pick: () => import('../screens/outbound/PickScreen'),
  // Support tickets and the create-ticket dialog.
  support: () => import('../screens/support/SupportScreen'),
};

function targetOf({ route, target }: PageRouteDeclaration): RouteTarget {
  return target.kind === 'screen' ? { kind: 'screen', load: SCREENS[route as ScreenRoute] } : target;
}

export const PAGE_ROUTES: readonly PageRoute[] = DECLARED_ROUTES.map((declared) => ({
  route: declared.route,
  group: declared.group,
  titleKey: declared.titleKey,
  target: targetOf(declared),
}));

const BY_ROUTE = new Map(PAGE_ROUTES.map((r) => [r.route, r]));

/** The /page child route named `route` (with or without its leading slash), if the table has it. */
export function findPageRoute(route: string): PageRoute | undefined {
  return BY_ROUTE.get(route.replace(/^\/+/, ''));
}
