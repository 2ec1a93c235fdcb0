import { useMemo } from 'react';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { EngineServicesContext, PageView, useEngineServices, type EngineServices } from '../../../../engine/client/index';
import type { PageViewResponse, SelectionRequest, TabRequest } from '../../../../engine/schema/api.js';
import type { PageDefinition, ValidationProblem } from '../../../../engine/schema/index.js';

/**
 * The live preview: the real engine's PageView renders the definition being
 * edited. Its definition comes from the editor instead of the published one, and its rows from
 * `/generic/preview/selection` (and its sub-page tabs from `/generic/preview/tab`), where the
 * server lists them with the same engine in a read-only transaction; adding, editing and
 * behaviours are off until the page is published. Everything else goes through the host's services
 * (the provider the shell mounts around the designer).
 */
export function PreviewPanel({ definition, problems }: { definition: PageDefinition; problems: ValidationProblem[] }) {
  const { t } = useTranslation();
  const host = useEngineServices();
  const services = useMemo<EngineServices>(() => {
    const isThisPage = (body: unknown) =>
      !!body && typeof body === 'object' && (body as { moduleCode?: unknown }).moduleCode === definition.moduleCode && (body as { functionCode?: unknown }).functionCode === definition.functionCode;
    return {
      ...host,
      call: async <T,>(path: string, body?: unknown, options?: Parameters<EngineServices['call']>[2]): Promise<T> => {
        if (path === '/generic/module/view' && isThisPage(options?.query)) {
          const view: PageViewResponse = { definition, version: 0, projectSpecific: true, rights: { view: true, add: false, edit: false, delete: false } };
          return view as T;
        }
        // The page's rows and its sub-page tabs: the same listing, from the definition being edited.
        const listing = (request: SelectionRequest) => ({ definition, conditions: request.conditions, sort: request.sort, page: request.page, pageSize: request.pageSize });
        if (path === '/generic/selection' && isThisPage(body)) {
          return host.call<T>('/generic/preview/selection', listing(body as SelectionRequest), { quiet: options?.quiet });
        }
        if (path === '/generic/tab' && isThisPage(body)) {
          const request = body as TabRequest;
          return host.call<T>('/generic/preview/tab', { ...listing(request), subPage: request.subPage, parentKey: request.parentKey }, { quiet: options?.quiet });
        }
        return host.call<T>(path, body, options);
      },
    };
  }, [host, definition]);

  if (problems.length) {
    return <Alert type="warning" showIcon data-testid="designer-preview-blocked" message={t('ui.designer.preview.fixProblems', { count: problems.length })} />;
  }
  return (
    <div data-testid="designer-preview" style={{ border: '1px dashed #91caff', padding: 8 }}>
      <EngineServicesContext.Provider value={services}>
        <PageView key={JSON.stringify(definition)} moduleCode={definition.moduleCode} functionCode={definition.functionCode} />
      </EngineServicesContext.Provider>
    </div>
  );
}
