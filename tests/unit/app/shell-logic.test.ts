import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOME_ROUTE, SCREENS, findPageRoute, pageRoutes, setPageRoutes } from '../../../src/app/routes';
import { ROUTE_TABLE } from '../../helpers/route-table';
import { startRedirect } from '../../../src/app/guard';
import { LoadingCounter } from '../../../src/app/shell/loading-counter';
import { truncateText } from '../../../engine/client/host/truncateText';
import { LANGUAGES } from '../../../src/common/languages';
import { lookupLocaleText } from '../../../src/common/locale-tree';
import { loadLocale } from '../../helpers/locales';

const { groups: MENU_GROUPS, routes: DECLARED_ROUTES } = ROUTE_TABLE;
setPageRoutes(ROUTE_TABLE);
const PAGE_ROUTES = pageRoutes();

describe('route table', () => {
  it('maps master data, setup and transport definitions to their module', () => {
    const masterdata = 'sku whs loa ogr project partner sysparam mult codeMaster menu sysModule idGener invCode rfUser'.split(' ');
    for (const route of masterdata) expect(findPageRoute(route)?.target, route).toEqual({ kind: 'definition', moduleCode: 'masterdata', functionCode: route });
    for (const route of ['user', 'role', 'all_rule']) expect(findPageRoute(route)?.target).toEqual({ kind: 'definition', moduleCode: 'identity', functionCode: route });
    for (const route of ['vehicle', 'driver']) expect(findPageRoute(`/${route}`)?.target).toEqual({ kind: 'definition', moduleCode: 'transport', functionCode: route });
  });

  it('is exactly the table the server merges, every hand-written screen with its code', () => {
    expect(PAGE_ROUTES.map((r) => r.route)).toEqual(DECLARED_ROUTES.map((r) => r.route));
    for (const declared of DECLARED_ROUTES) {
      const page = findPageRoute(declared.route)!;
      expect({ group: page.group, titleKey: page.titleKey }, declared.route).toEqual({ group: declared.group, titleKey: declared.titleKey });
      if (declared.target.kind === 'screen') expect(page.target.kind === 'screen' && typeof page.target.load, declared.route).toBe('function');
      else expect(page.target, declared.route).toEqual(declared.target);
    }
    expect(findPageRoute(HOME_ROUTE)?.target.kind).toBe('screen');
    // No screens.ts registers a screen no route declares.
    const screenRoutes = DECLARED_ROUTES.filter((r) => r.target.kind === 'screen').map((r) => r.route);
    expect(Object.keys(SCREENS).sort()).toEqual(screenRoutes.sort());
  });

  it('keeps the menu order of the areas: an entry with `after` follows the route it names', () => {
    const masterData = DECLARED_ROUTES.filter((r) => r.group === 'masterData').map((r) => r.route);
    expect(masterData.slice(0, 8)).toEqual(['sku', 'skuHeader', 'whs', 'loa', 'ogr', 'project', 'proj_ge', 'partner']);
    // The kernel's groups in their order, then the groups areas bring of their own (resource planning,
    // and those of an area added later).
    const kernelGroups = ['homeGroup', 'genericGroup', 'masterData', 'inbound', 'outbound', 'inventory', 'billingJobs', 'reports', 'setup', 'transport'];
    expect(MENU_GROUPS.map((g) => g.code).slice(0, kernelGroups.length)).toEqual(kernelGroups);
    expect(MENU_GROUPS.map((g) => g.code).slice(kernelGroups.length)).toContain('resPlanning');
  });

  it('gives every route and menu group a title in every language; tab and menu entry share it', () => {
    for (const language of LANGUAGES) {
      const locale = loadLocale(language);
      for (const key of [...MENU_GROUPS, ...DECLARED_ROUTES].map((entry) => entry.titleKey)) expect(lookupLocaleText(locale, key), `${language} ${key}`).toEqual(expect.any(String));
    }
  });
});

describe(startRedirect.name, () => {
  it.each([
    ['/login', true, '/page'],
    ['/', true, '/page'],
    ['/notfound', true, '/page'],
    ['/moose/home', true, undefined],
    ['/moose/scan', true, undefined],
    ['/page/sku', true, undefined],
    ['/page', true, undefined],
    ['/previewImgFile', true, undefined],
    ['/previewImgFile?file=a.png', true, undefined],
    ['/login', false, undefined],
    ['/page/sku', false, undefined],
  ] as const)('%s with token %s goes to %s', (hashPath, hasToken, expected) => {
    expect(startRedirect(hashPath, hasToken)).toBe(expected);
  });
});

describe(LoadingCounter.name, () => {
  afterEach(() => vi.useRealTimers());

  it('never shows for calls faster than the delay', () => {
    vi.useFakeTimers();
    const changes: boolean[] = [];
    const counter = new LoadingCounter((v) => changes.push(v), 200);
    counter.start();
    vi.advanceTimersByTime(150);
    counter.end();
    vi.advanceTimersByTime(1000);
    expect(changes).toEqual([]);
  });

  it('shows after the delay and hides only when the last parallel call ends', () => {
    vi.useFakeTimers();
    const changes: boolean[] = [];
    const counter = new LoadingCounter((v) => changes.push(v), 200);
    counter.start();
    counter.start();
    vi.advanceTimersByTime(200);
    expect(changes).toEqual([true]);
    counter.end();
    expect(changes).toEqual([true]);
    counter.end();
    expect(changes).toEqual([true, false]);
    counter.end();
    expect(counter.count).toBe(0);
  });
});

describe(truncateText.name, () => {
  it.each([
    ['exactly12chr', 'exactly12chr'],
    ['thirteen char', 'thirteen cha…'],
    ['仓库管理系统仓库管理系统仓库', '仓库管理系统仓库管理系统…'],
    ['', ''],
  ])('%j -> %j', (text, expected) => {
    expect(truncateText(text)).toBe(expected);
  });

  it('treats null as empty text and counts characters, not UTF-16 units', () => {
    expect(truncateText(null)).toBe('');
    expect(truncateText('😀'.repeat(13))).toBe(`${'😀'.repeat(12)}…`);
  });
});
