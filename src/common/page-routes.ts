/**
 * The /page shell's child routes and the menu that opens them. Each area declares its own routes
 * in its manifest (`pages` of src/server/modules/<area>/<area>.module.ts); the kernel declares its
 * own here (home, the designer, the page map) and merges everything, in module-list order, into
 * one route table (`mergePageRoutes`). The server keeps the `sys_module` menu rows equal to that
 * table at every start (src/server/install/sync-menu.ts) and hands it to the browser
 * (`GET /api/home/routes`), so a route is added, moved or retitled in its area's manifest and
 * nowhere else. Pure data and logic: imports nothing.
 */

/** What a route opens: a shipped page definition of this module (its function code is the route), a hand-written screen, or "not yet available". */
export type Opens = 'screen' | 'pending' | { definitionOf: string };

/** One /page route as an area (or the kernel) declares it. */
export interface PageDeclaration {
  /** The child path under /page without its slash, e.g. `sku`; also the menu entry's code and the tab's key. */
  route: string;
  /** The menu group it is listed under (`MENU_GROUP_ORDER`, or a new group of the area's own). */
  group: string;
  opens: Opens;
  /** Locale key of the menu entry, the tab and the page title; `menu.<route>` when left out. */
  titleKey?: string;
  /**
   * Lists the entry right after this route of the same group (declared by the kernel or an
   * earlier area) instead of after the group's earlier entries.
   */
  after?: string;
  /**
   * A hand-written screen's right (`<module>.<sub-module>`, e.g. `packing.pack`): the menu entry is
   * seen with its `:view`, the screen's calls check it, and the role screen offers its module. A
   * screen without one is seen with the right of the entry's own code.
   */
  right?: string;
}

export type DeclaredTarget = { kind: 'definition'; moduleCode: string; functionCode: string } | { kind: 'screen' } | { kind: 'pending' };

export interface MenuGroupDeclaration {
  code: string;
  /** Locale key of the group's menu title. */
  titleKey: string;
  /** Menu order: groups count in hundreds, their entries in ones after them. */
  sequence: number;
}

export interface PageRouteDeclaration {
  /** The child path under /page without its slash, e.g. `sku`; also the menu entry's code and the tab's key. */
  route: string;
  group: string;
  /** Locale key of the menu entry, the tab and the page title. */
  titleKey: string;
  target: DeclaredTarget;
  /**
   * The right whose `:view` shows the menu entry; null means the entry's own code (`asn:view`). A
   * route built from a shipped definition needs the engine's right of that page,
   * `<moduleCode>.<functionCode>`, so that a role granting the whole module (`masterdata`) or only
   * the sub-module decides both the menu and the page's calls.
   */
  rightName: string | null;
  sequence: number;
  /** The area that declared it (`kernel` for the kernel's own). */
  area: string;
}

/** The merged table: menu groups in menu order, routes in menu order. */
export interface RouteTable {
  groups: MenuGroupDeclaration[];
  routes: PageRouteDeclaration[];
}

/** Menu groups in menu order; a group an area names that is not here is added after them, in the order it first appears. */
export const MENU_GROUP_ORDER: readonly string[] = ['homeGroup', 'genericGroup', 'masterData', 'inbound', 'outbound', 'inventory', 'billingJobs', 'reports', 'setup', 'transport'];

/**
 * The kernel's own routes: the home page, the generic page and the page map. A route no area brings
 * yet would be held here with `opens: 'pending'` (a "not yet available" screen); today every menu
 * route is brought by an area.
 */
export const KERNEL_PAGES: readonly PageDeclaration[] = [
  { route: 'home', group: 'homeGroup', opens: 'screen' },
  { route: 'generic', group: 'genericGroup', opens: 'screen' },
  { route: 'mapTo', group: 'genericGroup', opens: 'screen' },
];

/** The route the shell opens when no tab is open. */
export const HOME_ROUTE = 'home';

const ROUTE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const SCREEN_RIGHT = /^[A-Za-z][A-Za-z0-9_]{0,39}\.[A-Za-z][A-Za-z0-9_]{0,39}$/;

function targetOf(route: string, opens: Opens): DeclaredTarget {
  if (opens === 'screen' || opens === 'pending') return { kind: opens };
  return { kind: 'definition', moduleCode: opens.definitionOf, functionCode: route };
}

/**
 * Merges the kernel's routes and the areas' (in the order given: the module list's) into the one
 * route table. Within a group, entries keep that order, except that an entry with `after` is
 * listed right after the route it names. Refuses a route declared twice, a route name the shell
 * cannot open, and an `after` naming no earlier route of the group.
 */
export function mergePageRoutes(sources: readonly { area: string; pages: readonly PageDeclaration[] }[]): RouteTable {
  const byGroup = new Map<string, { declaration: PageDeclaration; area: string }[]>();
  const seen = new Map<string, string>();
  for (const { area, pages } of sources) {
    for (const declaration of pages) {
      const { route, group } = declaration;
      if (!ROUTE_NAME.test(route)) throw new Error(`page route "${route}" of area ${area} is not a route name`);
      if (declaration.right !== undefined && (declaration.opens !== 'screen' || !SCREEN_RIGHT.test(declaration.right))) {
        throw new Error(`page route "${route}" of area ${area}: only a hand-written screen names its right, as <module>.<sub-module>`);
      }
      if (seen.has(route)) throw new Error(`page route "${route}" is declared by ${seen.get(route)} and by ${area}`);
      seen.set(route, area);
      const entries = byGroup.get(group) ?? [];
      byGroup.set(group, entries);
      const entry = { declaration, area };
      if (declaration.after === undefined) {
        entries.push(entry);
        continue;
      }
      // After the named route and the entries already placed after it.
      let at = entries.findIndex((e) => e.declaration.route === declaration.after);
      if (at < 0) throw new Error(`page route "${route}" of area ${area} is to follow "${declaration.after}", which is no earlier route of group ${group}`);
      while (at + 1 < entries.length && entries[at + 1].declaration.after === declaration.after) at += 1;
      entries.splice(at + 1, 0, entry);
    }
  }
  const order = [...MENU_GROUP_ORDER, ...[...byGroup.keys()].filter((group) => !MENU_GROUP_ORDER.includes(group))];
  const groups: MenuGroupDeclaration[] = [];
  const routes: PageRouteDeclaration[] = [];
  order.forEach((code, g) => {
    const entries = byGroup.get(code);
    if (!entries?.length) return;
    const sequence = (g + 1) * 100;
    groups.push({ code, titleKey: `menu.${code}`, sequence });
    entries.forEach(({ declaration, area }, r) => {
      const target = targetOf(declaration.route, declaration.opens);
      routes.push({
        route: declaration.route,
        group: code,
        titleKey: declaration.titleKey ?? `menu.${declaration.route}`,
        target,
        rightName: target.kind === 'definition' ? `${target.moduleCode}.${target.functionCode}` : (declaration.right ?? null),
        sequence: sequence + r + 1,
        area,
      });
    });
  });
  return { groups, routes };
}
