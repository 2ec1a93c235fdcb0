import { useState } from 'react';
import { Button, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ContainerCarton, ContainerSku, ReceiveResult } from '../../common/inbound-api';
import { ReceiptLinks } from './ReceiptLinks';
import { showSuccess } from '../../app/public';
import { FeedbackLine, ScanField, useFeedback } from './handheld';
import { qtyColumn } from './columns';
import * as calls from './inbound-calls';

/**
 * Scan-in (/scanin/*, /scan/*): scan a container or carton id (it must exist and not be received
 * yet), see the cartons and SKUs of the container, convert the scanned cartons to a receipt at a
 * location, cancel a scan, or delete a container id.
 */
export default function ScanIn() {
  const { t } = useTranslation();
  const [containerId, setContainerId] = useState<string | null>(null);
  const [lastCode, setLastCode] = useState<string | null>(null);
  const [cartons, setCartons] = useState<ContainerCarton[]>([]);
  const [skus, setSkus] = useState<ContainerSku[]>([]);
  const [location, setLocation] = useState('');
  const [lpn, setLpn] = useState('');
  const [epc, setEpc] = useState('');
  const [cartonType, setCartonType] = useState('');
  const [antiCounterfeitCode, setAntiCounterfeitCode] = useState('');
  const [made, setMade] = useState<ReceiveResult[]>([]);
  const { feedback, setFeedback, tell, fail } = useFeedback();

  const refresh = async (id: string) => {
    const [table, list] = await Promise.all([calls.containerCartons(id), calls.containerSkus(id)]);
    setCartons(table.cartons);
    setSkus(list.skus);
  };

  const scan = async (code: string) => {
    try {
      const answer = await calls.scanInCode(code.trim(), { epc: epc.trim(), cartonType: cartonType.trim(), antiCounterfeitCode: antiCounterfeitCode.trim() });
      if (answer.kind === 'carton') {
        setEpc('');
        setAntiCounterfeitCode('');
      }
      setContainerId(answer.containerId);
      setLastCode(code.trim());
      await refresh(answer.containerId);
      tell('success', t('inb.ui.scanned', { code: code.trim() }));
    } catch (error) {
      fail(error);
    }
  };

  const convert = async () => {
    if (!containerId) return;
    try {
      const answer = await calls.receiveContainer(containerId, location.trim(), lpn.trim() || null);
      const text = t('inb.ui.batchReceived', { receipts: calls.receiptNos(answer) });
      void showSuccess({ type: 'success', content: text });
      setFeedback({ tone: 'success', text });
      setMade(answer.receipts);
      await refresh(containerId);
    } catch (error) {
      fail(error);
    }
  };

  const cancel = async () => {
    if (!lastCode || !containerId) return;
    try {
      await calls.cancelScan(lastCode);
      await refresh(containerId);
      tell('warning', t('inb.ui.scanCancelled', { code: lastCode }));
    } catch (error) {
      fail(error);
    }
  };

  const remove = async () => {
    if (!containerId) return;
    try {
      await calls.deleteContainer(containerId);
      tell('warning', t('inb.ui.containerDeleted', { code: containerId }));
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
      <Space wrap>
        <Input data-testid="scanin-epc" placeholder={t('inb.ui.epcPlaceholder')} aria-label={t('inb.field.epc')} value={epc} onChange={(e) => setEpc(e.target.value)} style={{ width: 220 }} />
        <Input
          data-testid="scanin-carton-type"
          placeholder={t('inb.ui.cartonTypePlaceholder')}
          aria-label={t('inb.field.cartonType')}
          value={cartonType}
          onChange={(e) => setCartonType(e.target.value)}
          style={{ width: 160 }}
        />
        <Input
          data-testid="scanin-anti-counterfeit"
          placeholder={t('inb.ui.antiCounterfeitPlaceholder')}
          aria-label={t('inb.field.antiCounterfeitCode')}
          value={antiCounterfeitCode}
          onChange={(e) => setAntiCounterfeitCode(e.target.value)}
          style={{ width: 280 }}
        />
      </Space>
      <FeedbackLine feedback={feedback} />
      <ReceiptLinks receipts={made} />
      {containerId && (
        <>
          <Typography.Text strong>{t('inb.ui.container', { code: containerId })}</Typography.Text>
          <Table<ContainerSku>
            rowKey="skuCode"
            size="small"
            pagination={false}
            dataSource={skus}
            columns={[
              { title: t('inb.field.sku'), dataIndex: 'skuCode' },
              { title: t('inb.field.description'), dataIndex: 'description' },
              { title: t('inb.ui.cartons'), dataIndex: 'cartons' },
              qtyColumn<ContainerSku>(t('inb.field.expectedQty'), (s) => s.qty),
              qtyColumn<ContainerSku>(t('inb.ui.scannedQty'), (s) => s.scannedQty),
              qtyColumn<ContainerSku>(t('inb.field.receivedQty'), (s) => s.receivedQty),
            ]}
          />
          <Table<ContainerCarton>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={cartons}
            columns={[
              { title: t('inb.field.cartonId'), dataIndex: 'carton_id' },
              { title: t('inb.field.asnNo'), dataIndex: 'asn_no' },
              { title: t('inb.field.sku'), dataIndex: 'sku_code' },
              qtyColumn<ContainerCarton>(t('inb.field.qty'), (c) => c.qty),
              { title: t('inb.field.epc'), dataIndex: 'epc' },
              { title: t('inb.field.cartonType'), dataIndex: 'carton_type' },
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
