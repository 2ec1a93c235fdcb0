import { useState } from 'react';
import { Alert, Button, Input, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, showSuccess } from '../../app/public';
import { beep, messageOf } from './handheld';

/** A line of batch receive (spec section 3): an ASN line still open, as /rec/batch/editor answers it. */
export interface ReceivableLine {
  id: number;
  asn_id: number;
  asn_no: string;
  asn_status: string;
  line_no: number;
  sku_code: string;
  sku_description: string;
  expected_qty: string;
  received_qty: string;
  uom: string | null;
  lot_no: string | null;
  manufacture_date: string | null;
  expiry_date: string | null;
  shelf_date: string | null;
  udf1: string | null;
  udf2: string | null;
  udf3: string | null;
}

const ENTRY_FIELDS = ['qty', 'locationCode', 'damageQty', 'holdQty', 'lotNo', 'manufactureDate', 'expiryDate', 'shelfDate', 'udf1', 'udf2', 'udf3', 'palletId', 'cartonId', 'traceId'] as const;
type EntryField = (typeof ENTRY_FIELDS)[number];
type Entry = Partial<Record<EntryField, string>>;

const LABELS: Record<EntryField, string> = {
  qty: 'inb.field.receivedQty',
  locationCode: 'inb.field.location',
  damageQty: 'inb.field.damageQty',
  holdQty: 'inb.field.holdQty',
  lotNo: 'inb.field.lotNo',
  manufactureDate: 'inb.field.manufactureDate',
  expiryDate: 'inb.field.expiryDate',
  shelfDate: 'inb.field.shelfDate',
  udf1: 'inb.field.udf1',
  udf2: 'inb.field.udf2',
  udf3: 'inb.field.udf3',
  palletId: 'inb.field.palletId',
  cartonId: 'inb.field.cartonId',
  traceId: 'inb.field.traceId',
};

/**
 * Batch receive (spec sections 3 and 5): find open ASN lines by a query text of more than 4
 * characters, fill received qty and location (required; qty above 0 and not above what is still
 * expected) with lot attributes, damage and hold, and receive all filled lines at once.
 */
export default function BatchReceive() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [lines, setLines] = useState<ReceivableLine[]>([]);
  const [entries, setEntries] = useState<Record<number, Entry>>({});
  const [problem, setProblem] = useState<string | null>(null);

  const search = async () => {
    if (text.trim().length <= 4) {
      setProblem(t('errors.QUERY_TEXT_TOO_SHORT'));
      beep('warning');
      return;
    }
    try {
      const answer = await api<{ lines: ReceivableLine[] }>('/rec/batch/editor', { body: { text: text.trim() }, quiet: true });
      setLines(answer.lines);
      setEntries({});
      setProblem(answer.lines.length === 0 ? t('inb.ui.nothingToReceive') : null);
    } catch (error) {
      setProblem(messageOf(error));
      beep('error');
    }
  };

  const change = (id: number, field: EntryField, value: string) => setEntries((old) => ({ ...old, [id]: { ...old[id], [field]: value } }));

  const receive = async () => {
    const filled = lines.filter((line) => (entries[line.id]?.qty ?? '').trim() !== '');
    if (filled.length === 0) {
      setProblem(t('errors.QTY_NOT_POSITIVE'));
      beep('warning');
      return;
    }
    for (const line of filled) {
      const entry = entries[line.id];
      const qty = Number(entry.qty);
      if (!(qty > 0)) return fail(t('errors.QTY_NOT_POSITIVE'));
      if (qty > Number(line.expected_qty) - Number(line.received_qty)) return fail(t('errors.OVER_RECEIVE'));
      if (!(entry.locationCode ?? '').trim()) return fail(t('errors.LOCATION_REQUIRED'));
    }
    try {
      const body = {
        lines: filled.map((line) => {
          const entry = entries[line.id];
          const out: Record<string, unknown> = { asnLineId: line.id };
          for (const field of ENTRY_FIELDS) if ((entry[field] ?? '').trim() !== '') out[field] = entry[field]!.trim();
          return out;
        }),
      };
      const answer = await api<{ receipts: { receiptNo: string }[] }>('/inbound/batch/receive', { body, quiet: true });
      void showSuccess({ type: 'success', content: t('inb.ui.batchReceived', { receipts: answer.receipts.map((r) => r.receiptNo).join(', ') }) });
      setProblem(null);
      await search();
    } catch (error) {
      fail(messageOf(error));
    }
  };

  function fail(message: string) {
    setProblem(message);
    beep('error');
  }

  return (
    <div data-testid="batch-receive">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input
          data-testid="batch-query"
          style={{ width: 280 }}
          placeholder={t('inb.ui.batchQuery')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onPressEnter={() => void search()}
        />
        <Button data-testid="batch-search" onClick={() => void search()}>
          {t('inb.ui.search')}
        </Button>
        <Button type="primary" data-testid="batch-receive-button" disabled={lines.length === 0} onClick={() => void receive()}>
          {t('inb.ui.receive')}
        </Button>
      </Space>
      {problem && <Alert data-testid="batch-problem" type="error" message={problem} showIcon style={{ marginBottom: 12 }} />}
      <Table<ReceivableLine>
        rowKey="id"
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={lines}
        columns={[
          { title: t('inb.field.asnNo'), dataIndex: 'asn_no' },
          { title: t('inb.field.lineNo'), dataIndex: 'line_no' },
          { title: t('inb.field.sku'), dataIndex: 'sku_code' },
          { title: t('inb.field.description'), dataIndex: 'sku_description' },
          { title: t('inb.field.expectedQty'), render: (_, line) => Number(line.expected_qty) },
          { title: t('inb.field.receivedQty'), render: (_, line) => Number(line.received_qty) },
          { title: t('inb.field.uom'), dataIndex: 'uom' },
          ...ENTRY_FIELDS.map((field) => ({
            title: t(LABELS[field]),
            key: field,
            render: (_: unknown, line: ReceivableLine) => (
              <Input
                data-testid={`batch-${field}-${line.line_no}-${line.asn_no}`}
                style={{ width: field === 'qty' || field.endsWith('Qty') ? 80 : 120 }}
                placeholder={field.endsWith('Date') ? 'YYYY-MM-DD' : undefined}
                value={entries[line.id]?.[field] ?? ''}
                onChange={(event) => change(line.id, field, event.target.value)}
              />
            ),
          })),
        ]}
      />
    </div>
  );
}
