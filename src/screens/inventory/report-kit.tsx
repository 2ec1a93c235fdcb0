import { useCallback, useState, type ReactNode } from 'react';
import { Table } from 'antd';
import type { TFunction } from 'i18next';
import type { PagedAnswer } from '../../common/inventory-api';
import { api, showSuccess } from '../../app/public';

/** What the inventory reports (transaction log, standard balance) share: their columns, pages and background export. */

/** Rows a report page shows. */
export const REPORT_PAGE_SIZE = 50;

/** The title (locale key) of each field an inventory report shows. */
const FIELD_TITLES: Record<string, string> = {
  trans_time: 'inv.field.transTime',
  trans_type: 'inv.field.transType',
  trans_status: 'inv.field.transStatus',
  order_no: 'inv.field.orderNo',
  reference_line: 'inv.field.lineNo',
  owner_code: 'inv.field.owner',
  sku_code: 'inv.field.sku',
  sku_description: 'inv.field.skuName',
  lot_no: 'inv.field.lot',
  trace_id: 'inv.field.traceId',
  location_code: 'inv.field.location',
  lpn: 'inv.field.lpn',
  qty: 'inv.field.qty',
  held_qty: 'inv.field.heldQty',
  held_change: 'inv.field.heldChange',
  before_qty: 'inv.field.beforeQty',
  after_qty: 'inv.field.afterQty',
  uom: 'inv.field.uom',
  reason: 'inv.field.reason',
  description: 'inv.field.description',
  operator: 'inv.field.operator',
};

/** Quantities, right-aligned. */
const QUANTITIES = new Set(['qty', 'held_qty', 'held_change', 'before_qty', 'after_qty']);

interface ReportColumn {
  key: string;
  dataIndex: string;
  title: string;
  align?: 'right';
  render?: (value: string) => ReactNode;
}

/** A report's columns in this order, each titled by its field; `special` gives a field another title or a renderer. */
export function reportColumns(t: TFunction, fields: readonly string[], special: Record<string, { titleKey?: string; render?: (value: string) => ReactNode }> = {}): ReportColumn[] {
  return fields.map((key) => ({
    key,
    dataIndex: key,
    title: t(special[key]?.titleKey ?? FIELD_TITLES[key]),
    ...(QUANTITIES.has(key) ? { align: 'right' as const } : {}),
    ...(special[key]?.render ? { render: special[key].render } : {}),
  }));
}

/**
 * The pages of a report: `load(page)` asks for one with `request`; a failed request (its message
 * already shown by the API client) empties the table when `emptyOnFailure`, else leaves it as it was.
 */
export function useReportPages<Row>(request: (page: number) => Promise<PagedAnswer<Row>>, emptyOnFailure: boolean) {
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<PagedAnswer<Row> | null>(null);
  const [loading, setLoading] = useState(false);
  const load = useCallback(
    (toPage: number) => {
      setLoading(true);
      request(toPage)
        .then((result) => {
          setAnswer(result);
          setPage(toPage);
        })
        .catch(() => {
          if (emptyOnFailure) setAnswer({ rows: [], total: 0 });
        })
        .finally(() => setLoading(false));
    },
    [request, emptyOnFailure],
  );
  return { page, answer, loading, load };
}

/** The report as a file written in the background into the download center; a refusal is shown by the API client. */
export async function exportInBackground(t: TFunction, path: string, body: unknown): Promise<void> {
  try {
    await api(path, { method: 'POST', body });
    await showSuccess({ type: 'success', content: t('ui.download.started') });
  } catch {
    // Shown by the API client.
  }
}

/** A report's table, a page at a time with the total. */
export function ReportTable<Row extends object>({
  t,
  testId,
  rowKey,
  columns,
  pages,
}: {
  t: TFunction;
  testId: string;
  rowKey: string | ((row: Row) => string);
  columns: ReportColumn[];
  pages: ReturnType<typeof useReportPages<Row>>;
}) {
  return (
    <Table<Row>
      size="small"
      rowKey={rowKey}
      loading={pages.loading}
      columns={columns}
      dataSource={pages.answer?.rows ?? []}
      data-testid={testId}
      pagination={{ current: pages.page, pageSize: REPORT_PAGE_SIZE, total: pages.answer?.total ?? 0, showSizeChanger: false, onChange: pages.load, showTotal: (total) => t('inv.screen.total', { total }) }}
    />
  );
}
