import { useSyncExternalStore } from 'react';
import { DEFAULT_LANGUAGE_CODE } from '../../common/languages';
import type { MenuItem, UserStatus } from '../../common/api-types';
import { ACTIVE_MENU_KEY, MENU_KEY } from '../api/token';

/** One open tab of the shell: its /page child route (the key) and the locale key of its title. */
export interface ShellTab {
  route: string;
  titleKey: string;
}

/**
 * The session state of the shell, in one store. What must survive a reload of the browser
 * tab (tabs, the active tab, the menu, the language code) is kept in sessionStorage; the rest is
 * rebuilt from `GET /api/user/status` after a reload.
 */
export interface SessionState {
  /** Numeric language code (0 zh, 1 zh_tw, 2 en, 3 kor, 4 th, 5 jp); default 2. */
  languageCode: number;
  /** The signed-in user's uid, and while simulating, the simulated user's. */
  currentUid: number | null;
  /** The real user's uid (the administrator's while simulating). */
  userUid: number | null;
  role: 'admin' | 'user' | null;
  projectCode: string | null;
  warehouseCode: string | null;
  systemParams: Record<string, string>;
  /** True while any API call runs (counted across parallel calls). */
  loading: boolean;
  /** Inactive tabs stay mounted (keep-alive flag). */
  keepAlive: boolean;
  tabs: ShellTab[];
  activeTab: string | null;
  /** Title of the active tab in the current language. */
  tabTitle: string;
  menu: MenuItem[];
  status: UserStatus | null;
  /** Generic-master uid, validation flag, grouped-receive flag and part status of the session. */
  genericMasterUid: number | null;
  validationFlag: number;
  groupedReceive: boolean;
  partStatus: string | null;
  /** Scan-pack way and scan-print setting of the scanning screens. */
  scanPackWay: string | null;
  scanPrint: boolean;
  /** Transport planning: drag state and the four use-case objects. */
  transportDrag: boolean;
  transportUseCases: [unknown, unknown, unknown, unknown];
}

const STORAGE_KEY = 'shellState';
const TABS_KEY = 'tabs';

export function initialSessionState(): SessionState {
  return {
    languageCode: DEFAULT_LANGUAGE_CODE,
    currentUid: null,
    userUid: null,
    role: null,
    projectCode: null,
    warehouseCode: null,
    systemParams: {},
    loading: false,
    keepAlive: true,
    tabs: [],
    activeTab: null,
    tabTitle: '',
    menu: [],
    status: null,
    genericMasterUid: null,
    validationFlag: 0,
    groupedReceive: false,
    partStatus: null,
    scanPackWay: null,
    scanPrint: false,
    transportDrag: false,
    transportUseCases: [null, null, null, null],
  };
}

function readJson<T>(key: string): T | undefined {
  try {
    const text = sessionStorage.getItem(key);
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined;
  }
}

function restore(): SessionState {
  const state = initialSessionState();
  if (typeof sessionStorage === 'undefined') return state;
  const saved = readJson<Partial<Pick<SessionState, 'languageCode' | 'keepAlive' | 'scanPackWay' | 'scanPrint'>>>(STORAGE_KEY);
  const tabs = readJson<ShellTab[]>(TABS_KEY);
  const menu = readJson<MenuItem[]>(MENU_KEY);
  const active = sessionStorage.getItem(ACTIVE_MENU_KEY);
  return {
    ...state,
    ...saved,
    tabs: Array.isArray(tabs) ? tabs.filter((t) => typeof t?.route === 'string' && typeof t.titleKey === 'string') : [],
    menu: Array.isArray(menu) ? menu : [],
    activeTab: active,
  };
}

let state: SessionState = restore();
const listeners = new Set<() => void>();

function persist(next: SessionState, previous: SessionState) {
  if (typeof sessionStorage === 'undefined') return;
  if (next.tabs !== previous.tabs) sessionStorage.setItem(TABS_KEY, JSON.stringify(next.tabs));
  if (next.menu !== previous.menu) sessionStorage.setItem(MENU_KEY, JSON.stringify(next.menu));
  if (next.activeTab !== previous.activeTab) {
    if (next.activeTab) sessionStorage.setItem(ACTIVE_MENU_KEY, next.activeTab);
    else sessionStorage.removeItem(ACTIVE_MENU_KEY);
  }
  const { languageCode, keepAlive, scanPackWay, scanPrint } = next;
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ languageCode, keepAlive, scanPackWay, scanPrint }));
}

export function getSessionState(): SessionState {
  return state;
}

/** Replaces part of the state; listeners run only when something changed. */
export function updateSession(patch: Partial<SessionState> | ((current: SessionState) => Partial<SessionState>)): void {
  const changes = typeof patch === 'function' ? patch(state) : patch;
  const keys = Object.keys(changes) as (keyof SessionState)[];
  if (keys.every((key) => Object.is(state[key], changes[key]))) return;
  const previous = state;
  state = { ...state, ...changes };
  persist(state, previous);
  for (const listener of listeners) listener();
}

/** Forgets everything of the signed-in user (sign-out, 401/403, lost cookie); keeps the language. */
export function resetSession(): void {
  const { languageCode } = state;
  const previous = state;
  state = { ...initialSessionState(), languageCode };
  persist(state, previous);
  if (typeof sessionStorage !== 'undefined') for (const key of [TABS_KEY, MENU_KEY, ACTIVE_MENU_KEY]) sessionStorage.removeItem(key);
  for (const listener of listeners) listener();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Reads one slice of the session state and re-renders when that slice changes. */
export function useSession<T>(select: (s: SessionState) => T): T {
  return useSyncExternalStore(
    subscribeSession,
    () => select(state),
    () => select(state),
  );
}

/** Opens the tab of `route` or activates it when it is already open (the shell keeps one tab per route). */
export function openTab(tab: ShellTab): void {
  updateSession((s) => ({
    tabs: s.tabs.some((t) => t.route === tab.route) ? s.tabs : [...s.tabs, tab],
    activeTab: tab.route,
  }));
}

/** Closes one tab; when it was active, its right neighbour (else the left one) becomes active. */
export function closeTab(route: string): void {
  updateSession((s) => {
    const index = s.tabs.findIndex((t) => t.route === route);
    if (index < 0) return {};
    const tabs = s.tabs.filter((t) => t.route !== route);
    const activeTab = s.activeTab === route ? (tabs[index] ?? tabs[index - 1])?.route ?? null : s.activeTab;
    return { tabs, activeTab };
  });
}

export function closeOtherTabs(route: string): void {
  updateSession((s) => ({ tabs: s.tabs.filter((t) => t.route === route), activeTab: route }));
}

export function closeAllTabs(): void {
  updateSession({ tabs: [], activeTab: null });
}
