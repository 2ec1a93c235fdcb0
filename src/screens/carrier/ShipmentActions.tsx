import { useState } from 'react';
import { App, Button, Input, Modal, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/public';
import type { ToolbarActionProps } from './toolbar-actions';

/**
 * The /shipment page's carrier actions for the one selected shipment: book it with its carrier (its
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
  const id = selected.length === 1 ? Number(selected[0]._key) : null;
  if (!rights.edit) return null;

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
