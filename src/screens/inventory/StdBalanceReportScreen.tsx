import { useCallback, useState } from 'react';
import { Button, Input, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, showSuccess } from '../../app/public';

interface BalanceLine {
  owner_code: string;
  sku_code: string;
  sku_description: string;
  uom: string;
  lot_no: string;
  location_code: string;
  lpn: string;
  qty: string;
  held_qty: string;
}

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
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<{ rows: BalanceLine[]; total: number } | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(
    (toPage: number) => {
      setLoading(true);
      api<{ rows: BalanceLine[]; total: number }>('/inventory/getSTDBalanceList', { method: 'POST', body: { asOf, skuCode: skuCode || null, page: toPage, pageSize: 50 } })
        .then((result) => {
          setAnswer(result);
          setPage(toPage);
        })
        .catch(() => setAnswer({ rows: [], total: 0 }))
        .finally(() => setLoading(false));
    },
    [asOf, skuCode],
  );

  /** The report as a file in the download center, written in the background. */
  const exportInBackground = async () => {
    try {
      await api('/inventory/balanceReport/background', { method: 'POST', body: { asOf, skuCode: skuCode || null } });
      await showSuccess({ type: 'success', content: t('ui.download.started') });
    } catch {
      // Shown by the API client.
    }
  };

  const columns = [
    { key: 'owner_code', title: t('inv.field.owner') },
    { key: 'sku_code', title: t('inv.field.sku') },
    { key: 'sku_description', title: t('inv.field.skuName') },
    { key: 'lot_no', title: t('inv.field.lot') },
    { key: 'location_code', title: t('inv.field.location') },
    { key: 'lpn', title: t('inv.field.lpn') },
    { key: 'qty', title: t('inv.field.onHandQty'), align: 'right' as const },
    { key: 'held_qty', title: t('inv.field.heldQty'), align: 'right' as const },
    { key: 'uom', title: t('inv.field.uom') },
  ].map((c) => ({ ...c, dataIndex: c.key }));

  return (
    <div data-testid="std-balance-screen">
      <Typography.Title level={4}>{t('menu.stdBalanceReport')}</Typography.Title>
      <Space wrap style={{ marginBottom: 12 }}>
        <span>{t('inv.field.asOf')}</span>
        <Input type="date" value={asOf} max={new Date().toISOString().slice(0, 10)} onChange={(e) => setAsOf(e.target.value)} data-testid="std-balance-as-of" style={{ width: 170 }} />
        <Input placeholder={t('inv.field.sku')} value={skuCode} onChange={(e) => setSkuCode(e.target.value)} data-testid="std-balance-sku" style={{ width: 160 }} />
        <Button type="primary" onClick={() => load(1)} disabled={!asOf} data-testid="std-balance-search">
          {t('inv.screen.search')}
        </Button>
        <Button onClick={() => void exportInBackground()} disabled={!asOf} data-testid="std-balance-export-background">
          {t('ui.download.exportBackground')}
        </Button>
      </Space>
      <Table<BalanceLine>
        size="small"
        rowKey={(row) => `${row.owner_code}|${row.sku_code}|${row.lot_no}|${row.location_code}|${row.lpn}`}
        loading={loading}
        columns={columns}
        dataSource={answer?.rows ?? []}
        data-testid="std-balance-table"
        pagination={{ current: page, pageSize: 50, total: answer?.total ?? 0, showSizeChanger: false, onChange: load, showTotal: (total) => t('inv.screen.total', { total }) }}
      />
    </div>
  );
}
