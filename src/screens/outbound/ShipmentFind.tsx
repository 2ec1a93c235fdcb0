import { useState } from 'react';
import { Button, Descriptions, Input, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, openPage, useBusy } from '../../app/public';
import { CompactTable } from '../../app/public-widgets';
import type { ToolbarActionProps } from './toolbar-actions';

/** What `/so/findShipmentReference` answers: the shipment order and the sales orders on it. */
interface FoundShipment {
  id: number;
  shipment_no: string;
  carrier_code: string | null;
  ship_date: string | null;
  shipment_reference: string | null;
  status: string;
  orders: Array<{ id: number; order_no: string; status: string; carrier_code: string | null }>;
}

/**
 * "Find shipment" on the shipment order list: Enter on a shipment number opens that shipment with
 * the orders on it; an unknown number (or one of another warehouse) is refused by the server's
 * popup. An order number opens the sales order list on that order; "Show in list" filters this list
 * to the shipment. Offered with the viewing right of the page.
 */
export default function ShipmentFind({ rights }: ToolbarActionProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [found, setFound] = useState<FoundShipment | null>(null);
  const [busy, run] = useBusy();

  const find = (value: string) =>
    run(async () => {
      const shipmentNo = value.trim();
      if (shipmentNo === '') return;
      try {
        setFound(await api<FoundShipment>('/so/findShipmentReference', { body: { shipmentNo } }));
      } catch {
        // The error popup has shown the refusal (no such shipment); the number stays for a correction.
      }
    });

  if (!rights.view) return null;
  return (
    <>
      <span data-testid="shipment-find">
        <Input.Search
          allowClear
          style={{ width: 220 }}
          value={text}
          loading={busy}
          placeholder={t('outbound.shipmentFind.placeholder')}
          aria-label={t('outbound.shipmentFind.placeholder')}
          onChange={(event) => setText(event.target.value)}
          onSearch={(value) => void find(value)}
        />
      </span>
      {found && (
        <Modal
          open
          title={t('outbound.shipmentFind.title', { shipmentNo: found.shipment_no })}
          onCancel={() => setFound(null)}
          width={720}
          destroyOnHidden
          footer={
            <Space>
              <Button
                data-testid="shipment-find-filter"
                onClick={() => {
                  const shipmentNo = found.shipment_no;
                  setFound(null);
                  openPage('outbound', 'shipmentOrder', { shipment_no: shipmentNo });
                }}
              >
                {t('outbound.shipmentFind.showInList')}
              </Button>
              <Button id="shipment-find-close" onClick={() => setFound(null)}>
                {t('outbound.soTools.close')}
              </Button>
            </Space>
          }
        >
          <Space direction="vertical" style={{ width: '100%' }} data-testid="shipment-find-result">
            <Descriptions
              size="small"
              column={2}
              items={[
                { key: 'carrier', label: t('outbound.field.carrier'), children: found.carrier_code ?? '' },
                { key: 'shipDate', label: t('outbound.field.shipDate'), children: found.ship_date?.slice(0, 10) ?? '' },
                { key: 'reference', label: t('outbound.field.shipmentReference'), children: found.shipment_reference ?? '' },
                { key: 'status', label: t('outbound.field.status'), children: t(`outbound.shipmentStatus.${found.status}`, { defaultValue: found.status }) },
              ]}
            />
            <Typography.Text strong>{t('outbound.shipmentFind.orders', { count: found.orders.length })}</Typography.Text>
            <div data-testid="shipment-find-orders">
              <CompactTable
                rowKey="id"
                dataSource={found.orders}
                columns={[
                  {
                    title: t('outbound.field.orderNo'),
                    dataIndex: 'order_no',
                    render: (orderNo: string) => (
                      <Typography.Link
                        onClick={() => {
                          setFound(null);
                          openPage('outbound', 'so', { order_no: orderNo });
                        }}
                      >
                        {orderNo}
                      </Typography.Link>
                    ),
                  },
                  { title: t('outbound.field.status'), dataIndex: 'status', render: (status: string) => t(`outbound.status.${status}`, { defaultValue: status }) },
                  { title: t('outbound.field.carrier'), dataIndex: 'carrier_code' },
                ]}
              />
            </div>
          </Space>
        </Modal>
      )}
    </>
  );
}
