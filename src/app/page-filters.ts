/**
 * Filters handed from a hyperlink, a home count or a success message to the page it opens. The
 * page may already be open in a kept-alive tab, so the page subscribes here rather than reading the
 * filter once when it mounts. Kept apart from the engine's code so that any screen (the sign-in
 * bundle's too) may open a filtered list without loading the engine.
 */
import type { ScalarValue } from '../../engine/schema/index';
import { findPageRoute, pageRoutes } from './routes';

type Filter = Record<string, ScalarValue>;

const pendingFilters = new Map<string, { filter: Filter; serial: number }>();
const filterListeners = new Set<() => void>();
let filterSerial = 0;

export function pageKey(moduleCode: string, functionCode: string): string {
  return `${moduleCode}/${functionCode}`;
}

export function subscribeFilters(listener: () => void): () => void {
  filterListeners.add(listener);
  return () => filterListeners.delete(listener);
}

/** The filter last handed to a page, with a serial that changes with each hand-off. */
export function pendingFilterOf(key: string): { filter: Filter; serial: number } | undefined {
  return pendingFilters.get(key);
}

/** The /page child route that renders this definition (the route table of src/app/routes.ts has them all). */
export function routeOfPage(moduleCode: string, functionCode: string): string | undefined {
  return pageRoutes().find((route) => route.target.kind === 'definition' && route.target.moduleCode === moduleCode && route.target.functionCode === functionCode)
    ?.route;
}

/** Opens a page definition filtered by `filter`. */
export function openPage(moduleCode: string, functionCode: string, filter: Filter): void {
  const route = routeOfPage(moduleCode, functionCode);
  pendingFilters.set(pageKey(moduleCode, functionCode), { filter, serial: ++filterSerial });
  for (const listener of filterListeners) listener();
  window.location.hash = route
    ? `#/page/${route}`
    : `#/page/mapTo?${new URLSearchParams({ moduleCode, functionCode }).toString()}`;
}

/**
 * Opens a page of the route table from a hand-written screen: a page definition filtered by
 * `filter` (its list then shows only those rows), any other route as it is.
 */
export function openRoute(route: string, filter?: Filter): void {
  const target = findPageRoute(route)?.target;
  if (target?.kind === 'definition' && filter) openPage(target.moduleCode, target.functionCode, filter);
  else window.location.hash = `#/page/${route}`;
}
