import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Alert, Button, Dropdown, Grid, Layout, Result, Space, Spin, Tabs, Typography } from 'antd';
import { MoreOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { api } from './api/client';
import { loadInstallTexts } from './install-texts';
import { getToken } from './api/token';
import { findPageRoute, HOME_ROUTE, loadPageRoutes, usePageRoutes } from './routes';
import { showConfirm } from './popups';
import { MOUNTED_TABS } from './shell/mounted-tabs';
import { closeAllTabs, closeOtherTabs, closeTab, getSessionState, openTab, updateSession, useSession } from './store/session-store';
import { loadMenu, loadStatus } from './shell/shell-data';
import { NavMenu } from './shell/NavMenu';
import { NotificationBell } from './shell/NotificationBell';
import { ScopeSwitcher } from './shell/ScopeSwitcher';
import { ScreenHost } from './shell/ScreenHost';
import { UserMenu } from './shell/UserMenu';

const { Header, Sider, Content } = Layout;

function useTabTitle() {
  const { t } = useTranslation();
  return useCallback(
    (route: string) => {
      const page = findPageRoute(route);
      return page ? t(page.titleKey) : `/${route}`;
    },
    [t],
  );
}

/** Records that the user opened a page, for the home page's "most used" shortcuts. */
function recordVisit(route: string) {
  api('/home/visit', { method: 'POST', body: { route }, quiet: true }).catch(() => undefined);
}

function SimulationBanner({ onReleased }: { onReleased: () => void }) {
  const { t } = useTranslation();
  const status = useSession((s) => s.status);
  if (!status?.simulatedBy) return null;
  return (
    <Alert
      banner
      type="warning"
      data-testid="simulation-banner"
      message={t('ui.shell.simulate.banner', { user: status.user.loginAccount, admin: status.simulatedBy.loginAccount })}
      action={
        <Button
          size="small"
          onClick={() => {
            api('/user/release', { method: 'POST' })
              .then(onReleased)
              .catch(() => undefined);
          }}
        >
          {t('ui.shell.user.release')}
        </Button>
      }
    />
  );
}

/** The routes of the tabs to keep mounted: the active tab, and with keep-alive the tabs used last. */
function useMountedTabs(tabs: readonly { route: string }[], activeTab: string | null, keepAlive: boolean): ReadonlySet<string> {
  const recent = useRef<string[]>([]);
  const open = new Set(tabs.map((tab) => tab.route));
  recent.current = [...(activeTab ? [activeTab] : []), ...recent.current.filter((route) => route !== activeTab)].filter((route) => open.has(route));
  return new Set(keepAlive ? recent.current.slice(0, MOUNTED_TABS) : activeTab ? [activeTab] : []);
}

function TabsArea({ scopeVersion }: { scopeVersion: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tabs = useSession((s) => s.tabs);
  const activeTab = useSession((s) => s.activeTab);
  const keepAlive = useSession((s) => s.keepAlive);
  const title = useTabTitle();
  const mounted = useMountedTabs(tabs, activeTab, keepAlive);

  // The page scrolls as a whole; each tab gets back the scroll position it had when left.
  const scrollOf = useRef(new Map<string, number>());
  const shown = useRef<string | null>(activeTab);
  useEffect(() => {
    // Recorded while scrolling: once a tab is hidden the browser has already clamped the scroll.
    const remember = () => {
      if (shown.current) scrollOf.current.set(shown.current, window.scrollY);
    };
    window.addEventListener('scroll', remember, { passive: true });
    return () => window.removeEventListener('scroll', remember);
  }, []);
  useLayoutEffect(() => {
    if (shown.current === activeTab) return;
    shown.current = activeTab;
    window.scrollTo(0, activeTab ? (scrollOf.current.get(activeTab) ?? 0) : 0);
  }, [activeTab]);

  const actions = {
    items: [
      { key: 'close', label: t('ui.shell.tabs.close'), disabled: !activeTab },
      { key: 'closeOthers', label: t('ui.shell.tabs.closeOthers'), disabled: tabs.length < 2 },
      { key: 'closeAll', label: t('ui.shell.tabs.closeAll'), disabled: !tabs.length },
    ],
    onClick: ({ key }: { key: string }) => {
      if (key === 'close' && activeTab) closeTab(activeTab);
      if (key === 'closeOthers' && activeTab) closeOtherTabs(activeTab);
      if (key === 'closeAll') void showConfirm({ content: t('ui.shell.tabs.closeAllConfirm'), onOk: closeAllTabs });
    },
  };

  return (
    <>
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        data-testid="shell-tabs"
        activeKey={activeTab ?? undefined}
        items={tabs.map((tab) => ({ key: tab.route, label: <span data-tab-route={`/${tab.route}`}>{title(tab.route)}</span> }))}
        onChange={(route) => void navigate(`/page/${route}`)}
        onEdit={(route, action) => {
          if (action === 'remove' && typeof route === 'string') closeTab(route);
        }}
        tabBarExtraContent={
          <Dropdown menu={actions} trigger={['click']}>
            <Button type="text" size="small" aria-label={t('ui.shell.tabs.actions')} data-testid="tab-actions" icon={<MoreOutlined />} />
          </Dropdown>
        }
        style={{ marginBottom: 0 }}
      />
      {tabs.map((tab) =>
        // Keep-alive: inactive tabs stay mounted, only hidden, so that their
        // filters, scroll position and unsaved input survive switching.
        mounted.has(tab.route) ? (
          <div
            key={`${tab.route}#${scopeVersion}`}
            hidden={tab.route !== activeTab}
            data-tab-pane={`/${tab.route}`}
            role="tabpanel"
            style={{ padding: 16 }}
          >
            <ScreenHost route={tab.route} />
          </div>
        ) : null,
      )}
    </>
  );
}

/**
 * The signed-in frame (/page), shown once the route table has come from the server: every route,
 * a deep link to one included, is then known.
 */
export default function PageShell() {
  const { t } = useTranslation();
  const routes = usePageRoutes();
  const [failed, setFailed] = useState(false);
  const load = useCallback(() => {
    setFailed(false);
    loadPageRoutes().catch(() => setFailed(true));
  }, []);
  useEffect(load, [load]);
  if (routes) return <SignedInShell />;
  if (!failed) return <Spin fullscreen />;
  return (
    <Result
      status="warning"
      title={t('ui.shell.screen.failed', { route: '/page' })}
      extra={
        <Button type="primary" onClick={load}>
          {t('ui.shell.screen.retry')}
        </Button>
      }
    />
  );
}

/** Navigation, scope, user menu and tabs. */
function SignedInShell() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const urlRoute = (useParams()['*'] ?? '').replace(/\/+$/, '');
  const status = useSession((s) => s.status);
  const activeTab = useSession((s) => s.activeTab);
  const [scopeVersion, setScopeVersion] = useState(0);
  const title = useTabTitle();

  const reload = useCallback(() => {
    loadStatus().catch(() => undefined);
    loadMenu().catch(() => undefined);
  }, []);

  useEffect(reload, [reload]);

  // The install's own texts of /mult, in the language shown, over the shipped ones.
  useEffect(() => {
    void loadInstallTexts(i18n.language);
  }, [i18n.language]);

  // The address names the open screen: opening it opens or activates its tab.
  useEffect(() => {
    // The session just ended: the router is on its way to the sign-in page.
    if (!getToken()) return;
    if (!urlRoute) {
      void navigate(`/page/${getSessionState().activeTab ?? HOME_ROUTE}`, { replace: true });
      return;
    }
    const page = findPageRoute(urlRoute);
    const isNew = !getSessionState().tabs.some((tab) => tab.route === urlRoute);
    openTab({ route: urlRoute, titleKey: page?.titleKey ?? '' });
    if (page && isNew) recordVisit(urlRoute);
  }, [urlRoute, navigate]);

  // A tab closed or activated from the tab bar moves the address along.
  useEffect(() => {
    const current = getSessionState().activeTab;
    if (current !== activeTab || !getToken()) return;
    if (!activeTab) void navigate(`/page/${HOME_ROUTE}`, { replace: true });
    else if (activeTab !== urlRoute) void navigate(`/page/${activeTab}`);
    // The address is read, not followed: following it is the effect above.
    // oxlint-disable-next-line react/exhaustive-deps
  }, [activeTab, navigate]);

  // The tab title follows the page title in the current language.
  const tabTitle = activeTab ? title(activeTab) : '';
  useEffect(() => {
    updateSession({ tabTitle });
    document.title = tabTitle ? `${tabTitle} - ${t('ui.appName')}` : t('ui.appName');
  }, [tabTitle, t]);

  const onScopeChanged = useCallback(() => {
    reload();
    setScopeVersion((n) => n + 1);
  }, [reload]);

  const onLayout = useCallback(
    (navLayout: 'left' | 'top') => {
      api('/home/layout', { method: 'PUT', body: { navLayout } })
        .then(reload)
        .catch(() => undefined);
    },
    [reload],
  );

  const layout = status?.navLayout ?? 'left';
  // Below antd's sm breakpoint (576 px): a phone or a handheld scanner.
  const compact = Grid.useBreakpoint().sm === false;
  // Below lg the left menu folds away; its open button then sits in the header's left corner
  // instead of over the page tabs.
  const [siderFolded, setSiderFolded] = useState(false);
  const headerPadding = compact ? 6 : 12;
  const brand = (
    <Typography.Text strong style={{ color: '#fff', whiteSpace: 'nowrap', padding: '0 16px' }} data-testid="app-name">
      {t('ui.appName')}
    </Typography.Text>
  );
  const headerTools = (
    // On a phone the tools keep to one compact row, so a handheld screen keeps its height.
    <Space size={compact ? 'small' : 'middle'} wrap={!compact} style={{ marginLeft: 'auto', justifyContent: 'flex-end', minWidth: 0 }}>
      <NotificationBell />
      <ScopeSwitcher onChanged={onScopeChanged} compact={compact} />
      <UserMenu onScopeChanged={onScopeChanged} onLayout={onLayout} compact={compact} />
    </Space>
  );
  const body =
    status && !status.hasRights ? (
      <Result status="403" title={t('ui.shell.noRights.title')} subTitle={t('errors.NO_RIGHTS_CONTACT_ADMIN')} />
    ) : (
      <TabsArea scopeVersion={scopeVersion} />
    );

  return (
    <Layout style={{ minHeight: '100vh' }} data-layout={layout}>
      {layout === 'left' && (
        <Sider
          width={220}
          breakpoint="lg"
          collapsedWidth={0}
          onCollapse={setSiderFolded}
          zeroWidthTriggerStyle={{ top: compact ? 4 : 12, height: 40, lineHeight: '40px', borderRadius: 6 }}
          data-testid="sider"
        >
          <div style={{ height: 56, display: 'flex', alignItems: 'center' }}>{brand}</div>
          <NavMenu mode="left" />
        </Sider>
      )}
      <Layout>
        <Header
          style={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: compact ? 4 : 12, padding: `0 ${headerPadding}px 0 ${layout === 'left' && siderFolded ? headerPadding + 44 : headerPadding}px`, color: '#fff', height: 'auto', minHeight: compact ? 48 : 64, lineHeight: compact ? '48px' : undefined }}
        >
          {layout === 'top' && brand}
          {layout === 'top' && <NavMenu mode="top" />}
          {headerTools}
        </Header>
        <SimulationBanner onReleased={onScopeChanged} />
        <Content style={{ background: '#fff', margin: 8, minHeight: 280 }}>{body}</Content>
      </Layout>
    </Layout>
  );
}
