/**
 * The page the grid benchmark opens (tests/bench/grid.bench.ts): the engine's DataGrid, exactly as
 * PageView uses it, with 50 columns over 10,000 rows. Rows are answered in pages of 100 as the
 * server's `/api/generic/selection` answers them (through a JSON round trip), so what is measured
 * is the browser's half: fetching pages, building rows and painting cells while scrolling.
 */
import { createRoot } from 'react-dom/client';
import type { FieldDefinition, Sort } from '../../../engine/schema/index.js';
import type { GenericRow, SelectionResponse } from '../../../engine/schema/api.js';
import { DataGrid, type GridColumn } from '../../../engine/client/DataGrid.js';

const params = new URLSearchParams(location.search);
const COLUMNS = Number(params.get('columns') ?? 50);
const ROWS = Number(params.get('rows') ?? 10_000);
const PAGE_SIZE = Number(params.get('pageSize') ?? 100);

const fields: FieldDefinition[] = Array.from({ length: COLUMNS }, (_, i) => ({
  name: `c${i}`,
  labelCode: `c${i}`,
  type: i % 5 === 1 ? 'decimal' : 'string',
}));

const columns: GridColumn[] = fields.map((field) => ({
  field,
  header: `Column ${field.name}`,
  hidden: false,
  format: (value) => (typeof value === 'string' ? value : ''),
}));

function makeRow(index: number): GenericRow {
  const row: GenericRow = { _key: index + 1, _version: '2024-01-01T00:00:00.000Z' };
  for (let c = 0; c < COLUMNS; c++) row[`c${c}`] = c % 5 === 1 ? String((index * 7 + c) / 100) : `R${index}-C${c} text that is long`;
  return row;
}

async function fetchRows(page: number, pageSize: number, _sort: Sort[]): Promise<SelectionResponse> {
  const start = (page - 1) * pageSize;
  const rows = Array.from({ length: Math.max(0, Math.min(pageSize, ROWS - start)) }, (_, i) => makeRow(start + i));
  const body = JSON.stringify({ rows, total: ROWS });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return JSON.parse(body) as SelectionResponse;
}

const stats = { fetches: 0 };
(window as unknown as { benchStats: typeof stats }).benchStats = stats;

createRoot(document.getElementById('root')!).render(
  <DataGrid
    label="benchmark"
    columns={columns}
    pageSize={PAGE_SIZE}
    fetchRows={(page, size, sort) => {
      stats.fetches++;
      return fetchRows(page, size, sort);
    }}
    reloadToken={0}
    onSelectionChange={() => undefined}
    onSelectionCapped={() => undefined}
    onTotal={() => undefined}
  />,
);
