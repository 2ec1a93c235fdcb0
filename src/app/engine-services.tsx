/**
 * The application's side of the engine's `EngineServices` contract (engine/client/services.ts):
 * the API client, the global popups, navigation, translations and per-user preferences. This file
 * is loaded only with the engine's chunk (shell/engine-page.ts), never by the sign-in page.
 */
import { lazy, Suspense, useMemo, useSyncExternalStore, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { WidgetProps } from '@rjsf/utils';
import { Link, useSearchParams } from 'react-router-dom';
import { List, Result, Typography } from 'antd';
import { EngineServicesContext, PageView, ReducedMotionContext, type EngineCallError, type EngineServices, type HostToolbarActionProps } from '../../engine/client/index';
import { hostPopups } from '../../engine/client/host/popups';
import { isPlainSuccess, showSuccess } from './popups';
import { api, ApiError, download } from './api/client';
import { clearSession, getToken } from './api/token';
import { pageRoutes } from './routes';
import { openPage, pageKey, pendingFilterOf, subscribeFilters } from './page-filters';
import { useSession } from './store/session-store';
import { formatDateTime } from './locale';
import { useReducedMotion } from './reduced-motion';
import { toLanguage } from '../common/languages';
import { CronExpressionWidget } from './widgets/CronExpressionWidget';
import { rightsFor } from './rights';

/**
 * The components that the files matching one glob export under one name, each a map from key to
 * lazy loader, merged into one map from key to a component that loads its chunk on first render.
 */
function lazyComponents<Props extends object>(files: Record<string, Record<string, () => Promise<{ default: ComponentType<Props> }>>>): Record<string, ComponentType<Props>> {
  return Object.fromEntries(
    Object.values(files).flatMap((loaders) =>
      Object.entries(loaders).map(([key, load]) => {
        const Component = lazy(load);
        const Loaded = (props: Props) => (
          <Suspense fallback={null}>
            <Component {...props} />
          </Suspense>
        );
        return [key, Loaded] as const;
      }),
    ),
  );
}

type FormWidgetLoader = () => Promise<{ default: ComponentType<WidgetProps> }>;

const FORM_WIDGET_FILES = import.meta.glob<Record<string, FormWidgetLoader>>('../screens/*/form-widgets.ts', { import: 'formWidgets', eager: true });

/**
 * The form inputs this application brings to the engine, by the field format that asks for them:
 * its own (the cron editor) and those of the hand-written screens, each `src/screens/<area>/form-widgets.ts`
 * exporting `formWidgets`, a map from format to lazy loader (the sales order line's SKU picker).
 */
const HOST_WIDGETS: Readonly<Record<string, ComponentType<WidgetProps>>> = {
  cron: CronExpressionWidget,
  ...lazyComponents(FORM_WIDGET_FILES),
};

type ToolbarActionLoader = () => Promise<{ default: ComponentType<HostToolbarActionProps> }>;

const TOOLBAR_ACTION_FILES = import.meta.glob<Record<string, ToolbarActionLoader>>('../screens/*/toolbar-actions.ts', { import: 'toolbarActions', eager: true });

/**
 * The toolbar actions the hand-written screens bring to pages, by `<moduleCode>/<functionCode>`:
 * each `src/screens/<area>/toolbar-actions.ts` exports `toolbarActions`, a map from page to lazy loader
 * (the /user page's "New user" dialog). Each loads with the first page that shows it.
 */
const HOST_TOOLBAR_ACTIONS: Readonly<Record<string, ComponentType<HostToolbarActionProps>>> = lazyComponents(TOOLBAR_ACTION_FILES);

function callError(error: unknown): EngineCallError | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return {
    status: error.status,
    code: error.body.code,
    message: error.body.message,
    details: error.body.details?.map((detail) => ({ ...detail })),
  };
}

/**
 * A multipart upload with progress: fetch cannot report upload progress, XMLHttpRequest can.
 * Answers and refusals take the same shape as the API client's (any status but 200 rejects).
 */
function upload<T>(path: string, form: FormData, language: string, onProgress?: (fraction: number | null) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api${path}`);
    const token = getToken();
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.setRequestHeader('x-language', language);
    request.upload.onprogress = (event) => onProgress?.(event.lengthComputable ? event.loaded / event.total : null);
    request.onerror = () => reject(new ApiError(0, { code: 'INTERNAL', message: request.statusText || 'network error' }));
    request.onload = () => {
      let body: unknown;
      try {
        body = request.responseText ? JSON.parse(request.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (request.status === 200) {
        resolve(body as T);
        return;
      }
      if (request.status === 401 || request.status === 403) clearSession();
      const errorBody = (body && typeof body === 'object' && 'code' in body ? body : { code: 'INTERNAL', message: request.statusText }) as ApiError['body'];
      reject(new ApiError(request.status, errorBody));
    };
    request.send(form);
  });
}

/** The services of the signed-in user, rebuilt when the language or the user changes. */
export function useEngineHostServices(): EngineServices {
  const { t, i18n } = useTranslation();
  const userUid = useSession((state) => state.currentUid);
  const timeZone = useSession((state) => state.status?.user.timeZone) ?? 'UTC';
  const language = i18n.language;
  return useMemo<EngineServices>(
    () => ({
      call: (path, body, options = {}) =>
        api(path, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), body, query: options.query, quiet: options.quiet }),
      download: async (path, body, onProgress) => {
        // The client streams the file to disk; its size is not known in advance, so the
        // progress stays indeterminate until it is saved.
        onProgress?.(null);
        await download(path, { method: 'POST', body });
        onProgress?.(1);
      },
      upload: (path, form, onProgress) => upload(path, form, language, onProgress),
      callError,
      confirm: (item) => hostPopups().showConfirm(item),
      message: (item) => (isPlainSuccess(item) ? showSuccess(item) : hostPopups().showMessage(item)),
      openPage,
      // An engine page's right is its module's sub-module right, `moduleCode.functionCode`.
      pageRights: (moduleCode, functionCode) => rightsFor(`${moduleCode}.${functionCode}`),
      // The preview screen (`/previewImgFile`) in a tab of its own: the only route a new
      // start of the app with a token does not send to /page.
      previewAttachment: (id) => window.open(`#/previewImgFile?id=${id}`, '_blank'),
      t: (key, params) => t(key, params ?? {}),
      hasText: (key) => i18n.exists(key),
      language,
      formatDateTime: (value) => formatDateTime(value, toLanguage(language) ?? 'en', timeZone),
      userKey: userUid == null ? null : String(userUid),
      widgets: HOST_WIDGETS,
      toolbarActions: HOST_TOOLBAR_ACTIONS,
      preferences: {
        get: (key) => localStorage.getItem(key),
        set: (key, value) => localStorage.setItem(key, value),
      },
    }),
    [t, i18n, language, userUid, timeZone],
  );
}

/**
 * A definition route of the shell: the engine's PageView with the application's services, and the
 * filter a hyperlink asked for (a new filter re-opens the page filtered, even in a kept-alive tab).
 */
export function EnginePage({ moduleCode, functionCode }: { moduleCode: string; functionCode: string }) {
  const services = useEngineHostServices();
  const reducedMotion = useReducedMotion();
  const key = pageKey(moduleCode, functionCode);
  const pending = useSyncExternalStore(subscribeFilters, () => pendingFilterOf(key));
  return (
    <EngineServicesContext.Provider value={services}>
      <ReducedMotionContext.Provider value={reducedMotion}>
        <PageView key={pending?.serial ?? 0} moduleCode={moduleCode} functionCode={functionCode} initialConditions={pending?.filter} />
      </ReducedMotionContext.Provider>
    </EngineServicesContext.Provider>
  );
}

/**
 * The /mapTo screen: any page definition named by `?moduleCode=&functionCode=` in the route, for
 * the pages the route table does not name (sub-pages, pages opened by a hyperlink).
 */
export default function MappedPage() {
  const [params] = useSearchParams();
  const moduleCode = params.get('moduleCode');
  const functionCode = params.get('functionCode');
  if (!moduleCode && !functionCode) return <PageMap />;
  if (!moduleCode || !functionCode) return <NotFoundResult />;
  return <EnginePage key={`${moduleCode}/${functionCode}`} moduleCode={moduleCode} functionCode={functionCode} />;
}

/**
 * `/mapTo` opened from its menu entry, without a page named: the map of the
 * pages built from definitions, each opening through this same route with its field maps for import.
 */
function PageMap() {
  const { t } = useTranslation();
  const pages = pageRoutes().flatMap((r) => (r.target.kind === 'definition' ? [{ route: r, target: r.target }] : []));
  return (
    <div data-testid="page-map" style={{ padding: 16 }}>
      <Typography.Title level={4}>{t('menu.mapTo')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('ui.shell.pageMap')}</Typography.Paragraph>
      <List
        size="small"
        bordered
        dataSource={pages}
        renderItem={({ route, target }) => (
          <List.Item>
            <Link to={`/page/mapTo?moduleCode=${target.moduleCode}&functionCode=${target.functionCode}`}>{t(route.titleKey)}</Link>
            <Typography.Text type="secondary">
              {target.moduleCode}/{target.functionCode}
            </Typography.Text>
          </List.Item>
        )}
      />
    </div>
  );
}

function NotFoundResult() {
  const { t } = useTranslation();
  return <Result status="warning" title={t('errors.MODULE_NOT_FOUND')} />;
}
