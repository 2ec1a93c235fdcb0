import { useState } from 'react';
import Decimal from 'decimal.js';
import { Alert, Button, Input, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ReceivableLine, ReceiveLineRequest, ReceiveResult } from '../../common/inbound-api';
import { ReceiptLinks } from './ReceiptLinks';
import { showSuccess } from '../../app/public';
import { qtyColumn } from './columns';
import { beep, messageOf } from './handheld';
import * as calls from './inbound-calls';

const ENTRY_FIELDS = ['packageQty', 'qty', 'lpn', 'locationCode', 'damageQty', 'holdQty', 'lotNo', 'manufactureDate', 'expiryDate', 'shelfDate', 'udf1', 'udf2', 'udf3', 'palletId', 'cartonId', 'traceId'] as const;
type EntryField = (typeof ENTRY_FIELDS)[number];
type Entry = Partial<Record<EntryField, string>>;

/** How many base units (EA) one unit of the line's UOM is: a package (case) when the line is not in the base unit. */
function eachPerUnit(line: ReceivableLine): number {
  return line.uom && line.uom !== line.base_uom && line.case_qty ? Number(line.case_qty) : 1;
}

/** The received qty that a number of packages makes, in the line's UOM; null when unknown. */
function qtyOfPackages(line: ReceivableLine, packages: string): string | null {
  const n = Number(packages);
  if (packages.trim() === '' || !Number.isFinite(n)) return null;
  if (eachPerUnit(line) !== 1) return String(n);
  return line.case_qty ? String(new Decimal(n).times(line.case_qty)) : null;
}

/** The received qty in EA, as text; empty while no qty is entered. */
function qtyInEach(line: ReceivableLine, qty: string | undefined): string {
  const n = Number(qty);
  if (!qty || qty.trim() === '' || !Number.isFinite(n)) return '';
  return String(new Decimal(n).times(eachPerUnit(line)));
}

const LABELS: Record<EntryField, string> = {
  packageQty: 'inb.field.packageQty',
  qty: 'inb.field.receivedQty',
  lpn: 'inb.field.toid',
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
 * Batch receive: find open ASN lines by a query text of more than 4
 * characters, fill received qty and location (required; qty above 0 and not above what is still
 * expected) with lot attributes, damage and hold, and receive all filled lines at once.
 */
export default function BatchReceive() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [lines, setLines] = useState<ReceivableLine[]>([]);
  const [entries, setEntries] = useState<Record<number, Entry>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [made, setMade] = useState<ReceiveResult[]>([]);

  const search = async () => {
    if (text.trim().length <= 4) {
      setProblem(t('errors.QUERY_TEXT_TOO_SHORT'));
      beep('warning');
      return;
    }
    try {
      const answer = await calls.receivableLines(text.trim());
      setLines(answer.lines);
      setEntries({});
      setProblem(answer.lines.length === 0 ? t('inb.ui.nothingToReceive') : null);
    } catch (error) {
      setProblem(messageOf(error));
      beep('error');
    }
  };

  const change = (line: ReceivableLine, field: EntryField, value: string) =>
    setEntries((old) => {
      const entry = { ...old[line.id], [field]: value };
      // Packages entered: the received qty follows from the package size.
      if (field === 'packageQty') {
        const qty = qtyOfPackages(line, value);
        if (qty !== null) entry.qty = qty;
      }
      return { ...old, [line.id]: entry };
    });

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
      const lines = filled.map((line): ReceiveLineRequest => {
        const entry = entries[line.id];
        const given: Entry = Object.fromEntries(
          ENTRY_FIELDS.filter((field) => field !== 'packageQty' && (entry[field] ?? '').trim() !== '').map((field) => [field, entry[field]!.trim()]),
        );
        // Quantity and location are filled: checked above.
        return { asnLineId: line.id, ...given, qty: given.qty!, locationCode: given.locationCode! };
      });
      const answer = await calls.receiveLines(lines);
      void showSuccess({ type: 'success', content: t('inb.ui.batchReceived', { receipts: calls.receiptNos(answer) }) });
      setMade(answer.receipts);
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
      <div style={{ marginBottom: 12 }}>
        <ReceiptLinks receipts={made} />
      </div>
      <Table<ReceivableLine>
        rowKey="id"
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={lines}
        columns={[
          { title: t('inb.field.asnNo'), dataIndex: 'asn_no' },
          { title: t('inb.field.lineNo'), dataIndex: 'line_no' },
          {
            title: t('inb.field.status'),
            key: 'status',
            render: (_: unknown, line: ReceivableLine) => <span data-testid={`batch-status-${line.line_no}-${line.asn_no}`}>{t(`inb.status.${line.asn_status}`)}</span>,
          },
          { title: t('inb.field.recDate'), key: 'recDate', render: (_: unknown, line: ReceivableLine) => line.received_at ?? '' },
          { title: t('inb.field.sku'), dataIndex: 'sku_code' },
          { title: t('inb.field.description'), dataIndex: 'sku_description' },
          qtyColumn<ReceivableLine>(t('inb.field.expectedQty'), (line) => line.expected_qty),
          qtyColumn<ReceivableLine>(t('inb.field.receivedQty'), (line) => line.received_qty),
          { title: t('inb.field.uom'), dataIndex: 'uom' },
          {
            title: t('inb.field.qtyEa'),
            key: 'qtyEa',
            render: (_: unknown, line: ReceivableLine) => <span data-testid={`batch-qtyEa-${line.line_no}-${line.asn_no}`}>{qtyInEach(line, entries[line.id]?.qty)}</span>,
          },
          ...ENTRY_FIELDS.map((field) => ({
            title: t(LABELS[field]),
            key: field,
            render: (_: unknown, line: ReceivableLine) => (
              <Input
                data-testid={`batch-${field}-${line.line_no}-${line.asn_no}`}
                style={{ width: field === 'qty' || field.endsWith('Qty') ? 80 : 120 }}
                placeholder={field.endsWith('Date') ? 'YYYY-MM-DD' : undefined}
                value={entries[line.id]?.[field] ?? ''}
                onChange={(event) => change(line, field, event.target.value)}
              />
            ),
          })),
        ]}
      />
    </div>
  );
}
