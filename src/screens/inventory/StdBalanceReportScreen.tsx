import { useCallback, useState } from 'react';
import { Button, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PagedAnswer, StandardBalanceRow } from '../../common/inventory-api';
import { api } from '../../app/public';
import { LookupInput } from './lookup';
import { exportInBackground, REPORT_PAGE_SIZE, ReportTable, reportColumns, useReportPages } from './report-kit';

function yesterday(): string {
  const at = new Date(Date.now() - 86_400_000);
  return at.toISOString().slice(0, 10);
}

/**
 * The standard balance report (`getSTDBalanceList`): the stock at the end of any past day, which
 * the server computes from today's balance and the ledger rows written since.
 */
export default function StdBalanceReportScreen() {
  const { t } = useTranslation();
  const [asOf, setAsOf] = useState(yesterday());
  const [skuCode, setSkuCode] = useState('');

  const request = useCallback(
    (page: number) => api<PagedAnswer<StandardBalanceRow>>('/inventory/getSTDBalanceList', { method: 'POST', body: { asOf, skuCode: skuCode || null, page, pageSize: REPORT_PAGE_SIZE } }),
    [asOf, skuCode],
  );
  const pages = useReportPages(request, true);
  const columns = reportColumns(t, ['owner_code', 'sku_code', 'sku_description', 'lot_no', 'location_code', 'lpn', 'qty', 'held_qty', 'uom'], { qty: { titleKey: 'inv.field.onHandQty' } });

  return (
    <div data-testid="std-balance-screen">
      <Typography.Title level={4}>{t('menu.stdBalanceReport')}</Typography.Title>
      <Space wrap style={{ marginBottom: 12 }}>
        <span>{t('inv.field.asOf')}</span>
        <Input type="date" value={asOf} max={new Date().toISOString().slice(0, 10)} onChange={(e) => setAsOf(e.target.value)} data-testid="std-balance-as-of" style={{ width: 170 }} />
        <LookupInput lookup="sku" placeholder={t('inv.field.sku')} value={skuCode} onChange={setSkuCode} testId="std-balance-sku" width={160} />
        <Button type="primary" onClick={() => pages.load(1)} disabled={!asOf} data-testid="std-balance-search">
          {t('inv.screen.search')}
        </Button>
        <Button onClick={() => void exportInBackground(t, '/inventory/balanceReport/background', { asOf, skuCode: skuCode || null })} disabled={!asOf} data-testid="std-balance-export-background">
          {t('ui.download.exportBackground')}
        </Button>
      </Space>
      <ReportTable<StandardBalanceRow>
        t={t}
        testId="std-balance-table"
        rowKey={(row) => `${row.owner_code}|${row.sku_code}|${row.lot_no}|${row.location_code}|${row.lpn}`}
        columns={columns}
        pages={pages}
      />
    </div>
  );
}
