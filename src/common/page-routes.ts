/**
 * THE declaration of the /page shell's child routes and of the menu that opens them (spec
 * section 2). The browser builds its route table from it (src/app/routes.ts) and the server keeps
 * the `sys_module` menu rows equal to it at every start (src/server/db/seed/sync-menu.ts), so a
 * route is added, moved or retitled here and nowhere else. Pure data: imports nothing.
 */

/** What a route opens: a shipped page definition of this module (its function code is the route), a hand-written screen, or "not yet available". */
type Opens = 'screen' | 'pending' | { definitionOf: string };

const screen = 'screen';
const pending = 'pending';
const masterdata = { definitionOf: 'masterdata' } as const;
const setup = { definitionOf: 'setup' } as const;
const transport = { definitionOf: 'transport' } as const;
const inventory = { definitionOf: 'inventory' } as const;
const jobs = { definitionOf: 'job' } as const;
const inbound = { definitionOf: 'inbound' } as const;
const outbound = { definitionOf: 'outbound' } as const;

/** Menu groups in menu order, each with its routes in menu order. */
const MENU = {
  homeGroup: { home: screen, blankHome: pending },
  genericGroup: { generic: screen, mapTo: screen, mult: masterdata, menu: masterdata, sysModule: masterdata, noneEditable: inventory },
  masterData: {
    sku: masterdata,
    skuHeader: inventory,
    whs: masterdata,
    loa: masterdata,
    ogr: masterdata,
    project: masterdata,
    proj_ge: outbound,
    partner: masterdata,
    sysparam: masterdata,
    codeMaster: masterdata,
    idGener: masterdata,
    invCode: masterdata,
    rfUser: masterdata,
    importConfig: masterdata,
    support: screen,
  },
  inbound: { po: inbound, asn: inbound, asnStatic: inbound, inbGr: inbound, receive: screen, putaway: screen },
  outbound: {
    so: outbound,
    pso: outbound,
    shipmentOrder: outbound,
    wave: outbound,
    pick: screen,
    pack: pending,
    cmg: pending,
    ediLogSummary: pending,
    consignment: pending,
    pallet: pending,
    shipment: pending,
    deliveryOrderSum: pending,
    scanToPrintWindow: pending,
  },
  inventory: {
    balance: inventory,
    stdBalanceReport: screen,
    transaction: screen,
    transactionNew: inventory,
    enquiryLot: inventory,
    enquiryUser: inventory,
    enquirySku: inventory,
    enquiryLoc: inventory,
    lnvnMove: inventory,
    invAdjust: inventory,
    invTransfer: inventory,
    invHold: inventory,
    cycleCount: inventory,
    cycleCountMaster: inventory,
  },
  billingJobs: { billingMaintance: pending, job: jobs, timer: jobs },
  reports: { userReport: pending, userGeneric: pending },
  setup: { user: setup, role: setup, all_rule: setup },
  transport: { vehicle: transport, driver: transport, tmsOrder: pending, doOrders: pending },
} as const satisfies Record<string, Record<string, Opens>>;

type Menu = typeof MENU;

export type MenuGroupCode = keyof Menu;

/** The routes that open a hand-written screen: the browser must give each one its lazy loader. */
export type ScreenRoute = { [G in MenuGroupCode]: { [R in keyof Menu[G]]: Menu[G][R] extends 'screen' ? R : never }[keyof Menu[G]] }[MenuGroupCode];

export type DeclaredTarget = { kind: 'definition'; moduleCode: string; functionCode: string } | { kind: 'screen' } | { kind: 'pending' };

export interface MenuGroupDeclaration {
  code: MenuGroupCode;
  /** Locale key of the group's menu title. */
  titleKey: string;
  /** Menu order: groups count in hundreds, their entries in ones after them. */
  sequence: number;
}

export interface PageRouteDeclaration {
  /** The child path under /page without its slash, e.g. `sku`; also the menu entry's code and the tab's key. */
  route: string;
  group: MenuGroupCode;
  /** Locale key of the menu entry, the tab and the page title. */
  titleKey: string;
  target: DeclaredTarget;
  /**
   * The right whose `:view` shows the menu entry; null means the entry's own code (`asn:view`). A
   * route built from a shipped definition needs the engine's right of that page,
   * `<moduleCode>.<functionCode>`, so that a role granting the whole module (`masterdata`) or only
   * the sub-module decides both the menu and the page's calls (spec section 6).
   */
  rightName: string | null;
  sequence: number;
}

function targetOf(route: string, opens: Opens): DeclaredTarget {
  if (opens === 'screen' || opens === 'pending') return { kind: opens };
  return { kind: 'definition', moduleCode: opens.definitionOf, functionCode: route };
}

export const MENU_GROUPS: readonly MenuGroupDeclaration[] = (Object.keys(MENU) as MenuGroupCode[]).map((code, g) => ({
  code,
  titleKey: `menu.${code}`,
  sequence: (g + 1) * 100,
}));

export const DECLARED_ROUTES: readonly PageRouteDeclaration[] = MENU_GROUPS.flatMap(({ code: group, sequence }) =>
  Object.entries(MENU[group] as Record<string, Opens>).map(([route, opens], r) => {
    const target = targetOf(route, opens);
    return {
      route,
      group,
      titleKey: `menu.${route}`,
      target,
      rightName: target.kind === 'definition' ? `${target.moduleCode}.${target.functionCode}` : null,
      sequence: sequence + r + 1,
    };
  }),
);

const BY_ROUTE = new Map(DECLARED_ROUTES.map((r) => [r.route, r]));

/** The declared route named `route` (with or without its leading slash), if there is one. */
export function findDeclaredRoute(route: string): PageRouteDeclaration | undefined {
  return BY_ROUTE.get(route.replace(/^\/+/, ''));
}

/** The route the shell opens when no tab is open. */
export const HOME_ROUTE: ScreenRoute = 'home';
