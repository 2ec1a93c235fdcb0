import { useState } from 'react';
import { Card, Descriptions, Empty, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BarcodeLookupAnswer, BarcodeSku, BarcodeStockRow } from '../../common/barcode-api';
import { api } from '../../app/public';
import { beep, FeedbackLine, ScanField, useFeedback } from '../inbound/handheld';

/**
 * SKU and UPC search: scan or type any code — a SKU code, a UPC or EAN, the GTIN-14 of a case or a
 * GS1-128 label — and see the SKU(s) it names, what one scan of it counts in base units, and the
 * stock by location, lot and LPN in the session's warehouse. The scan field keeps the focus; Enter
 * searches, Escape clears the answer.
 */
export default function SkuSearch() {
  const { t } = useTranslation();
  const { feedback, setFeedback, fail } = useFeedback();
  const [answer, setAnswer] = useState<BarcodeLookupAnswer | null>(null);

  const search = async (scanned: string) => {
    try {
      const found = await api<BarcodeLookupAnswer>('/inventory/barcode', { query: { code: scanned }, quiet: true });
      setFeedback(null);
      beep('success');
      setAnswer(found);
    } catch (error) {
      setAnswer(null);
      fail(error);
    }
  };

  const clear = () => {
    setAnswer(null);
    setFeedback(null);
  };

  const columns = [
    { key: 'location', title: t('inv.skuSearch.location'), dataIndex: 'locationCode' },
    { key: 'lot', title: t('inv.skuSearch.lot'), dataIndex: 'lotNo' },
    { key: 'expiry', title: t('inv.skuSearch.expiry'), dataIndex: 'expiryDate', responsive: ['md' as const] },
    { key: 'lpn', title: t('inv.skuSearch.lpn'), dataIndex: 'lpn' },
    { key: 'onHand', title: t('inv.skuSearch.onHand'), dataIndex: 'onHand', align: 'right' as const },
    { key: 'allocated', title: t('inv.skuSearch.allocated'), dataIndex: 'allocated', align: 'right' as const },
    { key: 'picked', title: t('inv.skuSearch.picked'), dataIndex: 'picked', align: 'right' as const, responsive: ['md' as const] },
    { key: 'held', title: t('inv.skuSearch.held'), dataIndex: 'held', align: 'right' as const, responsive: ['md' as const] },
    { key: 'available', title: t('inv.skuSearch.available'), dataIndex: 'available', align: 'right' as const },
  ];

  const skuCard = (sku: BarcodeSku) => (
    <Card key={sku.skuId} size="small" data-testid="sku-search-result" data-sku={sku.skuCode} title={`${sku.skuCode} — ${sku.description}`}>
      <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3 }}>
        <Descriptions.Item label={t('inv.skuSearch.owner')}>{sku.ownerCode}</Descriptions.Item>
        <Descriptions.Item label={t('inv.skuSearch.barcode')}>{sku.barcode ?? <Tag>{t('inv.skuSearch.ownCode')}</Tag>}</Descriptions.Item>
        <Descriptions.Item label={t('inv.skuSearch.uom')}>{sku.uom}</Descriptions.Item>
        <Descriptions.Item label={t('inv.skuSearch.perScan')}>
          <span data-testid="sku-search-per-scan">{`${sku.perScan} ${sku.baseUom}`}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('inv.skuSearch.onHand')}>{sku.totals.onHand}</Descriptions.Item>
        <Descriptions.Item label={t('inv.skuSearch.available')}>
          <span data-testid="sku-search-available">{sku.totals.available}</span>
        </Descriptions.Item>
      </Descriptions>
      {sku.stock.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('inv.skuSearch.noStock')} />
      ) : (
        <Table<BarcodeStockRow>
          data-testid="sku-search-stock"
          size="small"
          pagination={false}
          scroll={{ x: true }}
          rowKey={(r) => `${r.locationCode}/${r.lotNo}/${r.lpn}`}
          columns={columns}
          dataSource={sku.stock}
        />
      )}
    </Card>
  );

  const gs1 = answer?.gs1;
  return (
    <div data-testid="sku-search" style={{ display: 'flex', flexDirection: 'column', gap: 12, maxWidth: 1100 }}>
      <div style={{ maxWidth: 360 }}>
        <ScanField label={t('inv.skuSearch.scan')} testId="sku-search-scan" onScan={(text) => void search(text)} onEscape={clear} />
      </div>
      <FeedbackLine feedback={feedback} />
      {gs1 && (
        <Descriptions size="small" title={t('inv.skuSearch.gs1')} column={{ xs: 1, sm: 2, md: 4 }} data-testid="sku-search-gs1">
          <Descriptions.Item label="GTIN">{answer.code}</Descriptions.Item>
          {gs1.batch !== undefined && <Descriptions.Item label={t('inv.skuSearch.batch')}>{gs1.batch}</Descriptions.Item>}
          {gs1.expiry !== undefined && <Descriptions.Item label={t('inv.skuSearch.expiry')}>{gs1.expiry}</Descriptions.Item>}
          {gs1.serial !== undefined && <Descriptions.Item label={t('inv.skuSearch.serial')}>{gs1.serial}</Descriptions.Item>}
          {gs1.count !== undefined && <Descriptions.Item label={t('inv.skuSearch.count')}>{gs1.count}</Descriptions.Item>}
        </Descriptions>
      )}
      {answer?.skus.map(skuCard)}
    </div>
  );
}
