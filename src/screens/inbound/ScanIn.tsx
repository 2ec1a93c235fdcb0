import { useState } from 'react';
import { Button, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, showSuccess } from '../../app/public';
import { beep, FeedbackLine, messageOf, ScanField, type Feedback } from './handheld';

interface Carton {
  id: number;
  asn_no: string;
  container_id: string;
  carton_id: string;
  sku_code: string;
  qty: string;
  status: string;
}

interface SkuTotal {
  skuCode: string;
  description: string;
  cartons: number;
  qty: string;
  scannedQty: string;
  receivedQty: string;
}

/**
 * Scan-in (spec sections 5 and 7, /scanin/*, /scan/*): scan a container or carton id (it must exist
 * and not be received yet), see the cartons and SKUs of the container, convert the scanned cartons
 * to a receipt at a location, cancel a scan, or delete a container id.
 */
export default function ScanIn() {
  const { t } = useTranslation();
  const [containerId, setContainerId] = useState<string | null>(null);
  const [lastCode, setLastCode] = useState<string | null>(null);
  const [cartons, setCartons] = useState<Carton[]>([]);
  const [skus, setSkus] = useState<SkuTotal[]>([]);
  const [location, setLocation] = useState('');
  const [lpn, setLpn] = useState('');
  const [feedback, setFeedback] = useState<Feedback | null>(null);

  const refresh = async (id: string) => {
    const [table, list] = await Promise.all([
      api<{ cartons: Carton[] }>('/scan/table', { body: { containerId: id }, quiet: true }),
      api<{ skus: SkuTotal[] }>('/scanIn/listSku', { body: { containerId: id }, quiet: true }),
    ]);
    setCartons(table.cartons);
    setSkus(list.skus);
  };

  const fail = (error: unknown) => {
    setFeedback({ tone: 'error', text: messageOf(error) });
    beep('error');
  };

  const scan = async (code: string) => {
    try {
      const answer = await api<{ kind: string; containerId: string; cartons: Carton[] }>('/scanin/id', { body: { code: code.trim() }, quiet: true });
      setContainerId(answer.containerId);
      setLastCode(code.trim());
      await refresh(answer.containerId);
      setFeedback({ tone: 'success', text: t('inb.ui.scanned', { code: code.trim() }) });
      beep('success');
    } catch (error) {
      fail(error);
    }
  };

  const convert = async () => {
    if (!containerId) return;
    try {
      const answer = await api<{ receipts: { receiptNo: string }[] }>('/scanin/convertToRec', { body: { containerId, locationCode: location.trim(), lpn: lpn.trim() || null }, quiet: true });
      void showSuccess({ type: 'success', content: t('inb.ui.batchReceived', { receipts: answer.receipts.map((r) => r.receiptNo).join(', ') }) });
      setFeedback({ tone: 'success', text: t('inb.ui.batchReceived', { receipts: answer.receipts.map((r) => r.receiptNo).join(', ') }) });
      await refresh(containerId);
    } catch (error) {
      fail(error);
    }
  };

  const cancel = async () => {
    if (!lastCode || !containerId) return;
    try {
      await api('/scan/cancel', { body: { code: lastCode }, quiet: true });
      await refresh(containerId);
      setFeedback({ tone: 'warning', text: t('inb.ui.scanCancelled', { code: lastCode }) });
      beep('warning');
    } catch (error) {
      fail(error);
    }
  };

  const remove = async () => {
    if (!containerId) return;
    try {
      await api('/scan/deleteContainerId', { body: { containerId }, quiet: true });
      setFeedback({ tone: 'warning', text: t('inb.ui.containerDeleted', { code: containerId }) });
      beep('warning');
      setCartons([]);
      setSkus([]);
      setContainerId(null);
    } catch (error) {
      fail(error);
    }
  };

  return (
    <div data-testid="scan-in" style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <div style={{ maxWidth: 360 }}>
        <ScanField testId="scanin-field" label={t('inb.ui.scanContainerOrCarton')} onScan={(code) => void scan(code)} />
      </div>
      <FeedbackLine feedback={feedback} />
      {containerId && (
        <>
          <Typography.Text strong>{t('inb.ui.container', { code: containerId })}</Typography.Text>
          <Table<SkuTotal>
            rowKey="skuCode"
            size="small"
            pagination={false}
            dataSource={skus}
            columns={[
              { title: t('inb.field.sku'), dataIndex: 'skuCode' },
              { title: t('inb.field.description'), dataIndex: 'description' },
              { title: t('inb.ui.cartons'), dataIndex: 'cartons' },
              { title: t('inb.field.expectedQty'), render: (_, s) => Number(s.qty) },
              { title: t('inb.ui.scannedQty'), render: (_, s) => Number(s.scannedQty) },
              { title: t('inb.field.receivedQty'), render: (_, s) => Number(s.receivedQty) },
            ]}
          />
          <Table<Carton>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={cartons}
            columns={[
              { title: t('inb.field.cartonId'), dataIndex: 'carton_id' },
              { title: t('inb.field.asnNo'), dataIndex: 'asn_no' },
              { title: t('inb.field.sku'), dataIndex: 'sku_code' },
              { title: t('inb.field.qty'), render: (_, c) => Number(c.qty) },
              { title: t('inb.field.status'), render: (_, c) => <Tag data-testid={`carton-${c.carton_id}`}>{t(`inb.cartonStatus.${c.status}`)}</Tag> },
            ]}
          />
          <Space wrap>
            <Input data-testid="scanin-location" placeholder={t('inb.field.location')} value={location} onChange={(e) => setLocation(e.target.value)} style={{ width: 160 }} />
            <Input data-testid="scanin-lpn" placeholder={t('inb.field.lpn')} value={lpn} onChange={(e) => setLpn(e.target.value)} style={{ width: 160 }} />
            <Button type="primary" data-testid="scanin-convert" onClick={() => void convert()}>
              {t('inb.ui.convertToReceipt')}
            </Button>
            <Button data-testid="scanin-cancel" onClick={() => void cancel()} disabled={!lastCode}>
              {t('inb.ui.cancelScan')}
            </Button>
            <Popconfirm title={t('inb.ui.deleteContainerConfirm', { code: containerId })} onConfirm={() => void remove()}>
              <Button danger data-testid="scanin-delete">
                {t('inb.ui.deleteContainer')}
              </Button>
            </Popconfirm>
          </Space>
        </>
      )}
    </div>
  );
}
