import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ComponentType } from 'react';
import { Alert, Empty, Result, Spin, Tabs, Tag, Typography } from 'antd';
import { fieldsInOrder, isDisplayable, isStored, isPaged, isSearchable, keyFieldOf, pageSizeOf, type RuleGroup, type ScalarValue } from '../schema/index.js';
import type { GenericRow, PageViewResponse } from '../schema/api.js';
import { useEngineServices } from './services.js';
import { DataGrid, type GridColumn } from './DataGrid.js';
import { SearchPanel, type SearchState } from './SearchPanel.js';
import { PageToolbar } from './PageToolbar.js';
import { useChoices } from './useChoices.js';
import { usePageRows, type ParentRowLink } from './usePageRows.js';
import { useBehaviours } from './useBehaviours.js';
import { pageKeyOf, useViewablePages } from './useViewablePages.js';
import { resolveLabel } from './model/resolveLabel.js';
import { buildSearchConditions, filterToRuleGroup } from './model/buildSearchConditions.js';
import { columnPreferenceKey, parseColumnPreference, type ColumnPreference } from './model/columnPreferences.js';
import { formatCellValue } from './model/formatCellValue.js';
import { effectiveRights } from './model/pageRights.js';
import type * as RecordFormModule from './RecordForm.js';
import type * as ImportDialogModule from './ImportDialog.js';
import type * as BehaviourInputsDialogModule from './BehaviourInputsDialog.js';

/** A dialog whose code loads when it first opens, with a spinner meanwhile. */
function lazyDialog<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Dialog = lazy(async () => ({ default: await load() }));
  return function LazyDialog(props: P) {
    return (
      <Suspense fallback={<Spin fullscreen />}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}

// The page's list needs none of the dialogs' code (the form's rjsf and its widgets, the import's
// upload, the behaviour's inputs): each loads when first opened.
const RecordForm = lazyDialog<Parameters<typeof RecordFormModule.RecordForm>[0]>(() => import('./RecordForm.js').then((module) => module.RecordForm));
const ImportDialog = lazyDialog<Parameters<typeof ImportDialogModule.ImportDialog>[0]>(() => import('./ImportDialog.js').then((module) => module.ImportDialog));
const BehaviourInputsDialog = lazyDialog<Parameters<typeof BehaviourInputsDialogModule.BehaviourInputsDialog>[0]>(() =>
  import('./BehaviourInputsDialog.js').then((module) => module.BehaviourInputsDialog),
);

/** A sub-page shown under its header row: which tab of which parent, and the link values. */
export interface PageLink extends ParentRowLink {
  /** Child field values taken from the header row (what an added child record starts with). */
  values: Record<string, ScalarValue>;
}

export interface PageViewProps {
  moduleCode: string;
  functionCode: string;
  /** Field values the list starts filtered by (a hyperlink from another page). */
  initialConditions?: Record<string, ScalarValue>;
  /** Set when the page is a sub-page tab of a header row. */
  link?: PageLink;
}

type Loaded = { state: 'loading' } | { state: 'missing' } | { state: 'failed'; message: string } | { state: 'ready'; view: PageViewResponse };

/**
 * A page rendered from its resolved definition: search panel, toolbar of
 * behaviours, grid, add/edit form and sub-pages as tabs. The definition and the caller's rights
 * come from `GET /api/generic/module/view`; every list, save and action goes through the generic
 * API, which checks the same rights again.
 */
export function PageView(props: PageViewProps) {
  const services = useEngineServices();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    setLoaded({ state: 'loading' });
    services
      .call<PageViewResponse>('/generic/module/view', undefined, {
        method: 'GET',
        query: { moduleCode: props.moduleCode, functionCode: props.functionCode },
        quiet: true,
      })
      .then(
        (view) => live && setLoaded({ state: 'ready', view }),
        (error: unknown) => {
          if (!live) return;
          const refusal = services.callError(error);
          // No definition resolves for the session's project (e.g. a project-generic page it has not published): an empty state, not an error.
          if (refusal?.code === 'MODULE_NOT_FOUND') setLoaded({ state: 'missing' });
          else setLoaded({ state: 'failed', message: refusal?.message ?? String(error) });
        },
      );
    return () => {
      live = false;
    };
  }, [props.moduleCode, props.functionCode, services]);

  if (loaded.state === 'loading') return <Spin style={{ display: 'block', margin: 48 }} />;
  if (loaded.state === 'missing') {
    return (
      <Empty
        data-testid="engine-page-missing"
        style={{ margin: 48 }}
        description={services.t('ui.engine.pageMissing', { moduleCode: props.moduleCode, functionCode: props.functionCode })}
      />
    );
  }
  if (loaded.state === 'failed') return <Result status="warning" title={services.t('ui.engine.loadFailed')} subTitle={loaded.message} />;
  if (!loaded.view.rights.view) return <Result status="403" title={services.t('ui.engine.noViewRight')} />;
  return <PageBody key={`${props.moduleCode}/${props.functionCode}`} view={loaded.view} {...props} />;
}

function PageBody(props: PageViewProps & { view: PageViewResponse }) {
  const services = useEngineServices();
  const page = props.view.definition;
  const rights = effectiveRights(props.view.rights, page.readOnly);
  // The host's own toolbar action of this page: `<module>/<function>` where the page stands on its
  // own, `<parent module>/<parent function>/<tab>` on a sub-page tab.
  const actionKey = props.link
    ? `${props.link.parent.moduleCode}/${props.link.parent.functionCode}/${props.link.subPage}`
    : `${page.moduleCode}/${page.functionCode}`;
  const HostAction = services.toolbarActions?.[actionKey];
  const label = useCallback((code: string) => resolveLabel(code, page, services), [page, services]);
  const ordered = useMemo(() => fieldsInOrder(page), [page]);
  // A field that is not a column (a new password) belongs to the form only, never to the list.
  const displayed = useMemo(() => ordered.filter((field) => isDisplayable(field) && isStored(field)), [ordered]);
  const searchable = useMemo(() => ordered.filter(isSearchable), [ordered]);
  const pageSize = pageSizeOf(page);

  // Dropdown labels in the list and choices of the search panel: lists that depend on no other
  // field. A foreign value's label comes with its row (`_labels`), so a foreign list is loaded only
  // for the search panel, or for a page listing through its own SQL (whose rows carry no labels);
  // an empty record leaves it unfiltered by the fields it follows.
  const showsSearch = !props.link;
  const listedChoiceFields = useMemo(
    () =>
      ordered.filter((field) => {
        if (!field.options) return false;
        if (field.options.type !== 'foreign') return !(field.triggerFields ?? []).length;
        return page.listSql !== undefined || (showsSearch && isSearchable(field));
      }),
    [ordered, page.listSql, showsSearch],
  );
  const { choices, reloadFor } = useChoices(page, listedChoiceFields, {}, label);
  useEffect(() => reloadFor(null, {}), [reloadFor]);

  const preferenceKey = columnPreferenceKey(services.userKey, page.moduleCode, page.functionCode);
  const [columnPreference, setColumnPreference] = useState<ColumnPreference>(() => parseColumnPreference(services.preferences.get(preferenceKey)));
  const savePreference = (next: ColumnPreference) => {
    setColumnPreference(next);
    services.preferences.set(preferenceKey, JSON.stringify(next));
  };
  const setHidden = (hidden: string[]) => savePreference({ ...columnPreference, hidden });
  const setWidth = (name: string, width: number) => savePreference({ ...columnPreference, widths: { ...columnPreference.widths, [name]: Math.round(width) } });

  const [fixedFilter, setFixedFilter] = useState<Record<string, ScalarValue> | undefined>(props.initialConditions);
  const [search, setSearch] = useState<SearchState>({ values: {} });
  const [form, setForm] = useState<{ mode: 'add' | 'edit'; initial: Record<string, unknown>; row?: GenericRow } | null>(null);
  const [importing, setImporting] = useState(false);

  const conditions = useMemo<RuleGroup | undefined>(() => {
    const saved = page.queryConditions?.find((condition) => condition.code === search.savedCondition)?.query;
    return buildSearchConditions(searchable, search.values, fixedFilter ? filterToRuleGroup(fixedFilter) : undefined, saved, search.query);
  }, [page.queryConditions, search, searchable, fixedFilter]);
  const rows = usePageRows(page, conditions, props.link);
  const { reload, selected } = rows;
  // A behaviour follows its own right and the rows' status, not the page's read-only flag: a
  // read-only list (a count ticket) still offers the approve or close its user may run.
  const behaviours = useBehaviours(page, props.view.rights, selected, label, reload, props.view.deniedBehaviours);

  // Sub-page tabs and hyperlinks only to pages the caller may open.
  const allSubPages = useMemo(() => [...(page.subPages ?? [])].sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0)), [page.subPages]);
  const linkTargets = useMemo(() => displayed.flatMap((field) => (field.hyperlink ? [field.hyperlink] : [])), [displayed]);
  const viewable = useViewablePages(useMemo(() => [...allSubPages, ...linkTargets], [allSubPages, linkTargets]));
  const { asking } = behaviours;

  const columns = useMemo<GridColumn[]>(
    () =>
      displayed.map((field) => {
        const fieldChoices = choices[field.name];
        const link = field.hyperlink && viewable.has(pageKeyOf(field.hyperlink)) ? field.hyperlink : undefined;
        return {
          field,
          header: label(field.labelCode),
          hidden: columnPreference.hidden.includes(field.name),
          width: columnPreference.widths?.[field.name],
          format: (value: unknown, row?: GenericRow) =>
            formatCellValue(field, value, {
              yes: services.t('ui.engine.yes'),
              no: services.t('ui.engine.no'),
              // A foreign value reads as the code the server joined to the row; else as its choice's label.
              choice: (v) => row?._labels?.[field.name] ?? fieldChoices?.find((c) => String(c.value) === String(v))?.label,
              dateTime: services.formatDateTime,
            }),
          onLink: link ? (value: ScalarValue) => services.openPage(link.moduleCode, link.functionCode, { [link.field ?? field.name]: value }) : undefined,
        };
      }),
    [displayed, choices, label, columnPreference.hidden, columnPreference.widths, services, viewable],
  );

  const subPages = allSubPages.filter((subPage) => viewable.has(pageKeyOf(subPage)));
  const header = selected.length === 1 ? selected[0] : undefined;
  // A header page with sub-pages is a split view: its list takes the upper half of the screen, so
  // that the selected header's tabs (its lines and their Add button) show without scrolling.
  const gridHeight = props.link ? 260 : subPages.length > 0 ? 'calc(50vh - 150px)' : 'calc(100vh - 320px)';

  const gridTexts = useMemo(
    // ag-grid's own texts (paging bar, loading, no rows) in the user's language.
    () => ({
      loadingOoo: services.t('ui.engine.loading'),
      noRowsToShow: services.t('ui.engine.noRows'),
      page: services.t('ui.engine.grid.page'),
      to: services.t('ui.engine.grid.to'),
      of: services.t('ui.engine.grid.of'),
      more: services.t('ui.engine.grid.more'),
      firstPage: services.t('ui.engine.grid.first'),
      lastPage: services.t('ui.engine.grid.last'),
      nextPage: services.t('ui.engine.grid.next'),
      previousPage: services.t('ui.engine.grid.previous'),
      pageSizeSelectorLabel: services.t('ui.engine.grid.pageSize'),
      ariaPageSizeSelectorLabel: services.t('ui.engine.grid.pageSize'),
    }),
    [services],
  );

  return (
    <div className="engine-page" data-testid="engine-page" data-module={page.moduleCode} data-function={page.functionCode}>
      {!props.link && (
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {label(page.titleCode)}
        </Typography.Title>
      )}
      {!props.link && page.helpCode && (
        <Typography.Paragraph type="secondary" data-testid="engine-page-help" style={{ marginTop: -4 }}>
          {label(page.helpCode)}
        </Typography.Paragraph>
      )}
      {!props.link && searchable.length + (page.queryConditions?.length ?? 0) > 0 && (
        <SearchPanel
          page={page}
          fields={searchable}
          choices={choices}
          label={label}
          onSearch={(state) => {
            setSearch(state);
            reload();
          }}
        />
      )}
      {fixedFilter && Object.keys(fixedFilter).length > 0 && (
        <div style={{ marginTop: 8 }}>
          {Object.entries(fixedFilter).map(([name, value]) => {
            const field = page.fields.find((candidate) => candidate.name === name);
            return (
              <Tag
                key={name}
                closable
                data-testid="engine-fixed-filter"
                onClose={() => {
                  setFixedFilter(undefined);
                  reload();
                }}
              >
                {field ? label(field.labelCode) : name} = {String(value)}
              </Tag>
            );
          })}
        </div>
      )}
      <PageToolbar
        page={page}
        rights={rights}
        label={label}
        selected={selected}
        total={rows.total}
        columns={columns}
        onHiddenChange={setHidden}
        conditions={conditions}
        currentSort={rows.currentSort}
        behaviours={behaviours.allowed}
        onRunBehaviour={behaviours.run}
        onAdd={() => setForm({ mode: 'add', initial: props.link?.values ?? {} })}
        onEdit={(row) => setForm({ mode: 'edit', initial: row, row })}
        onImport={() => setImporting(true)}
        onDeleted={reload}
        hostActions={HostAction && <HostAction rights={rights} selected={selected} reload={reload} />}
      />
      <div style={{ height: gridHeight, minHeight: props.link || subPages.length > 0 ? 220 : 280 }} data-testid="engine-grid">
        <DataGrid
          label={label(page.titleCode)}
          columns={columns}
          pageSize={pageSize}
          paging={isPaged(page)}
          defaultSort={page.defaultSort}
          fetchRows={rows.fetchRows}
          reloadToken={rows.reloadToken}
          onSelectionChange={rows.setSelected}
          onSelectionCapped={() => void services.message({ type: 'warning', content: services.t('ui.engine.selectionCapped', { max: 100 }) })}
          onTotal={rows.setTotal}
          onColumnResized={setWidth}
          onRowOpen={rights.edit ? (row) => setForm({ mode: 'edit', initial: row, row }) : undefined}
          localeText={gridTexts}
        />
      </div>
      {!props.link && subPages.length > 0 && (
        <div style={{ marginTop: 12 }} data-testid="engine-subpages">
          {header ? (
            <Tabs
              items={subPages.map((subPage) => ({
                key: subPage.code,
                label: label(subPage.titleCode),
                children: (
                  <PageView
                    key={`${subPage.code}:${String(header._key)}`}
                    moduleCode={subPage.moduleCode}
                    functionCode={subPage.functionCode}
                    link={{
                      parent: { moduleCode: page.moduleCode, functionCode: page.functionCode },
                      subPage: subPage.code,
                      parentKey: header._key,
                      // A link to the header's key (not one of its fields) takes the row's `_key`, as the server's tab rows do.
                      values: Object.fromEntries(
                        subPage.links.map((link) => [
                          link.childField,
                          (link.parentField === keyFieldOf(page) ? header._key : (header[link.parentField] ?? null)) as ScalarValue,
                        ]),
                      ),
                    }}
                  />
                ),
              }))}
            />
          ) : (
            <Empty description={services.t('ui.engine.selectHeader')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
          )}
        </div>
      )}
      {form && (
        <RecordForm
          page={page}
          mode={form.mode}
          initial={form.initial}
          row={form.row}
          label={label}
          onClose={() => setForm(null)}
          onSaved={() => {
            const added = form.mode === 'add';
            setForm(null);
            reload();
            void services.message({ type: 'success', content: services.t(added ? 'ui.engine.added' : 'ui.engine.updated') });
          }}
        />
      )}
      {asking && (
        <BehaviourInputsDialog
          behaviour={asking}
          label={label}
          onClose={behaviours.stopAsking}
          onRun={(inputs) => behaviours.runWithInputs(asking, inputs)}
        />
      )}
      {importing && (
        <ImportDialog
          page={page}
          label={label}
          onClose={() => setImporting(false)}
          onImported={(count) => {
            setImporting(false);
            reload();
            void services.message({ type: 'success', content: services.t('ui.engine.imported', { count }) });
          }}
        />
      )}
      {page.status !== 'published' && <Alert style={{ marginTop: 8 }} type="info" showIcon message={services.t('ui.engine.notPublished')} />}
    </div>
  );
}
