import { useEffect, useState } from 'react';
import { Alert, Input, Select, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, FormDialog, showSuccess, useSubmitAndClose } from '../../app/public';

/** A line of `/so/balance`: what is still open and what the warehouse has available for it. */
export interface BalanceLine {
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

export interface BalanceAnswer {
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

/** The lines of an order with their open and available quantities, loaded once the dialog opens. */
export function useOrderBalance(soId: number) {
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
 * Manual allocation: the user picks a line of the order (the one chosen on the lines tab first), sees the stock it may be allocated from
 * (location, lot, expiry, available qty, SKU) and enters a quantity per row; OK allocates them all
 * in one call or nothing (a refusal names the row and what it has available).
 */
export function ManualAllocationDialog({ soId, lineId: chosenLine, onClose, onDone }: { soId: number; lineId?: number; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const balance = useOrderBalance(soId);
  const [lineId, setLineId] = useState<number | null>(chosenLine ?? null);
  const [candidates, setCandidates] = useState<Candidate[] | null>(null);
  const [qtys, setQtys] = useState<Record<number, string>>({});
  const [busy, submit] = useSubmitAndClose(onDone, onClose);
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

  // A refusal is shown by the error popup; the entered quantities stay for a correction.
  const allocate = async () => {
    if (lineId === null) return;
    const allocations = Object.entries(qtys)
      .filter(([, qty]) => qty.trim() !== '')
      .map(([balanceId, qty]) => ({ balanceId: Number(balanceId), qty: qty.trim() }));
    await submit(async () => {
      const answer = await api<{ allocated: string }>('/so/manualAllocation', { body: { lineId, allocations } });
      void showSuccess({ type: 'success', content: t('outbound.soTools.allocated', { qty: answer.allocated }) });
    });
  };

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

