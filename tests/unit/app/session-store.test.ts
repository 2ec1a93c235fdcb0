// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import {
  closeAllTabs,
  closeOtherTabs,
  closeTab,
  getSessionState,
  openTab,
  resetSession,
  updateSession,
} from '../../../src/app/store/session-store';

const tab = (route: string) => ({ route, titleKey: `ui.shell.route.${route}` });

describe('session store', () => {
  beforeEach(() => {
    resetSession();
    sessionStorage.clear();
  });

  it('starts with the default language code 2 and keep-alive on', () => {
    expect(getSessionState().languageCode).toBe(2);
    expect(getSessionState().keepAlive).toBe(true);
    expect(getSessionState().validationFlag).toBe(0);
  });

  it('opens a tab once and activates it when opened again', () => {
    openTab(tab('home'));
    openTab(tab('sku'));
    openTab(tab('home'));
    expect(getSessionState().tabs.map((t) => t.route)).toEqual(['home', 'sku']);
    expect(getSessionState().activeTab).toBe('home');
  });

  it('activates the right neighbour when the active tab closes, else the left one', () => {
    for (const r of ['a', 'b', 'c']) openTab(tab(r));
    openTab(tab('b'));
    closeTab('b');
    expect(getSessionState().activeTab).toBe('c');
    closeTab('c');
    expect(getSessionState().activeTab).toBe('a');
    closeTab('a');
    expect(getSessionState().activeTab).toBeNull();
  });

  it('closes other tabs and all tabs', () => {
    for (const r of ['a', 'b', 'c']) openTab(tab(r));
    closeOtherTabs('b');
    expect(getSessionState().tabs.map((t) => t.route)).toEqual(['b']);
    closeAllTabs();
    expect(getSessionState().tabs).toEqual([]);
  });

  it('keeps tabs, the active tab, the menu and the language in sessionStorage', () => {
    openTab(tab('sku'));
    updateSession({ languageCode: 3, menu: [{ code: 'sku', titleKey: 'menu.sku', route: '/sku' }] });
    expect(JSON.parse(sessionStorage.getItem('tabs')!)).toEqual([tab('sku')]);
    expect(sessionStorage.getItem('activeMenu')).toBe('sku');
    expect(JSON.parse(sessionStorage.getItem('menu')!)).toHaveLength(1);
    expect(JSON.parse(sessionStorage.getItem('shellState')!) as { languageCode: number }).toMatchObject({ languageCode: 3 });
  });

  it('forgets the user on reset but keeps the language', () => {
    openTab(tab('sku'));
    updateSession({ languageCode: 4, currentUid: 7 });
    resetSession();
    expect(getSessionState()).toMatchObject({ languageCode: 4, currentUid: null, tabs: [], activeTab: null });
    expect(sessionStorage.getItem('tabs')).toBeNull();
  });
});
