import { useEffect, useState } from 'react';
import { Button, Descriptions, List, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, download, useRights } from '../../app/public';
import { FeedbackLine, HandheldFrame, ScanField, useFeedback } from '../inbound/handheld';

interface Check {
  order: { id: number; orderNo: string; status: string } | null;
  parcel: { cartonNo: string; sscc: string | null; status: string; orderId: number; trackingNo: string | null; parcelId: string | null } | null;
  shipment: { id: number; shipmentNo: string; reference: string; carrierCode: string; carrierShipmentId: string | null; status: string } | null;
  belongs: boolean | null;
  parcels: Array<{ cartonNo: string; status: string; trackingNo: string | null; shipmentNo: string | null }>;
}
interface LabelPrinter {
  id: number;
  name: string;
}

/**
 * Courier check: scan an order, then its parcels (carton number, SSCC or the carrier's tracking
 * number). Each parcel shows its carrier shipment and tracking number and whether it belongs to the
 * scanned order (a parcel of another order is refused loudly). A parcel scanned first opens its
 * order. The shipment's label is downloaded (PDF, ZPL) or printed on a printer of the warehouse.
 * Enter submits the scan; Escape starts again.
 */
export default function CourierCheck() {
  const { t } = useTranslation();
  const { feedback, setFeedback, tell, fail } = useFeedback();
  const [check, setCheck] = useState<Check | null>(null);
  const [printers, setPrinters] = useState<LabelPrinter[]>([]);
  const [printerId, setPrinterId] = useState<number | null>(null);
  const orderNo = check?.order?.orderNo ?? null;
  // Printing a label needs the edit right here and the printers are the packing area's list: what
  // the server would refuse is neither asked nor offered, since a refused call signs the user out.
  const canPrint = useRights('carrier.courierCheck').edit;
  const seesPrinters = useRights('packing.pack').view;

  useEffect(() => {
    if (!canPrint || !seesPrinters) return;
    void api<{ rows: LabelPrinter[] }>('/pack/label/printer', { quiet: true })
      .then((answer) => {
        setPrinters(answer.rows);
        setPrinterId(answer.rows[0]?.id ?? null);
      })
      .catch(() => undefined);
  }, [canPrint, seesPrinters]);

  const scan = async (text: string) => {
    const code = text.trim();
    if (!code) return;
    try {
      const answer = await api<Check>('/carrier/courierCheck', { body: { orderNo, code }, quiet: true });
      // A code that named another order (not a parcel) starts that order.
      const next = answer.parcel === null && orderNo !== null && answer.order?.orderNo !== orderNo ? await api<Check>('/carrier/courierCheck', { body: { code }, quiet: true }) : answer;
      setCheck(next);
      if (next.belongs === false && next.parcel) tell('error', t('errors.PARCEL_NOT_OF_ORDER', { parcelNo: next.parcel.cartonNo, orderNo }));
      else if (next.parcel && next.order) tell('success', t('carrier.check.belongs', { parcelNo: next.parcel.cartonNo, orderNo: next.order.orderNo }));
      else setFeedback(null);
    } catch (error) {
      fail(error);
    }
  };

  const reset = () => {
    setCheck(null);
    setFeedback(null);
  };

  const shipment = check?.belongs === false ? null : (check?.shipment ?? null);
  const label = (format: 'pdf' | 'zpl') => shipment && void download('/carrier/label', { query: { shipmentId: shipment.id, format } }).catch((error: unknown) => fail(error));
  const print = async () => {
    if (!shipment || printerId === null) return;
    try {
      const answer = await api<{ jobId: number }>('/carrier/label/print', { body: { shipmentId: shipment.id, printerId, format: 'zpl' }, quiet: true });
      tell('success', t('carrier.check.printed', { jobId: answer.jobId }));
    } catch (error) {
      fail(error);
    }
  };

  return (
    <HandheldFrame title={t('menu.courierCheck')} testId="courier-check">
      <Typography.Text type="secondary">{t('carrier.check.hint')}</Typography.Text>
      {orderNo && (
        <div data-testid="courier-check-order" style={{ fontSize: 18 }}>
          {t('carrier.check.orderNo')}: <strong>{orderNo}</strong> <Tag>{check?.order?.status}</Tag>
        </div>
      )}
      <ScanField label={t('carrier.check.code')} testId="courier-check-scan" onScan={(text) => void scan(text)} onEscape={reset} />
      <FeedbackLine feedback={feedback} />
      {check?.parcel && (
        <Descriptions size="small" column={1} bordered data-testid="courier-check-parcel">
          <Descriptions.Item label={t('carrier.field.parcelNo')}>{check.parcel.cartonNo}</Descriptions.Item>
          <Descriptions.Item label={t('carrier.field.trackingNo')}>{check.parcel.trackingNo ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('carrier.check.shipment')}>
            {check.shipment ? `${check.shipment.shipmentNo} (${check.shipment.carrierCode})` : t('carrier.check.noShipment')}
          </Descriptions.Item>
          <Descriptions.Item label={t('carrier.field.carrierShipmentId')}>
            <span data-testid="courier-check-carrier-id">{check.shipment?.carrierShipmentId ?? '-'}</span>
          </Descriptions.Item>
        </Descriptions>
      )}
      {shipment && shipment.status === 'booked' && (
        <Space wrap>
          <Button onClick={() => label('pdf')} data-testid="courier-check-pdf">
            {t('carrier.check.labelPdf')}
          </Button>
          <Button onClick={() => label('zpl')}>{t('carrier.check.labelZpl')}</Button>
          {canPrint && (
            <>
              <Select
                style={{ minWidth: 160 }}
                value={printerId ?? undefined}
                placeholder={t('carrier.check.printer')}
                onChange={(value: number) => setPrinterId(value)}
                options={printers.map((p) => ({ value: p.id, label: p.name }))}
              />
              <Button disabled={printerId === null} onClick={() => void print()} data-testid="courier-check-print">
                {t('carrier.check.print')}
              </Button>
            </>
          )}
        </Space>
      )}
      {check && check.parcels.length > 0 && (
        <List
          size="small"
          header={t('carrier.check.parcels')}
          dataSource={check.parcels}
          data-testid="courier-check-parcels"
          renderItem={(p) => (
            <List.Item>
              {p.cartonNo} · {p.trackingNo ?? '-'} · {p.shipmentNo ?? t('carrier.check.noShipment')}
            </List.Item>
          )}
        />
      )}
    </HandheldFrame>
  );
}
