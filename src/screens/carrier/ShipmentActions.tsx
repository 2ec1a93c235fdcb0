import { useState } from 'react';
import { App, Button, Descriptions, Input, Modal, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/public';
import type { ToolbarActionProps } from './toolbar-actions';

/** What `/so/findDhlShipmentReference` answers: our shipments of the reference and what the carrier knows of each. */
interface LookedUp {
  shipments: Array<{
    id: number;
    shipmentNo: string;
    carrierShipmentId: string | null;
    status: string;
    parcels: unknown[];
    atCarrier: { shipmentId: string; status: string | null; parcels: Array<{ parcelNo: string; trackingNo: string | null }> } | null;
  }>;
}

/**
 * The /shipment page's carrier actions for the one selected shipment: look it up at its carrier by
 * its shipment reference (with the view right: what the carrier knows of it, its status and
 * parcels with their tracking numbers, read only), book it with its carrier (its
 * carrier shipment id), add the closed cartons of orders typed by number as parcels, and cancel it
 * at the carrier after a confirmation. A carrier error or time-out is shown as the server's message
 * and changes nothing.
 */
export default function ShipmentActions({ rights, selected, reload }: ToolbarActionProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [adding, setAdding] = useState(false);
  const [orderNos, setOrderNos] = useState('');
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<LookedUp | null>(null);
  const id = selected.length === 1 ? Number(selected[0]._key) : null;
  const typed = selected.length === 1 ? selected[0].shipment_reference : undefined;
  const reference = typeof typed === 'string' ? typed.trim() : '';
  if (!rights.view) return null;

  // The carrier is asked and nothing is written: an error or a time-out shows the server's message.
  const lookUp = async () => {
    setBusy(true);
    try {
      setFound(await api<LookedUp>('/so/findDhlShipmentReference', { body: { reference } }));
    } catch {
      // The client showed the server's message.
    } finally {
      setBusy(false);
    }
  };
  const lookUpButton = (
    <Button disabled={!reference || busy} onClick={() => void lookUp()} data-testid="shipment-lookup">
      {t('carrier.action.lookUp')}
    </Button>
  );
  const answer = (
    <Modal open={found !== null} title={t('carrier.action.lookUpTitle', { reference })} footer={null} onCancel={() => setFound(null)} destroyOnHidden>
      <div data-testid="shipment-lookup-result">
        {found?.shipments.map((s) => (
          <Descriptions key={s.id} size="small" column={1} bordered style={{ marginBottom: 12 }} title={s.shipmentNo}>
            <Descriptions.Item label={t('carrier.field.carrierShipmentId')}>{s.carrierShipmentId ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('carrier.action.atCarrier')}>
              {s.atCarrier ? (
                <span data-testid={`shipment-lookup-${s.shipmentNo}`}>
                  <Tag>{s.atCarrier.status ?? '-'}</Tag>
                  {t('carrier.action.atCarrierParcels', { count: s.atCarrier.parcels.length })}
                  {s.atCarrier.parcels.map((p) => (
                    <div key={p.parcelNo}>
                      {p.parcelNo}: {p.trackingNo ?? '-'}
                    </div>
                  ))}
                </span>
              ) : (
                <span data-testid={`shipment-lookup-${s.shipmentNo}`}>{t('carrier.action.notAtCarrier')}</span>
              )}
            </Descriptions.Item>
          </Descriptions>
        ))}
      </div>
    </Modal>
  );
  if (!rights.edit)
    return (
      <Space wrap>
        {lookUpButton}
        {answer}
      </Space>
    );

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
      reload();
    } catch {
      // The client showed the server's message.
    } finally {
      setBusy(false);
    }
  };
  const book = () =>
    run(async () => {
      const answer = await api<{ carrierShipmentId: string }>('/so/createDhlShipmentId', { body: { shipmentId: id } });
      void message.success(t('carrier.action.booked', { id: answer.carrierShipmentId }));
    });
  const add = () =>
    run(async () => {
      const nos = [...new Set(orderNos.split(/[\s,;]+/).filter(Boolean))];
      const answer = await api<{ added: number }>('/so/addOrderToDhlShipmentId', { body: { shipmentId: id, orderNos: nos } });
      void message.success(t('carrier.action.added', { count: answer.added }));
      setAdding(false);
      setOrderNos('');
    });
  const cancel = () => {
    void modal.confirm({
      title: t('carrier.action.cancel'),
      content: t('carrier.action.cancelConfirm'),
      onOk: () =>
        run(async () => {
          await api('/carrier/shipment/cancel', { body: { shipmentId: id } });
          void message.success(t('carrier.action.cancelled'));
        }),
    });
  };

  return (
    <Space wrap>
      {lookUpButton}
      {answer}
      <Button disabled={id === null || busy} onClick={() => void book()} data-testid="shipment-book">
        {t('carrier.action.book')}
      </Button>
      <Button disabled={id === null || busy} onClick={() => setAdding(true)} data-testid="shipment-add-orders">
        {t('carrier.action.addOrders')}
      </Button>
      <Button danger disabled={id === null || busy} onClick={cancel} data-testid="shipment-cancel">
        {t('carrier.action.cancel')}
      </Button>
      <Modal open={adding} title={t('carrier.action.addOrders')} okButtonProps={{ disabled: !orderNos.trim(), loading: busy }} onOk={() => void add()} onCancel={() => setAdding(false)}>
        <Input.TextArea autoFocus rows={4} value={orderNos} placeholder={t('carrier.action.orderNos')} onChange={(event) => setOrderNos(event.target.value)} />
      </Modal>
    </Space>
  );
}
