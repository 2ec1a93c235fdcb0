import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Empty, Popover, Progress, Result, Space, Spin, Tabs, Tag, Tooltip, Typography } from 'antd';
import {
  fieldsInOrder,
  isDisplayable,
  isStored,
  isPaged,
  isSearchable,
  pageSizeOf,
  type BehaviourDefinition,
  type PageDefinition,
  type RuleGroup,
  type ScalarValue,
  type Sort,
} from '../schema/index.js';
import type { BehaviourResponse, DeletionResponse, GenericRow, PageRef, PageViewResponse, RowKey, SelectionResponse, TabResponse } from '../schema/api.js';
import { useEngineServices, type EngineServices } from './services.js';
import { DataGrid, type GridColumn } from './DataGrid.js';
import { RecordForm } from './RecordForm.js';
import { SearchPanel, type SearchState } from './SearchPanel.js';
import { ImportDialog } from './ImportDialog.js';
import { BehaviourInputsDialog } from './BehaviourInputsDialog.js';
import { useChoices } from './useChoices.js';
import { resolveLabel } from './model/resolveLabel.js';
import { buildSearchConditions, filterToRuleGroup } from './model/buildSearchConditions.js';
import { columnPreferenceKey, parseColumnPreference, type ColumnPreference } from './model/columnPreferences.js';
import { formatCellValue } from './model/formatCellValue.js';
import { isBehaviourAllowed, isBehaviourEnabled } from './model/isBehaviourEnabled.js';
import { effectiveRights } from './model/pageRights.js';

/** A sub-page shown under its header row: which tab of which parent, and the link values. */
export interface PageLink {
  parent: PageRef;
  subPage: string;
  parentKey: RowKey;
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

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; view: PageViewResponse };

/**
 * A page rendered from its resolved definition (DESIGN.md section 6): search panel, toolbar of
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
        (error: unknown) => live && setLoaded({ state: 'failed', message: services.callError(error)?.message ?? String(error) }),
      );
    return () => {
      live = false;
    };
  }, [props.moduleCode, props.functionCode, services]);

  if (loaded.state === 'loading') return <Spin style={{ display: 'block', margin: 48 }} />;
  if (loaded.state === 'failed') return <Result status="warning" title={services.t('ui.engine.loadFailed')} subTitle={loaded.message} />;
  if (!loaded.view.rights.view) return <Result status="403" title={services.t('ui.engine.noViewRight')} />;
  return <PageBody key={`${props.moduleCode}/${props.functionCode}`} view={loaded.view} {...props} />;
}

function behaviourMessage(services: EngineServices, page: PageDefinition, answer: BehaviourResponse): string {
  if (!answer.messageCode) return services.t('ui.engine.behaviourDone');
  if (services.hasText(answer.messageCode)) return services.t(answer.messageCode, answer.messageParams);
  return resolveLabel(answer.messageCode, page, services);
}

function PageBody(props: PageViewProps & { view: PageViewResponse }) {
  const services = useEngineServices();
  const page = props.view.definition;
  const rights = effectiveRights(props.view.rights, page.readOnly);
  const label = useCallback((code: string) => resolveLabel(code, page, services), [page, services]);
  const ordered = useMemo(() => fieldsInOrder(page), [page]);
  // A field that is not a column (a new password) belongs to the form only, never to the list.
  const displayed = useMemo(() => ordered.filter((field) => isDisplayable(field) && isStored(field)), [ordered]);
  const searchable = useMemo(() => ordered.filter(isSearchable), [ordered]);
  const pageSize = pageSizeOf(page);

  // Dropdown labels in the list and the search panel: only lists that depend on no other field.
  const listedChoiceFields = useMemo(() => ordered.filter((field) => field.options && !(field.triggerFields ?? []).length), [ordered]);
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
  const [reloadToken, setReloadToken] = useState(0);
  const [selected, setSelected] = useState<GenericRow[]>([]);
  const [total, setTotal] = useState<{ count: number; estimated: boolean } | null>(null);
  const [form, setForm] = useState<{ mode: 'add' | 'edit'; initial: Record<string, unknown>; row?: GenericRow } | null>(null);
  const [importing, setImporting] = useState(false);
  const [asking, setAsking] = useState<BehaviourDefinition | null>(null);
  const [exportProgress, setExportProgress] = useState<number | null | undefined>(undefined);
  const lastSort = useRef<Sort[]>(page.defaultSort ?? []);

  const reload = useCallback(() => {
    setSelected([]);
    setReloadToken((token) => token + 1);
  }, []);

  const conditions = useMemo<RuleGroup | undefined>(() => {
    const saved = page.queryConditions?.find((condition) => condition.code === search.savedCondition)?.query;
    return buildSearchConditions(searchable, search.values, fixedFilter ? filterToRuleGroup(fixedFilter) : undefined, saved, search.query);
  }, [page.queryConditions, search, searchable, fixedFilter]);
  const conditionsRef = useRef(conditions);
  conditionsRef.current = conditions;

  const fetchRows = useCallback(
    async (pageNo: number, size: number, sort: Sort[]): Promise<SelectionResponse> => {
      lastSort.current = sort.length > 0 ? sort : (page.defaultSort ?? []);
      const sortPart = sort.length > 0 ? { sort } : {};
      const conditionPart = conditionsRef.current ? { conditions: conditionsRef.current } : {};
      if (props.link) {
        return services.call<TabResponse>('/generic/tab', {
          moduleCode: props.link.parent.moduleCode,
          functionCode: props.link.parent.functionCode,
          subPage: props.link.subPage,
          parentKey: props.link.parentKey,
          page: pageNo,
          pageSize: size,
          ...conditionPart,
          ...sortPart,
        });
      }
      return services.call<SelectionResponse>('/generic/selection', {
        moduleCode: page.moduleCode,
        functionCode: page.functionCode,
        page: pageNo,
        pageSize: size,
        ...conditionPart,
        ...sortPart,
      });
    },
    [page.moduleCode, page.functionCode, page.defaultSort, props.link, services],
  );

  const columns = useMemo<GridColumn[]>(
    () =>
      displayed.map((field) => {
        const fieldChoices = choices[field.name];
        const link = field.hyperlink;
        return {
          field,
          header: label(field.labelCode),
          hidden: columnPreference.hidden.includes(field.name),
          width: columnPreference.widths?.[field.name],
          format: (value: unknown) =>
            formatCellValue(field, value, {
              yes: services.t('ui.engine.yes'),
              no: services.t('ui.engine.no'),
              choice: fieldChoices ? (v) => fieldChoices.find((c) => String(c.value) === String(v))?.label : undefined,
              dateTime: services.formatDateTime,
            }),
          onLink: link ? (value: ScalarValue) => services.openPage(link.moduleCode, link.functionCode, { [link.field ?? field.name]: value }) : undefined,
        };
      }),
    [displayed, choices, label, columnPreference.hidden, columnPreference.widths, services],
  );

  const confirmBehaviour = async (behaviour: BehaviourDefinition): Promise<boolean> =>
    !behaviour.confirm ||
    services.confirm({
      title: label(behaviour.labelCode),
      content: label(behaviour.confirmTextCode ?? 'ui.engine.confirmRun'),
      okText: services.t('ui.engine.ok'),
      cancelText: services.t('ui.engine.cancel'),
    });

  const callBehaviour = async (behaviour: BehaviourDefinition, inputs: Record<string, ScalarValue> | undefined, quiet: boolean) => {
    const answer = await services.call<BehaviourResponse>(
      '/generic/behavior',
      {
        moduleCode: page.moduleCode,
        functionCode: page.functionCode,
        behaviour: behaviour.code,
        keys: behaviour.selection === 'none' ? [] : selected.map((row) => row._key),
        ...(inputs ? { inputs } : {}),
      },
      quiet ? { quiet: true } : undefined,
    );
    await services.message({ type: 'success', content: behaviourMessage(services, page, answer) });
  };

  const runBehaviour = async (behaviour: BehaviourDefinition) => {
    // A behaviour that declares inputs asks for them first (BehaviourInputsDialog, which also confirms), then runs.
    if ((behaviour.inputs ?? []).length > 0) {
      setAsking(behaviour);
      return;
    }
    if (!(await confirmBehaviour(behaviour))) return;
    try {
      await callBehaviour(behaviour, undefined, false);
    } catch {
      // The host has shown the refusal in the message popup; the list still reloads below.
    }
    reload();
  };

  const runBehaviourWithInputs = async (behaviour: BehaviourDefinition, inputs: Record<string, ScalarValue>) => {
    // The dialog shows the confirm text and its OK is the confirmation. Quiet: the dialog shows a refusal on its inputs and stays open; nothing ran.
    await callBehaviour(behaviour, inputs, true);
    setAsking(null);
    reload();
  };

  const deleteSelected = async () => {
    const ok = await services.confirm({
      content: services.t('ui.engine.confirmDelete', { count: selected.length }),
      okType: 'danger',
      iconType: 'warning',
      okText: services.t('ui.engine.delete'),
      cancelText: services.t('ui.engine.cancel'),
    });
    if (!ok) return;
    try {
      const answer = await services.call<DeletionResponse>('/generic/deletion', {
        moduleCode: page.moduleCode,
        functionCode: page.functionCode,
        rows: selected.map((row) => ({ key: row._key, version: row._version })),
      });
      await services.message({ type: 'success', content: services.t('ui.engine.deleted', { count: answer.deleted }) });
    } catch {
      // Shown by the host (a stale row, a refused right); nothing was deleted.
    }
    reload();
  };

  const exportRows = async () => {
    setExportProgress(null);
    try {
      await services.download(
        '/generic/export',
        {
          moduleCode: page.moduleCode,
          functionCode: page.functionCode,
          ...(conditions ? { conditions } : {}),
          ...(lastSort.current.length > 0 ? { sort: lastSort.current } : {}),
          fields: columns.filter((column) => !column.hidden).map((column) => column.field.name),
        },
        (fraction) => setExportProgress(fraction),
      );
    } catch {
      // Shown by the host.
    } finally {
      setExportProgress(undefined);
    }
  };

  const behaviours = (page.behaviours ?? [])
    .filter((behaviour) => isBehaviourAllowed(behaviour, rights))
    .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0));
  const subPages = [...(page.subPages ?? [])].sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0));
  const header = selected.length === 1 ? selected[0] : undefined;
  const gridHeight = props.link ? 300 : 'calc(100vh - 320px)';

  const gridTexts = useMemo(
    // ag-grid's own texts (paging bar, loading, no rows) in the user's language (issue 11, item 8).
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

  const columnChooser = (
    <Checkbox.Group
      data-testid="engine-column-chooser"
      style={{ display: 'flex', flexDirection: 'column', maxHeight: 360, overflow: 'auto' }}
      value={displayed.map((field) => field.name).filter((name) => !columnPreference.hidden.includes(name))}
      options={displayed.map((field) => ({ value: field.name, label: label(field.labelCode) }))}
      onChange={(visible) => setHidden(displayed.map((field) => field.name).filter((name) => !visible.includes(name)))}
    />
  );

  return (
    <div className="engine-page" data-testid="engine-page" data-module={page.moduleCode} data-function={page.functionCode}>
      {!props.link && (
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {label(page.titleCode)}
        </Typography.Title>
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
      <Space wrap style={{ margin: '8px 0' }} data-testid="engine-toolbar">
        {rights.add && (
          <Button type="primary" data-testid="engine-add" onClick={() => setForm({ mode: 'add', initial: props.link?.values ?? {} })}>
            {services.t('ui.engine.add')}
          </Button>
        )}
        {rights.edit && (
          <Button data-testid="engine-edit" disabled={selected.length !== 1} onClick={() => header && setForm({ mode: 'edit', initial: header, row: header })}>
            {services.t('ui.engine.edit')}
          </Button>
        )}
        {rights.delete && (
          <Button danger data-testid="engine-delete" disabled={selected.length === 0} onClick={() => void deleteSelected()}>
            {services.t('ui.engine.delete')}
          </Button>
        )}
        {behaviours.map((behaviour) => (
          <Button
            key={behaviour.code}
            data-testid={`engine-behaviour-${behaviour.code}`}
            disabled={!isBehaviourEnabled(behaviour, selected)}
            onClick={() => void runBehaviour(behaviour)}
          >
            {label(behaviour.labelCode)}
          </Button>
        ))}
        <Button data-testid="engine-export" loading={exportProgress !== undefined} onClick={() => void exportRows()}>
          {services.t('ui.engine.export')}
        </Button>
        {rights.add && (page.fieldMaps?.length ?? 0) > 0 && (
          <Button data-testid="engine-import" onClick={() => setImporting(true)}>
            {services.t('ui.engine.import')}
          </Button>
        )}
        <Popover trigger="click" content={columnChooser} title={services.t('ui.engine.columns')} placement="bottomLeft">
          <Button data-testid="engine-columns">{services.t('ui.engine.columns')}</Button>
        </Popover>
        {exportProgress !== undefined && (
          <Tooltip title={services.t('ui.engine.exporting')}>
            <Progress
              data-testid="engine-export-progress"
              type="circle"
              size={24}
              percent={exportProgress === null ? 50 : Math.round(exportProgress * 100)}
              status="active"
            />
          </Tooltip>
        )}
        <Typography.Text type="secondary" data-testid="engine-total">
          {total === null ? '' : services.t(total.estimated ? 'ui.engine.totalAbout' : 'ui.engine.total', { count: total.count })}
          {selected.length > 0 ? ` · ${services.t('ui.engine.selected', { count: selected.length })}` : ''}
        </Typography.Text>
      </Space>
      <div style={{ height: gridHeight, minHeight: 280 }} data-testid="engine-grid">
        <DataGrid
          label={label(page.titleCode)}
          columns={columns}
          pageSize={pageSize}
          paging={isPaged(page)}
          defaultSort={page.defaultSort}
          fetchRows={fetchRows}
          reloadToken={reloadToken}
          onSelectionChange={setSelected}
          onSelectionCapped={() => void services.message({ type: 'warning', content: services.t('ui.engine.selectionCapped', { max: 100 }) })}
          onTotal={(count, estimated) => setTotal({ count, estimated })}
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
                      values: Object.fromEntries(subPage.links.map((link) => [link.childField, (header[link.parentField] ?? null) as ScalarValue])),
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
          onClose={() => setAsking(null)}
          onRun={(inputs) => runBehaviourWithInputs(asking, inputs)}
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
