import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Input, Select, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CfsCheckAnswer, CfsOrderStatus } from '../../common/cfs-api';
import { api, ApiError, showConfirm, useRights } from '../../app/public';
import { messageOf } from '../inbound/handheld';

/** Order numbers typed into one text (commas, semicolons, spaces or new lines between), each once. */
function orderNosOf(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((no) => no.trim()).filter((no) => no !== ''))];
}

/** What a call refused, with each failing row the server named. */
interface Outcome {
  type: 'success' | 'error';
  text: string;
  rows?: string[];
}

function outcomeOf(error: unknown): Outcome {
  const rows = error instanceof ApiError ? (error.body.details ?? []).map((d) => d.message ?? `${d.field}: ${d.code}`) : [];
  return { type: 'error', text: messageOf(error), rows };
}

function OutcomeLine({ outcome, testId }: { outcome: Outcome | null; testId: string }) {
  if (!outcome) return null;
  return (
    <Alert
      data-testid={testId}
      type={outcome.type}
      showIcon
      message={outcome.text}
      description={outcome.rows?.length ? <ul style={{ margin: 0 }}>{outcome.rows.map((row) => <li key={row}>{row}</li>)}</ul> : undefined}
    />
  );
}

/**
 * One tool of the page: its fields, the button that runs it (`testId`) and what the last run
 * answered (`outcomeTestId`, by default `<testId>-outcome`), with anything shown below that.
 */
function Tool(props: { title: string; action: string; testId: string; outcomeTestId?: string; danger?: boolean; busy: boolean; onRun: () => void; outcome: Outcome | null; children: ReactNode; below?: ReactNode }) {
  return (
    <Card size="small" title={props.title}>
      <Space direction="vertical" style={{ width: '100%' }}>
        {props.children}
        <Button danger={props.danger} data-testid={props.testId} disabled={props.busy} onClick={props.onRun}>
          {props.action}
        </Button>
        <OutcomeLine outcome={props.outcome} testId={props.outcomeTestId ?? `${props.testId}-outcome`} />
        {props.below}
      </Space>
    </Card>
  );
}

/**
 * The desk's order tools of the CFS: check the status of orders, cancel orders with a reason of the
 * code master (after a confirmation), update reference, vessel, voyage and ETD of many orders at
 * once (one row a line, all or nothing), and put orders on a shipment order.
 */
export function CfsOrders() {
  const { t } = useTranslation();
  const rights = useRights('cfs.cfs');
  const [busy, setBusy] = useState(false);

  const [checkText, setCheckText] = useState('');
  const [checked, setChecked] = useState<CfsCheckAnswer['rows']>([]);
  const [checkOutcome, setCheckOutcome] = useState<Outcome | null>(null);

  const [reasons, setReasons] = useState<Array<{ code: string; description: string }>>([]);
  const [cancelText, setCancelText] = useState('');
  const [reason, setReason] = useState<string | undefined>();
  const [remark, setRemark] = useState('');
  const [cancelOutcome, setCancelOutcome] = useState<Outcome | null>(null);

  const [batchText, setBatchText] = useState('');
  const [batchOutcome, setBatchOutcome] = useState<Outcome | null>(null);

  const [shipmentNo, setShipmentNo] = useState('');
  const [shipmentText, setShipmentText] = useState('');
  const [shipmentOutcome, setShipmentOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    void api<{ rows: Array<{ code: string; description: string }> }>('/cfs/cancelReasonCodeList', { body: {}, quiet: true })
      .then((answer) => setReasons(answer.rows))
      .catch(() => setReasons([]));
  }, []);

  const call = async <T,>(work: () => Promise<T>, show: (outcome: Outcome) => void): Promise<T | undefined> => {
    setBusy(true);
    try {
      return await work();
    } catch (error) {
      show(outcomeOf(error));
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  const check = async () => {
    const orderNos = orderNosOf(checkText);
    if (orderNos.length === 0) return setCheckOutcome({ type: 'error', text: t('cfs.orders.orderNosRequired') });
    setCheckOutcome(null);
    const answer = await call(() => api<CfsCheckAnswer>('/cfs/checkOrderStatus', { body: { orderNos }, quiet: true }), setCheckOutcome);
    if (answer) setChecked(answer.rows);
  };

  const cancel = async () => {
    const orderNos = orderNosOf(cancelText);
    if (orderNos.length === 0) return setCancelOutcome({ type: 'error', text: t('cfs.orders.orderNosRequired') });
    if (!reason) return setCancelOutcome({ type: 'error', text: t('cfs.orders.reasonRequired') });
    const ok = await showConfirm({ id: 'cfs-cancel-confirm', content: t('cfs.orders.cancelAsk', { count: orderNos.length, orders: orderNos.join(', ') }), okText: t('cfs.orders.cancel'), cancelText: t('ui.engine.cancel') });
    if (!ok) return;
    const answer = await call(() => api<{ cancelled: CfsOrderStatus[] }>('/cfs/cancelWithReason', { body: { orderNos, reasonCode: reason, remark: remark.trim() || null }, quiet: true }), setCancelOutcome);
    if (!answer) return;
    setCancelOutcome({ type: 'success', text: t('cfs.orders.cancelled', { orders: answer.cancelled.map((o) => o.orderNo).join(', ') }) });
    setCancelText('');
    setRemark('');
  };

  const batch = async () => {
    const rows = batchText
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .map((line) => {
        // An empty cell leaves that field as it is.
        const [orderNo = '', reference = '', vessel = '', voyage = '', etd = ''] = line.split(/[,;\t]/).map((cell) => cell.trim());
        const given = Object.entries({ reference, vessel, voyage, etd }).filter(([, value]) => value !== '');
        return { orderNo, ...Object.fromEntries(given) };
      });
    if (rows.length === 0) return setBatchOutcome({ type: 'error', text: t('cfs.orders.batchRequired') });
    const answer = await call(() => api<{ updated: number }>('/cfs/batchUpdate', { body: { rows }, quiet: true }), setBatchOutcome);
    if (answer) setBatchOutcome({ type: 'success', text: t('cfs.orders.batchUpdated', { count: answer.updated }) });
  };

  const addToShipment = async () => {
    const orderNos = orderNosOf(shipmentText);
    if (!shipmentNo.trim() || orderNos.length === 0) return setShipmentOutcome({ type: 'error', text: t('cfs.orders.shipmentRequired') });
    const answer = await call(() => api<{ shipmentNo: string; added: number }>('/cfs/add/order/shipment', { body: { shipmentNo: shipmentNo.trim(), orderNos }, quiet: true }), setShipmentOutcome);
    if (answer) setShipmentOutcome({ type: 'success', text: t('cfs.orders.shipmentAdded', { count: answer.added, shipmentNo: answer.shipmentNo }) });
  };

  return (
    <Space direction="vertical" style={{ width: '100%', maxWidth: 900 }} size="middle" data-testid="cfs-orders">
      <Tool
        title={t('cfs.orders.checkTitle')}
        action={t('cfs.orders.check')}
        testId="cfs-check"
        busy={busy}
        onRun={() => void check()}
        outcome={checkOutcome}
        below={
          checked.length > 0 && (
            <Table
              data-testid="cfs-check-table"
              size="small"
              pagination={false}
              rowKey="orderNo"
              dataSource={checked}
              columns={[
                { title: t('cfs.field.orderNo'), dataIndex: 'orderNo' },
                { title: t('cfs.field.status'), render: (_, row) => (row.order ? row.order.status : t('cfs.orders.notFound')) },
                { title: t('cfs.field.cartons'), render: (_, row) => (row.order ? t('cfs.scan.orderCounts', row.order.cartons) : '') },
                { title: t('cfs.field.vessel'), render: (_, row) => row.order?.vessel ?? '' },
                { title: t('cfs.field.etd'), render: (_, row) => row.order?.etd ?? '' },
                { title: t('cfs.field.cancelReason'), render: (_, row) => row.order?.cancelReason ?? '' },
              ]}
            />
          )
        }
      >
        <Input.TextArea data-testid="cfs-check-orders" rows={2} placeholder={t('cfs.orders.orderNos')} value={checkText} onChange={(e) => setCheckText(e.target.value)} />
      </Tool>
      {rights.edit && (
        <Tool title={t('cfs.orders.cancelTitle')} action={t('cfs.orders.cancel')} testId="cfs-cancel" danger busy={busy} onRun={() => void cancel()} outcome={cancelOutcome}>
          <Input data-testid="cfs-cancel-orders" placeholder={t('cfs.orders.orderNos')} value={cancelText} onChange={(e) => setCancelText(e.target.value)} />
          <Select
            data-testid="cfs-cancel-reason"
            style={{ width: '100%' }}
            placeholder={t('cfs.orders.reason')}
            value={reason}
            onChange={setReason}
            options={reasons.map((r) => ({ value: r.code, label: `${r.code} - ${r.description}` }))}
          />
          <Input data-testid="cfs-cancel-remark" placeholder={t('cfs.orders.remark')} value={remark} onChange={(e) => setRemark(e.target.value)} />
        </Tool>
      )}
      {rights.edit && (
        <Tool title={t('cfs.orders.batchTitle')} action={t('cfs.orders.batch')} testId="cfs-batch" busy={busy} onRun={() => void batch()} outcome={batchOutcome}>
          <Input.TextArea data-testid="cfs-batch-rows" rows={4} placeholder={t('cfs.orders.batchHint')} value={batchText} onChange={(e) => setBatchText(e.target.value)} />
        </Tool>
      )}
      {rights.edit && (
        <Tool title={t('cfs.orders.shipmentTitle')} action={t('cfs.orders.shipmentAdd')} testId="cfs-shipment-add" outcomeTestId="cfs-shipment-outcome" busy={busy} onRun={() => void addToShipment()} outcome={shipmentOutcome}>
          <Input data-testid="cfs-shipment-no" placeholder={t('cfs.orders.shipmentNo')} value={shipmentNo} onChange={(e) => setShipmentNo(e.target.value)} />
          <Input data-testid="cfs-shipment-orders" placeholder={t('cfs.orders.orderNos')} value={shipmentText} onChange={(e) => setShipmentText(e.target.value)} />
        </Tool>
      )}
    </Space>
  );
}
