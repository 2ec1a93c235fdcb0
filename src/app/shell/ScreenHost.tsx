import { useEffect, useState, type ComponentType } from 'react';
import { Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { findPageRoute, type PageRoute } from '../routes';
import { NotAvailableScreen } from '../../screens/NotAvailableScreen';
import { loadPageView } from './engine-page';

/** A screen's code that has not arrived within this time offers a retry. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

type Loaded = { kind: 'component'; Component: ComponentType } | { kind: 'pending' } | { kind: 'missing' };

type LoadState = { status: 'loading' } | { status: 'ready'; loaded: Loaded } | { status: 'timeout' } | { status: 'failed' };

class ChunkTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new ChunkTimeout()), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** Loads the code of one route's screen; a module without a component is "module not found". */
async function loadScreen(page: PageRoute): Promise<Loaded> {
  const { target } = page;
  switch (target.kind) {
    case 'pending':
      return { kind: 'pending' };
    case 'screen': {
      const module = await target.load();
      return typeof module?.default === 'function' ? { kind: 'component', Component: module.default } : { kind: 'missing' };
    }
    case 'definition': {
      const PageView = await loadPageView();
      const { moduleCode, functionCode } = target;
      return { kind: 'component', Component: () => <PageView moduleCode={moduleCode} functionCode={functionCode} /> };
    }
  }
}

function ModuleNotFound({ route }: { route: string }) {
  const { t } = useTranslation();
  return (
    <div data-testid="module-not-found" data-route={`/${route}`}>
      <Result status="warning" title={t('errors.MODULE_NOT_FOUND')} subTitle={t('ui.shell.screen.notFoundText', { route: `/${route}` })} />
    </div>
  );
}

/**
 * The content of one tab: the route's screen once its code has loaded, "not yet available" for a
 * route whose screen does not exist yet, the module-not-found error for a route the table does
 * not know, and a retry when the code does not load in time.
 */
export function ScreenHost({ route }: { route: string }) {
  const page = findPageRoute(route);
  return page ? <RouteScreen page={page} /> : <ModuleNotFound route={route} />;
}

/** One route's screen, loaded with a time-out (exported for tests of the time-out and retry). */
export function RouteScreen({ page, timeoutMs = CHUNK_LOAD_TIMEOUT_MS }: { page: PageRoute; timeoutMs?: number }) {
  const { t } = useTranslation();
  const { route } = page;
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<LoadState>({ status: 'loading' });

  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    withTimeout(loadScreen(page), timeoutMs).then(
      (loaded) => current && setState({ status: 'ready', loaded }),
      (error: unknown) => {
        if (!current) return;
        console.error(`screen ${route} did not load`, error);
        setState({ status: error instanceof ChunkTimeout ? 'timeout' : 'failed' });
      },
    );
    return () => {
      current = false;
    };
  }, [page, route, attempt, timeoutMs]);

  switch (state.status) {
    case 'loading':
      return (
        <div style={{ padding: 48, textAlign: 'center' }} data-testid="screen-loading" data-route={`/${route}`}>
          <Spin tip={t('ui.shell.loading')}>
            <div style={{ minHeight: 48 }} />
          </Spin>
        </div>
      );
    case 'timeout':
    case 'failed':
      return (
        <div data-testid="screen-load-error" data-route={`/${route}`}>
          <Result
            status="error"
            title={t(page.titleKey)}
            subTitle={
              state.status === 'timeout'
                ? t('ui.shell.screen.timeout', { route: `/${route}`, seconds: Math.round(timeoutMs / 1000) })
                : t('ui.shell.screen.failed', { route: `/${route}` })
            }
            extra={
              <Button type="primary" onClick={() => setAttempt((n) => n + 1)}>
                {t('ui.shell.screen.retry')}
              </Button>
            }
          />
        </div>
      );
    case 'ready': {
      const { loaded } = state;
      if (loaded.kind === 'pending') return <NotAvailableScreen route={route} titleKey={page.titleKey} />;
      if (loaded.kind === 'missing') return <ModuleNotFound route={route} />;
      const { Component } = loaded;
      return <Component />;
    }
  }
}
