import { useCallback, useState } from 'react';
import { Button, Input, Select, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, download, showSuccess } from '../../app/public';

interface LedgerLine {
  id: number;
  trans_time: string;
  trans_type: string;
  order_no: string | null;
  operator: string;
  owner_code: string;
  sku_code: string;
  lot_no: string;
  location_code: string;
  lpn: string;
  qty: string;
  before_qty: string;
  after_qty: string;
  uom: string | null;
  reason: string | null;
}

const TYPES = ['all', 'receive', 'putaway', 'move', 'adjust', 'hold', 'release', 'transfer_out', 'transfer_in', 'count', 'allocate', 'unallocate', 'pick', 'unpick', 'ship'];

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The transaction log (spec section 5): a type and a query period must be chosen, and the period
 * must lie within the configured number of days; the server refuses otherwise, with its message.
 * The export is streamed by the server as an xlsx file, or written in the background into the
 * download center.
 */
export default function TransactionLogScreen() {
  const { t } = useTranslation();
  const [transType, setTransType] = useState<string | undefined>(undefined);
  const [from, setFrom] = useState(today());
  const [to, setTo] = useState(today());
  const [skuCode, setSkuCode] = useState('');
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<{ rows: LedgerLine[]; total: number } | null>(null);
  const [loading, setLoading] = useState(false);

  const body = useCallback((toPage?: number) => ({ transType: transType ?? null, from: from || null, to: to || null, skuCode: skuCode || null, ...(toPage ? { page: toPage, pageSize: 50 } : {}) }), [transType, from, to, skuCode]);

  const load = useCallback(
    (toPage: number) => {
      setLoading(true);
      api<{ rows: LedgerLine[]; total: number }>('/inventory/transactionLog', { method: 'POST', body: body(toPage) })
        .then((result) => {
          setAnswer(result);
          setPage(toPage);
        })
        .catch(() => undefined)
        .finally(() => setLoading(false));
    },
    [body],
  );

  /** Large periods: the server writes the file into the download center, with its progress there. */
  const exportInBackground = async () => {
    try {
      await api('/inventory/transactionLog/background', { method: 'POST', body: body() });
      await showSuccess({ type: 'success', content: t('ui.download.started') });
    } catch {
      // The refusal (type, period) is shown by the API client.
    }
  };

  const columns = [
    { key: 'trans_time', title: t('inv.field.transTime'), render: (value: string) => value.replace('T', ' ').slice(0, 19) },
    { key: 'trans_type', title: t('inv.field.transType'), render: (value: string) => t(`inv.transType.${value}`) },
    { key: 'order_no', title: t('inv.field.orderNo') },
    { key: 'owner_code', title: t('inv.field.owner') },
    { key: 'sku_code', title: t('inv.field.sku') },
    { key: 'lot_no', title: t('inv.field.lot') },
    { key: 'location_code', title: t('inv.field.location') },
    { key: 'lpn', title: t('inv.field.lpn') },
    { key: 'qty', title: t('inv.field.qty'), align: 'right' as const },
    { key: 'before_qty', title: t('inv.field.beforeQty'), align: 'right' as const },
    { key: 'after_qty', title: t('inv.field.afterQty'), align: 'right' as const },
    { key: 'reason', title: t('inv.field.reason') },
    { key: 'operator', title: t('inv.field.operator') },
  ].map((c) => ({ ...c, dataIndex: c.key }));

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
        <Input placeholder={t('inv.field.sku')} value={skuCode} onChange={(e) => setSkuCode(e.target.value)} data-testid="transaction-log-sku" style={{ width: 160 }} />
        <Button type="primary" onClick={() => load(1)} data-testid="transaction-log-search">
          {t('inv.screen.search')}
        </Button>
        <Button onClick={() => void download('/inventory/exportInvTranLog', { method: 'POST', body: body() }).catch(() => undefined)} data-testid="transaction-log-export">
          {t('inv.screen.export')}
        </Button>
        <Button onClick={() => void exportInBackground()} data-testid="transaction-log-export-background">
          {t('ui.download.exportBackground')}
        </Button>
      </Space>
      <Table<LedgerLine>
        size="small"
        rowKey="id"
        loading={loading}
        columns={columns}
        dataSource={answer?.rows ?? []}
        data-testid="transaction-log-table"
        pagination={{ current: page, pageSize: 50, total: answer?.total ?? 0, showSizeChanger: false, onChange: load, showTotal: (total) => t('inv.screen.total', { total }) }}
      />
    </div>
  );
}
