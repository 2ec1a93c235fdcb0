import { useEffect, useState } from 'react';
import { Alert, Button, Input, Modal, Select, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, ApiError, fetchBlob, FormDialog, openPage, showSuccess, useBusy } from '../../app/public';
import type { ToolbarActionProps } from './toolbar-actions';

/** A line of `/so/balance`: what is still open and what the warehouse has available for it. */
interface BalanceLine {
  id: number;
  line_no: number;
  sku_code: string;
  qty: string;
  allocated_qty: string;
  picked_qty: string;
  available: string;
  open: string;
  short: string;
}

interface BalanceAnswer {
  orderNo: string;
  status: string;
  lines: BalanceLine[];
}

/** A balance row `/so/findAllocation` offers for a line. */
interface Candidate {
  balance_id: number;
  location_code: string;
  lot_no: string | null;
  expiry_date: string | null;
  lpn: string | null;
  available: string;
}

interface SkuHit {
  id: number;
  code: string;
  description: string | null;
  base_uom: string;
  available: string;
}

interface FieldProblem {
  field: string;
  code: string;
  message?: string;
}

/** The refusal of a call as the user reads it: the server's message and each field's problem. */
function problemsOf(error: unknown): { message: string; details: string[] } {
  if (error instanceof ApiError) {
    // Each problem names its row and column: "row 3: skuCode: Invalid SKU." (a text that already names the field keeps it once).
    const details = ((error.body.details ?? []) as FieldProblem[]).map((d) => {
      const text = d.message ?? d.code;
      return text.startsWith(d.field) ? text : `${d.field}: ${text}`;
    });
    return { message: error.body.message, details };
  }
  return { message: error instanceof Error ? error.message : String(error), details: [] };
}

type Dialog = 'allocate' | 'balance' | 'import' | 'arrival' | null;

/**
 * The sales order list's own toolbar: manual allocation of an order line from the stock the user
 * chooses, the order's stock balance with a search of its owner's SKUs, the order and store-arrival
 * imports (all or none, every refused row listed), the allocation rules and the pick list of the
 * selected order. Each button follows the right of the call it makes: viewing for look-ups and the
 * pick list, editing for allocation and arrival times, adding for the order import.
 */
export default function SoToolbarActions({ rights, selected, reload }: ToolbarActionProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Dialog>(null);
  const soId = selected.length === 1 ? Number(selected[0]._key) : null;
  const close = () => setOpen(null);

  const printPickList = async () => {
    if (soId === null) return;
    // Opened before the answer arrives so that the browser does not block it as a pop-up.
    const view = window.open('', '_blank');
    try {
      const file = await fetchBlob('/pick/list.pdf', { query: { soId } });
      const url = URL.createObjectURL(file.blob);
      if (view) view.location.href = url;
      else window.location.assign(url);
    } catch {
      // The error popup has shown the refusal (an order not yet allocated).
      view?.close();
    }
  };

  if (!rights.view) return null;
  return (
    <>
      {rights.edit && (
        <Button data-testid="so-manual-allocation" disabled={soId === null} onClick={() => setOpen('allocate')}>
          {t('outbound.soTools.manualAllocation')}
        </Button>
      )}
      <Button data-testid="so-balance" disabled={soId === null} onClick={() => setOpen('balance')}>
        {t('outbound.soTools.balance')}
      </Button>
      <Button data-testid="so-pick-list" disabled={soId === null} onClick={() => void printPickList()}>
        {t('outbound.soTools.pickList')}
      </Button>
      {rights.add && (
        <Button data-testid="so-import-orders" onClick={() => setOpen('import')}>
          {t('outbound.soTools.importOrders')}
        </Button>
      )}
      {rights.edit && (
        <Button data-testid="so-import-arrival" onClick={() => setOpen('arrival')}>
          {t('outbound.soTools.importArrival')}
        </Button>
      )}
      <Button data-testid="so-rules" onClick={() => openPage('outbound', 'soRule', {})}>
        {t('outbound.soTools.rules')}
      </Button>
      {open === 'allocate' && soId !== null && <ManualAllocationDialog soId={soId} onClose={close} onDone={reload} />}
      {open === 'balance' && soId !== null && <BalanceDialog soId={soId} onClose={close} />}
      {open === 'import' && <ImportFileDialog kind="orders" onClose={close} onDone={reload} />}
      {open === 'arrival' && <ImportFileDialog kind="arrival" onClose={close} onDone={reload} />}
    </>
  );
}

/** The lines of an order with their open and available quantities, loaded once the dialog opens. */
function useOrderBalance(soId: number) {
  const [balance, setBalance] = useState<BalanceAnswer | null>(null);
  useEffect(() => {
    let live = true;
    api<BalanceAnswer>('/so/balance', { body: { soId } }).then(
      (answer) => live && setBalance(answer),
      () => live && setBalance({ orderNo: '', status: '', lines: [] }),
    );
    return () => {
      live = false;
    };
  }, [soId]);
  return balance;
}

/**
 * Manual allocation: the user picks a line of the order, sees the stock it may be allocated from
 * (location, lot, expiry, available qty, SKU) and enters a quantity per row; OK allocates them all
 * in one call or nothing (a refusal names the row and what it has available).
 */
function ManualAllocationDialog({ soId, onClose, onDone }: { soId: number; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const balance = useOrderBalance(soId);
  const [lineId, setLineId] = useState<number | null>(null);
  const [candidates, setCandidates] = useState<Candidate[] | null>(null);
  const [qtys, setQtys] = useState<Record<number, string>>({});
  const [busy, run] = useBusy();
  const line = balance?.lines.find((l) => l.id === lineId);

  useEffect(() => {
    if (lineId !== null || !balance) return;
    const first = balance.lines.find((l) => Number(l.open) > 0) ?? balance.lines[0];
    if (first) setLineId(first.id);
  }, [balance, lineId]);

  useEffect(() => {
    if (lineId === null) return;
    let live = true;
    setCandidates(null);
    setQtys({});
    api<{ candidates: Candidate[] }>('/so/findAllocation', { body: { lineId } }).then(
      (answer) => live && setCandidates(answer.candidates),
      () => live && setCandidates([]),
    );
    return () => {
      live = false;
    };
  }, [lineId]);

  const allocate = () =>
    run(async () => {
      if (lineId === null) return;
      const allocations = Object.entries(qtys)
        .filter(([, qty]) => qty.trim() !== '')
        .map(([balanceId, qty]) => ({ balanceId: Number(balanceId), qty: qty.trim() }));
      try {
        const answer = await api<{ allocated: string }>('/so/manualAllocation', { body: { lineId, allocations } });
        void showSuccess({ type: 'success', content: t('outbound.soTools.allocated', { qty: answer.allocated }) });
      } catch {
        // The error popup has shown the refusal; the entered quantities stay for a correction.
        return;
      }
      onDone();
      onClose();
    });

  return (
    <FormDialog
      open
      title={t('outbound.soTools.manualAllocationTitle', { orderNo: balance?.orderNo ?? '' })}
      okText={t('outbound.soTools.allocate')}
      cancelText={t('outbound.soTools.cancel')}
      busy={busy}
      submit={() => void allocate()}
      onClose={onClose}
      okButtonProps={{ id: 'so-manual-allocation-ok', disabled: !candidates?.length }}
    >
      <Space direction="vertical" style={{ width: '100%' }} data-testid="so-manual-allocation-dialog">
        <Select
          data-testid="so-manual-line"
          style={{ width: '100%' }}
          value={lineId ?? undefined}
          loading={!balance}
          onChange={(value: number) => setLineId(value)}
          options={(balance?.lines ?? []).map((l) => ({
            value: l.id,
            label: t('outbound.soTools.lineChoice', { lineNo: l.line_no, sku: l.sku_code, open: l.open }),
          }))}
        />
        {candidates && candidates.length === 0 && <Alert type="info" showIcon message={t('outbound.soTools.noCandidates')} />}
        <div data-testid="so-manual-candidates">
          <Table<Candidate>
            size="small"
            rowKey="balance_id"
            pagination={false}
            loading={lineId !== null && candidates === null}
            dataSource={candidates ?? []}
            columns={[
              { title: t('outbound.soTools.sku'), key: 'sku', render: () => line?.sku_code },
              { title: t('outbound.soTools.location'), dataIndex: 'location_code' },
              { title: t('outbound.soTools.lot'), dataIndex: 'lot_no' },
              { title: t('outbound.soTools.expiry'), dataIndex: 'expiry_date', render: (value: string | null) => value?.slice(0, 10) },
              { title: t('outbound.soTools.available'), dataIndex: 'available' },
              {
                title: t('outbound.soTools.allocateQty'),
                key: 'qty',
                render: (_: unknown, row: Candidate) => (
                  <Input
                    data-testid="so-manual-qty"
                    inputMode="decimal"
                    style={{ width: 110 }}
                    value={qtys[row.balance_id] ?? ''}
                    onChange={(event) => setQtys((current) => ({ ...current, [row.balance_id]: event.target.value }))}
                  />
                ),
              },
            ]}
          />
        </div>
      </Space>
    </FormDialog>
  );
}

/**
 * The stock balance of an order: per line its quantity, what is open, available and short; and a
 * search of the order owner's SKUs with what the warehouse has available of each (for the next line).
 */
function BalanceDialog({ soId, onClose }: { soId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const balance = useOrderBalance(soId);
  const [skus, setSkus] = useState<SkuHit[] | null>(null);

  const search = async (text: string) => {
    try {
      const answer = await api<{ skus: SkuHit[] }>('/so/sku', { body: { soId, text: text.trim(), limit: 20 } });
      setSkus(answer.skus);
    } catch {
      setSkus([]);
    }
  };

  return (
    <Modal
      open
      title={t('outbound.soTools.balanceTitle', { orderNo: balance?.orderNo ?? '' })}
      onCancel={onClose}
      footer={
        <Button id="so-balance-close" onClick={onClose}>
          {t('outbound.soTools.close')}
        </Button>
      }
      width={760}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <div data-testid="so-balance-lines">
          <Table<BalanceLine>
            size="small"
            rowKey="id"
            pagination={false}
            loading={!balance}
            dataSource={balance?.lines ?? []}
            columns={[
              { title: t('outbound.soTools.lineNo'), dataIndex: 'line_no' },
              { title: t('outbound.soTools.sku'), dataIndex: 'sku_code' },
              { title: t('outbound.soTools.qty'), dataIndex: 'qty' },
              { title: t('outbound.soTools.open'), dataIndex: 'open' },
              { title: t('outbound.soTools.available'), dataIndex: 'available' },
              { title: t('outbound.soTools.short'), dataIndex: 'short' },
            ]}
          />
        </div>
        <Typography.Text strong>{t('outbound.soTools.skuSearch')}</Typography.Text>
        <div data-testid="so-sku-search">
          <Input.Search allowClear placeholder={t('outbound.soTools.skuSearchHint')} onSearch={(text) => void search(text)} />
        </div>
        {skus && (
          <div data-testid="so-sku-results">
            <Table<SkuHit>
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={skus}
                columns={[
                { title: t('outbound.soTools.sku'), dataIndex: 'code' },
                { title: t('outbound.soTools.description'), dataIndex: 'description' },
                { title: t('outbound.soTools.uom'), dataIndex: 'base_uom' },
                { title: t('outbound.soTools.available'), dataIndex: 'available' },
              ]}
            />
          </div>
        )}
      </Space>
    </Modal>
  );
}

/**
 * The order import (`/so/import`: one row per line, rows of one order number make one order) and
 * the store-arrival import (`/so/importStoreArrival`: order no and arrival time): the file is
 * written all or none, and a refused file lists every row's problem in the dialog.
 */
function ImportFileDialog({ kind, onClose, onDone }: { kind: 'orders' | 'arrival'; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [problems, setProblems] = useState<{ message: string; details: string[] } | null>(null);
  const [busy, run] = useBusy();

  const upload = () =>
    run(async () => {
      if (!file) return;
      setProblems(null);
      const form = new FormData();
      form.append('file', file, file.name);
      try {
        if (kind === 'orders') {
          const answer = await api<{ orders: number; lines: number }>('/so/import', { body: form, quiet: true });
          void showSuccess({ type: 'success', content: t('outbound.soTools.importedOrders', { orders: answer.orders, lines: answer.lines }) });
        } else {
          const answer = await api<{ updated: number }>('/so/importStoreArrival', { body: form, quiet: true });
          void showSuccess({ type: 'success', content: t('outbound.soTools.importedArrival', { count: answer.updated }) });
        }
      } catch (error) {
        setProblems(problemsOf(error));
        return;
      }
      onDone();
      onClose();
    });

  return (
    <FormDialog
      open
      title={t(kind === 'orders' ? 'outbound.soTools.importOrders' : 'outbound.soTools.importArrival')}
      okText={t('outbound.soTools.upload')}
      cancelText={t('outbound.soTools.cancel')}
      busy={busy}
      submit={() => void upload()}
      onClose={onClose}
      okButtonProps={{ id: 'so-import-run', disabled: !file }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t(kind === 'orders' ? 'outbound.soTools.importOrdersHint' : 'outbound.soTools.importArrivalHint')}</Typography.Text>
        <input
          type="file"
          data-testid="so-import-file"
          accept=".xlsx,.csv"
          onChange={(event) => {
            setProblems(null);
            setFile(event.target.files?.[0] ?? null);
          }}
        />
        {problems && (
          <Alert
            type="error"
            showIcon
            data-testid="so-import-problems"
            message={problems.message}
            description={
              problems.details.length ? (
                <ul style={{ margin: 0, paddingLeft: 18, maxHeight: 240, overflow: 'auto' }}>
                  {problems.details.map((detail, i) => (
                    <li key={i}>{detail}</li>
                  ))}
                </ul>
              ) : undefined
            }
          />
        )}
      </Space>
    </FormDialog>
  );
}
