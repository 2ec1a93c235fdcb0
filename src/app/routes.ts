import { useSyncExternalStore, type ComponentType } from 'react';
import type { DeclaredTarget, MenuGroupDeclaration } from '../common/page-routes';
import { api } from './api/client';

export { HOME_ROUTE } from '../common/page-routes';

/**
 * The /page shell's child routes. The server merges the kernel's routes and every area's (their
 * manifests' `pages`) into one route table, the one its menu rows follow too, and answers it at
 * `GET /api/home/routes`; the shell loads it before it shows anything. Each route opens a page
 * definition rendered by the engine, a hand-written screen, or the "not yet available" screen
 * naming it. The code of the hand-written screens is found here by folder: each
 * `src/screens/<area>/screens.ts` exports `screens`, a map from route to lazy loader, so a new
 * area's screen is registered in its own folder and nowhere else.
 */
export type ScreenLoader = () => Promise<{ default: ComponentType }>;

export type RouteTarget =
  | { kind: 'definition'; moduleCode: string; functionCode: string }
  | { kind: 'screen'; load: ScreenLoader }
  | { kind: 'pending' };

export interface PageRoute {
  /** The child path under /page without its slash, e.g. `sku`; also the tab's key. */
  route: string;
  group: string;
  /** Locale key of the tab and page title (the menu entry's). */
  titleKey: string;
  target: RouteTarget;
}

/** What `GET /api/home/routes` answers. */
export interface RouteTableAnswer {
  groups: MenuGroupDeclaration[];
  routes: { route: string; group: string; titleKey: string; target: DeclaredTarget }[];
}

/** The kernel's own screens: the designer and the page map load nothing before they open. */
const KERNEL_SCREENS: Record<string, ScreenLoader> = {
  generic: () => import('./shell/designer-page'),
  // Any page definition by its codes: /page/mapTo?moduleCode=&functionCode= (src/app/engine-services.tsx).
  mapTo: () => import('./engine-services'),
};

const SCREEN_FILES = import.meta.glob<Record<string, ScreenLoader>>('../screens/*/screens.ts', { import: 'screens', eager: true });

/** Every hand-written screen's loader by route: the kernel's and those of each `src/screens/<area>/screens.ts`. */
export const SCREENS: Readonly<Record<string, ScreenLoader>> = Object.entries(SCREEN_FILES).reduce<Record<string, ScreenLoader>>(
  (all, [file, screens]) => {
    for (const [route, load] of Object.entries(screens)) {
      if (Object.hasOwn(all, route)) throw new Error(`the screen of route ${route} is registered twice (${file})`);
      all[route] = load;
    }
    return all;
  },
  { ...KERNEL_SCREENS },
);

/** A declared screen whose code no screens.ts registers: the shell shows "module not found". */
const missingScreen: ScreenLoader = () => Promise.resolve({} as { default: ComponentType });

function targetOf(route: string, target: DeclaredTarget): RouteTarget {
  return target.kind === 'screen' ? { kind: 'screen', load: SCREENS[route] ?? missingScreen } : target;
}

let table: readonly PageRoute[] | null = null;
let byRoute = new Map<string, PageRoute>();
const listeners = new Set<() => void>();

/** Takes the server's route table as the shell's. */
export function setPageRoutes(answer: RouteTableAnswer): readonly PageRoute[] {
  table = answer.routes.map(({ route, group, titleKey, target }) => ({ route, group, titleKey, target: targetOf(route, target) }));
  byRoute = new Map(table.map((r) => [r.route, r]));
  for (const listener of listeners) listener();
  return table;
}

let loading: Promise<readonly PageRoute[]> | null = null;

/** Loads the route table from the server once per page load (again after a failed attempt). */
export function loadPageRoutes(): Promise<readonly PageRoute[]> {
  if (table) return Promise.resolve(table);
  loading ??= api<RouteTableAnswer>('/home/routes', { quiet: true }).then(setPageRoutes, (error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** The route table once loaded (null before), re-rendering when it arrives. */
export function usePageRoutes(): readonly PageRoute[] | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => table,
  );
}

/** Every route of the loaded table, in menu order (empty before it is loaded). */
export function pageRoutes(): readonly PageRoute[] {
  return table ?? [];
}

/** The /page child route named `route` (with or without its leading slash), if the table has it. */
export function findPageRoute(route: string): PageRoute | undefined {
  return byRoute.get(route.replace(/^\/+/, ''));
}
