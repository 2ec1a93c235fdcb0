import { useCallback, useState } from 'react';
import { Button, Input, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PagedAnswer, TransactionLogRow } from '../../common/inventory-api';
import { api, download } from '../../app/public';
import { LookupInput } from './lookup';
import { exportInBackground, REPORT_PAGE_SIZE, ReportTable, reportColumns, useReportPages } from './report-kit';

const TYPES = ['all', 'receive', 'putaway', 'move', 'adjust', 'hold', 'release', 'transfer_out', 'transfer_in', 'count', 'allocate', 'unallocate', 'pick', 'unpick', 'ship'];

const today = () => new Date().toISOString().slice(0, 10);

/** The optional text filters, each matched exactly, with its field text; SKU and location offer the codes that start with what is typed. */
const FILTERS = [
  { name: 'skuCode', label: 'inv.field.sku', testId: 'transaction-log-sku', lookup: 'sku' },
  { name: 'locationCode', label: 'inv.field.location', testId: 'transaction-log-location', lookup: 'location' },
  { name: 'orderNo', label: 'inv.field.orderNo', testId: 'transaction-log-order' },
  { name: 'ownerCode', label: 'inv.field.owner', testId: 'transaction-log-owner' },
  { name: 'lotNo', label: 'inv.field.lot', testId: 'transaction-log-lot' },
  { name: 'lpn', label: 'inv.field.lpn', testId: 'transaction-log-lpn' },
] as const;

type FilterName = (typeof FILTERS)[number]['name'];

/** The ledger's fields, in the order of the table's columns. */
const COLUMNS = ['trans_time', 'trans_type', 'trans_status', 'order_no', 'reference_line', 'owner_code', 'sku_code', 'sku_description', 'lot_no', 'trace_id', 'location_code', 'lpn', 'qty', 'held_change', 'before_qty', 'after_qty', 'uom', 'reason', 'description', 'operator'];

/**
 * The transaction log: a type (all types unless narrowed) and a query period must be chosen, and the period must lie within
 * the configured number of days; the server refuses otherwise, with its message. SKU, location,
 * order, owner, lot and LPN narrow it. The export is streamed by the server as an xlsx file, or
 * written in the background into the download center.
 */
export default function TransactionLogScreen() {
  const { t } = useTranslation();
  const [transType, setTransType] = useState<string | undefined>('all');
  const [from, setFrom] = useState(today());
  const [to, setTo] = useState(today());
  const [filters, setFilters] = useState<Record<FilterName, string>>({ skuCode: '', locationCode: '', orderNo: '', ownerCode: '', lotNo: '', lpn: '' });

  const body = useCallback(
    (toPage?: number) => ({
      transType: transType ?? null,
      from: from || null,
      to: to || null,
      ...Object.fromEntries(FILTERS.map(({ name }) => [name, filters[name].trim() || null])),
      ...(toPage ? { page: toPage, pageSize: REPORT_PAGE_SIZE } : {}),
    }),
    [transType, from, to, filters],
  );

  const request = useCallback((page: number) => api<PagedAnswer<TransactionLogRow>>('/inventory/transactionLog', { method: 'POST', body: body(page) }), [body]);
  const pages = useReportPages(request, false);

  const columns = reportColumns(t, COLUMNS, {
    trans_time: { render: (value) => value.replace('T', ' ').slice(0, 19) },
    trans_type: { render: (value) => t(`inv.transType.${value}`) },
  });

  return (
    <div data-testid="transaction-log-screen">
      <Typography.Title level={4}>{t('menu.transaction')}</Typography.Title>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          placeholder={t('inv.field.transType')}
          value={transType}
          onChange={setTransType}
          style={{ width: 180 }}
          data-testid="transaction-log-type"
          options={TYPES.map((value) => ({ value, label: t(`inv.transType.${value}`) }))}
        />
        <span>{t('inv.field.from')}</span>
        <Input type="date" value={from} onChange={(e) => setFrom(e.target.value)} data-testid="transaction-log-from" style={{ width: 170 }} />
        <span>{t('inv.field.to')}</span>
        <Input type="date" value={to} onChange={(e) => setTo(e.target.value)} data-testid="transaction-log-to" style={{ width: 170 }} />
        {FILTERS.map((filter) =>
          'lookup' in filter ? (
            <LookupInput
              key={filter.name}
              lookup={filter.lookup}
              placeholder={t(filter.label)}
              value={filters[filter.name]}
              onChange={(text) => setFilters((current) => ({ ...current, [filter.name]: text }))}
              testId={filter.testId}
              width={140}
            />
          ) : (
            <Input
              key={filter.name}
              placeholder={t(filter.label)}
              value={filters[filter.name]}
              onChange={(e) => setFilters((current) => ({ ...current, [filter.name]: e.target.value }))}
              data-testid={filter.testId}
              style={{ width: 140 }}
            />
          ),
        )}
        <Button type="primary" onClick={() => pages.load(1)} data-testid="transaction-log-search">
          {t('inv.screen.search')}
        </Button>
        <Button onClick={() => void download('/inventory/exportInvTranLog', { method: 'POST', body: body() }).catch(() => undefined)} data-testid="transaction-log-export">
          {t('inv.screen.export')}
        </Button>
        {/* Large periods: the server writes the file into the download center, with its progress there. */}
        <Button onClick={() => void exportInBackground(t, '/inventory/transactionLog/background', body())} data-testid="transaction-log-export-background">
          {t('ui.download.exportBackground')}
        </Button>
      </Space>
      <ReportTable<TransactionLogRow> t={t} testId="transaction-log-table" rowKey="id" columns={columns} pages={pages} />
    </div>
  );
}
