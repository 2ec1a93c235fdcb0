import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, Modal, Select, Space, Table, Typography, type SelectProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { WaveCandidate, WaveCandidatesAnswer, WaveFilterOptions } from '../../common/outbound-api';
import { api, showConfirm, showSuccess, useBusy } from '../../app/public';
import { dialogAction } from '../../app/public-widgets';

/** A filter of the candidate orders: one choice or none (any), found by typing part of its label. */
function FilterSelect(props: SelectProps & { 'data-testid': string }) {
  return <Select style={{ minWidth: 200 }} allowClear showSearch optionFilterProp="label" {...props} />;
}

interface Filters {
  carrierCode?: string | null;
  shipDateFrom?: string;
  shipDateTo?: string;
  ownerId?: number | null;
  zone?: string;
}

/** The filters as /so/wave and /so/wave/save take them: empty ones left out. */
function filterBody(values: Filters) {
  const text = (value: string | null | undefined) => (value && value.trim() !== '' ? value.trim() : null);
  return {
    carrierCode: text(values.carrierCode),
    shipDateFrom: text(values.shipDateFrom),
    shipDateTo: text(values.shipDateTo),
    ownerId: values.ownerId ?? null,
    zone: text(values.zone),
  };
}

/**
 * "Create wave" on the wave list: the user chooses carrier and owner (dropdowns by code and name),
 * ship dates and zone, sees the orders without a wave that they select (order no, status,
 * consignee, lines, qty), unticks those that should wait, and creates the wave with the ticked ones
 * only, after confirmation. Nothing is written before that.
 */
export default dialogAction({ allowed: (rights) => rights.view, testId: 'outbound-create-wave', labelKey: 'outbound.wave.createWave', Dialog: CreateWaveDialog });

function CreateWaveDialog({ onClose, onDone: onCreated }: { onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Filters>();
  const [busy, run] = useBusy();
  const [options, setOptions] = useState<WaveFilterOptions>({ owners: [], carriers: [] });
  const [candidates, setCandidates] = useState<WaveCandidatesAnswer | null>(null);
  const [shownFor, setShownFor] = useState<Filters>({});
  const [ticked, setTicked] = useState<number[]>([]);

  useEffect(() => {
    let live = true;
    api<WaveFilterOptions>('/so/wave/filterOptions', { method: 'POST', body: {} }).then(
      (answer) => live && setOptions(answer),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  const show = () =>
    run(async () => {
      const values = form.getFieldsValue();
      try {
        const answer = await api<WaveCandidatesAnswer>('/so/wave', { method: 'POST', body: filterBody(values) });
        setCandidates(answer);
        setShownFor(values);
        setTicked(answer.rows.map((row) => row.id));
      } catch {
        // The API client has shown the refusal (a wrong date); the filters stay.
      }
    });

  const create = () =>
    run(async () => {
      const ok = await showConfirm({ content: t('outbound.wave.createConfirm', { count: ticked.length }), okText: t('outbound.wave.createWave'), cancelText: t('ui.engine.cancel') });
      if (!ok) return;
      try {
        const result = await api<{ waveId: number; waveNo: string; orders: number }>('/so/wave/save', { method: 'POST', body: { ...filterBody(shownFor), orderIds: ticked } });
        void showSuccess({ type: 'success', content: t('outbound.wave.created', { waveNo: result.waveNo, orders: result.orders }) });
      } catch {
        // Refused (an order taken meanwhile, a missing right): the popup has said why; show the orders again.
        return;
      }
      onCreated();
      onClose();
    });

  const columns = [
    { key: 'order_no', dataIndex: 'order_no', title: t('outbound.field.orderNo') },
    { key: 'status', dataIndex: 'status', title: t('outbound.field.status'), render: (status: string) => t(`outbound.status.${status}`) },
    { key: 'consignee', dataIndex: 'consignee', title: t('outbound.field.consignee') },
    { key: 'owner_code', dataIndex: 'owner_code', title: t('outbound.field.owner') },
    { key: 'carrier_code', dataIndex: 'carrier_code', title: t('outbound.field.carrier') },
    { key: 'required_ship_date', dataIndex: 'required_ship_date', title: t('outbound.field.requiredShipDate') },
    { key: 'line_count', dataIndex: 'line_count', title: t('outbound.wave.lineCount'), align: 'right' as const },
    { key: 'qty', dataIndex: 'qty', title: t('outbound.field.qty'), align: 'right' as const, render: (qty: string) => Number(qty).toLocaleString() },
  ];

  return (
    <Modal
      open
      width={960}
      title={t('outbound.wave.createWave')}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('ui.engine.cancel')}</Button>
          <Button type="primary" data-testid="outbound-create-wave-ok" disabled={!candidates || ticked.length === 0} loading={busy} onClick={() => void create()}>
            {t('outbound.wave.createWithSelected', { count: ticked.length })}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary" data-testid="outbound-create-wave-dialog">
        {t('outbound.wave.previewHint')}
      </Typography.Paragraph>
      <Form form={form} name="outbound_create_wave" layout="inline" data-testid="outbound-create-wave-filters" onValuesChange={() => setCandidates(null)}>
        <Form.Item name="carrierCode" label={t('outbound.field.carrier')}>
          <FilterSelect
            data-testid="outbound-create-wave-carrier"
            placeholder={t('outbound.wave.anyCarrier')}
            options={options.carriers.map((c) => ({ value: c.code, label: c.name ? `${c.code} - ${c.name}` : c.code }))}
          />
        </Form.Item>
        <Form.Item name="ownerId" label={t('outbound.field.owner')}>
          <FilterSelect
            data-testid="outbound-create-wave-owner"
            placeholder={t('outbound.wave.anyOwner')}
            options={options.owners.map((o) => ({ value: o.id, label: `${o.code} - ${o.name}` }))}
          />
        </Form.Item>
        <Form.Item name="shipDateFrom" label={t('outbound.wave.shipDateFrom')}>
          <Input type="date" data-testid="outbound-create-wave-from" />
        </Form.Item>
        <Form.Item name="shipDateTo" label={t('outbound.wave.shipDateTo')}>
          <Input type="date" data-testid="outbound-create-wave-to" />
        </Form.Item>
        <Form.Item name="zone" label={t('outbound.wave.zone')}>
          <Input maxLength={60} data-testid="outbound-create-wave-zone" />
        </Form.Item>
        <Form.Item>
          <Button data-testid="outbound-create-wave-show" loading={busy} onClick={() => void show()}>
            {t('outbound.wave.showOrders')}
          </Button>
        </Form.Item>
      </Form>
      {candidates && (
        <div style={{ marginTop: 16 }} data-testid="outbound-create-wave-orders">
          {candidates.capped && <Alert type="warning" showIcon style={{ marginBottom: 8 }} message={t('outbound.wave.capped', { cap: candidates.cap })} />}
          <Table<WaveCandidate>
            size="small"
            rowKey="id"
            pagination={false}
            scroll={{ y: 360 }}
            columns={columns}
            dataSource={candidates.rows}
            locale={{ emptyText: t('outbound.wave.noOrders') }}
            rowSelection={{ selectedRowKeys: ticked, onChange: (keys) => setTicked(keys.map(Number)) }}
          />
        </div>
      )}
    </Modal>
  );
}
