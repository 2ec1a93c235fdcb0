import { useContext, useEffect, useMemo, useRef } from 'react';
import { AgGridReact } from 'ag-grid-react';
import {
  ColumnAutoSizeModule,
  InfiniteRowModelModule,
  LocaleModule,
  PaginationModule,
  RowSelectionModule,
  type ColDef,
  type GridApi,
  type ICellRendererComp,
  type ICellRendererParams,
  type IDatasource,
  type Module,
  type SelectionChangedEvent,
} from 'ag-grid-community';
import type { FieldDefinition, ScalarValue, Sort } from '../schema/index.js';
import type { GenericRow, SelectionResponse } from '../schema/api.js';
import { truncateText } from './host/truncateText.js';
import { MAX_SELECTION } from './model/isBehaviourEnabled.js';
import { ReducedMotionContext } from './services.js';

/**
 * Only the grid features the engine uses (ag-grid's module registry keeps the chunk small);
 * sorting, resizing and function cell renderers are part of the core in ag-grid 36.
 */
const GRID_MODULES: Module[] = [InfiniteRowModelModule, RowSelectionModule, LocaleModule, PaginationModule, ColumnAutoSizeModule];

export interface GridColumn {
  field: FieldDefinition;
  header: string;
  hidden: boolean;
  /** The width the user gave the column; without one it is sized to its content. */
  width?: number;
  /** Text of a value (labels of booleans and dropdowns, dates); `row` carries the server's `_labels`. */
  format(value: unknown, row?: GenericRow): string;
  /** Set for a hyperlink: opens the linked page filtered by this value. */
  onLink?: (value: ScalarValue, row: GenericRow) => void;
}

export interface DataGridProps {
  columns: GridColumn[];
  pageSize: number;
  /**
   * The definition's paging flag: true shows ag-grid's pagination (one server page per grid page,
   * still fetched through the infinite row model), false (default) scrolls through the list block by block.
   */
  paging?: boolean;
  defaultSort?: Sort[];
  /** Fetches one page (1-based) of rows from the server. */
  fetchRows(page: number, pageSize: number, sort: Sort[]): Promise<SelectionResponse>;
  /** Changes when the rows must be fetched again (new search, saved record). */
  reloadToken: number;
  onSelectionChange(rows: GenericRow[]): void;
  /** More than the cap was selected; the grid has already kept only the first rows. */
  onSelectionCapped(): void;
  onTotal(total: number, estimated: boolean): void;
  /** The user dragged a column to a new width (remembered per user and page). */
  onColumnResized?(name: string, width: number): void;
  onRowOpen?(row: GenericRow): void;
  /** Accessible name of the grid. */
  label: string;
  /** The grid's own texts in the user's language (ag-grid locale keys, e.g. loadingOoo, noRowsToShow). */
  localeText?: Record<string, string>;
}

interface CellParams extends ICellRendererParams<GenericRow> {
  gridColumn: GridColumn;
  /** The list's key column (its first shown column, the document number): never cut. */
  whole: boolean;
}

/**
 * A cell as a plain element, not a React component: the grid paints thousands of cells while the
 * user scrolls and a React root per cell costs far more (ag-grid runs a class with `getGui` as a
 * plain JavaScript renderer). Text past 12 characters is cut with an ellipsis and the full text is
 * on hover, except in the first shown column: it names the record (an order or document number),
 * and a number cut short is a number a shift cannot read or tell from the next one. The text is
 * set as text, never as markup.
 */
class TextCell implements ICellRendererComp<GenericRow> {
  private element: HTMLElement = document.createElement('span');

  init(params: CellParams): void {
    this.element = this.paint(params);
  }

  getGui(): HTMLElement {
    return this.element;
  }

  refresh(params: CellParams): boolean {
    const next = this.paint(params);
    this.element.replaceWith(next);
    this.element = next;
    return true;
  }

  private paint(params: CellParams): HTMLElement {
    const column = params.gridColumn;
    const row = params.data;
    const value = row ? row[column.field.name] : undefined;
    const text = row ? column.format(value, row) : '';
    const shown = params.whole ? text : truncateText(text);
    const linked = column.onLink !== undefined && row !== undefined && text !== '';
    const element = document.createElement(linked ? 'a' : 'span');
    element.textContent = shown;
    if (shown !== text) {
      element.title = text;
      element.dataset.fullText = text;
    }
    if (linked) {
      const open = column.onLink!;
      element.setAttribute('href', '#');
      element.addEventListener('click', (event) => {
        event.preventDefault();
        event.stopPropagation();
        open(value as ScalarValue, row);
      });
    }
    return element;
  }
}

/** A row's node id in the grid: its key. The selection cap tells the kept nodes by it. */
function rowId(row: GenericRow): string {
  return String(row._key);
}

/**
 * The list of a page: ag-grid's infinite row model asks the server for one
 * page at a time as the user scrolls (or, with paging, as the user turns the grid's pages), with the sort of the clicked headers; blocks are exactly one
 * server page so no request overlaps another. Selection is capped at 100 rows.
 */
export function DataGrid(props: DataGridProps) {
  const apiRef = useRef<GridApi<GenericRow> | null>(null);
  const propsRef = useRef(props);
  useEffect(() => {
    propsRef.current = props;
  });

  const columnDefs = useMemo<ColDef<GenericRow>[]>(
    () =>
      props.columns.map((column, index, all) => ({
        colId: column.field.name,
        field: column.field.name,
        headerName: column.header,
        hide: column.hidden,
        sortable: true,
        resizable: true,
        ...(column.width ? { width: column.width } : {}),
        minWidth: 90,
        cellRenderer: TextCell,
        cellRendererParams: { gridColumn: column, whole: index === all.findIndex((c) => !c.hidden) },
        sort: props.defaultSort?.find((sort) => sort.field === column.field.name)?.direction ?? null,
      })),
    [props.columns, props.defaultSort],
  );

  const datasource = useMemo<IDatasource>(
    () => ({
      getRows(params) {
        const { pageSize } = propsRef.current;
        const page = Math.floor(params.startRow / pageSize) + 1;
        const sort: Sort[] = params.sortModel.map((item) => ({ field: item.colId, direction: item.sort }));
        propsRef.current.fetchRows(page, pageSize, sort).then(
          (answer) => {
            const estimated = answer.totalEstimated === true;
            propsRef.current.onTotal(answer.total, estimated);
            // An estimated total is not a row count the grid may trust: the last row is known only
            // once a page comes back short.
            const lastRow = !estimated ? answer.total : answer.rows.length < pageSize ? params.startRow + answer.rows.length : undefined;
            params.successCallback(answer.rows, lastRow);
            // Columns without a width of the user's fit what the first rows show.
            if (params.startRow === 0) {
              const unsized = propsRef.current.columns.filter((column) => !column.width && !column.hidden).map((column) => column.field.name);
              if (unsized.length) setTimeout(() => apiRef.current?.autoSizeColumns(unsized, false), 0);
            }
          },
          () => params.failCallback(),
        );
      },
    }),
    // A new token is a new datasource: ag-grid drops its cache and starts again from the top.
    // oxlint-disable-next-line react/exhaustive-deps
    [props.reloadToken],
  );

  // Reloaded rows are new rows: nothing stays selected that the toolbar no longer knows about.
  useEffect(() => {
    apiRef.current?.deselectAll();
  }, [props.reloadToken]);

  const onSelectionChanged = (event: SelectionChangedEvent<GenericRow>) => {
    const rows = event.api.getSelectedRows();
    if (rows.length > MAX_SELECTION) {
      const kept = rows.slice(0, MAX_SELECTION);
      const keptIds = new Set(kept.map(rowId));
      // Only nodes with an id can be deselected through the API: one without (a row still loading)
      // would make ag-grid refuse the whole call, and it holds no row the toolbar counts anyway.
      const nodes = event.api.getSelectedNodes().filter((node) => node.id !== undefined && !keptIds.has(node.id));
      event.api.setNodesSelected({ nodes, newValue: false });
      props.onSelectionCapped();
      // The toolbar is told the capped rows here rather than by the change event of the
      // deselection above: ag-grid coalesces the selection changes of one batch into a single
      // event, and one made while the batch is still open may come late or not at all.
      props.onSelectionChange(kept);
      return;
    }
    props.onSelectionChange(rows);
  };

  const reducedMotion = useContext(ReducedMotionContext);
  return (
    <div className="engine-grid" role="region" aria-label={props.label} style={{ height: '100%', minHeight: 320, width: '100%' }}>
      <AgGridReact<GenericRow>
        modules={GRID_MODULES}
        columnDefs={columnDefs}
        rowModelType="infinite"
        animateRows={!reducedMotion}
        datasource={datasource}
        cacheBlockSize={props.pageSize}
        pagination={props.paging === true}
        paginationPageSize={props.pageSize}
        paginationPageSizeSelector={false}
        maxConcurrentDatasourceRequests={2}
        infiniteInitialRowCount={1}
        getRowId={(params) => rowId(params.data)}
        rowSelection={{ mode: 'multiRow', headerCheckbox: false, enableClickSelection: true }}
        onSelectionChanged={onSelectionChanged}
        onGridReady={(event) => {
          apiRef.current = event.api;
        }}
        onRowDoubleClicked={(event) => {
          if (event.data) props.onRowOpen?.(event.data);
        }}
        suppressCellFocus={false}
        onColumnResized={(event) => {
          if (event.finished && event.source === 'uiColumnResized' && event.column) {
            propsRef.current.onColumnResized?.(event.column.getColId(), event.column.getActualWidth());
          }
        }}
        localeText={props.localeText}
      />
    </div>
  );
}
