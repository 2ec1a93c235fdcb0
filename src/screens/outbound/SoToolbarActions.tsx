import { useEffect, useState } from 'react';
import { Alert, Button, Input, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, ApiError, FormDialog, openPage, showSuccess, useSubmitAndClose, ViewDialog } from '../../app/public';
import { openDocumentInNewTab } from '../shared/open-document';
import { CompactTable, textColumns } from '../../app/public-widgets';
import type { ToolbarActionProps } from './toolbar-actions';
import { ManualAllocationDialog, useOrderBalance, type BalanceLine } from './ManualAllocation';
import type { OwnerSkuHit } from '../../common/outbound-api';

/** What `/so/checkPartialPack` answers per order: ordered against picked qty per line. */
interface PackCheck {
  soId: number;
  orderNo: string;
  status: string;
  partial: boolean;
  nothingPicked: boolean;
  reason: { code: string; message: string } | null;
  lines: PackCheckLine[];
}

interface PackCheckLine {
  lineId: number;
  lineNo: number;
  skuCode: string;
  ordered: string;
  picked: string;
  short: string;
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

type Dialog = 'allocate' | 'balance' | 'packCheck' | 'import' | 'arrival' | null;

/**
 * The sales order list's own toolbar: manual allocation of an order line from the stock the user
 * chooses, the order's stock balance with a search of its owner's SKUs, the order and store-arrival
 * imports (all or none, every refused row listed), the allocation rules, the pick list of the
 * selected order and the check before packing of the selected orders (fully picked, or which lines
 * are short). Each button follows the right of the call it makes: viewing for look-ups, the check
 * and the pick list, editing for allocation and arrival times, adding for the order import.
 */
export default function SoToolbarActions({ rights, selected, reload }: ToolbarActionProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Dialog>(null);
  const soId = selected.length === 1 ? Number(selected[0]._key) : null;
  const close = () => setOpen(null);

  // The error popup shows a refusal (an order not yet allocated).
  const printPickList = () => {
    if (soId !== null) openDocumentInNewTab('/pick/list.pdf', { query: { soId } }).catch(() => undefined);
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
      <Button data-testid="so-pick-list" disabled={soId === null} onClick={printPickList}>
        {t('outbound.soTools.pickList')}
      </Button>
      <Button data-testid="so-pack-check" disabled={selected.length === 0} onClick={() => setOpen('packCheck')}>
        {t('outbound.soTools.packCheck')}
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
      {open === 'packCheck' && selected.length > 0 && <PackCheckDialog soIds={selected.map((row) => Number(row._key))} onClose={close} />}
      {open === 'import' && <ImportFileDialog kind="orders" onClose={close} onDone={reload} />}
      {open === 'arrival' && <ImportFileDialog kind="arrival" onClose={close} onDone={reload} />}
    </>
  );
}

/**
 * The stock balance of an order: per line its quantity, what is open, available and short; and a
 * search of the order owner's SKUs with what the warehouse has available of each (for the next line).
 */
function BalanceDialog({ soId, onClose }: { soId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const balance = useOrderBalance(soId);
  const [skus, setSkus] = useState<OwnerSkuHit[] | null>(null);

  const search = async (text: string) => {
    try {
      const answer = await api<{ skus: OwnerSkuHit[] }>('/so/sku', { body: { soId, text: text.trim(), limit: 20 } });
      setSkus(answer.skus);
    } catch {
      setSkus([]);
    }
  };

  return (
    <ViewDialog title={t('outbound.soTools.balanceTitle', { orderNo: balance?.orderNo ?? '' })} closeText={t('outbound.soTools.close')} closeId="so-balance-close" onClose={onClose} width={760}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <div data-testid="so-balance-lines">
          <CompactTable<BalanceLine>
            rowKey="id"
            loading={!balance}
            dataSource={balance?.lines ?? []}
            columns={textColumns<BalanceLine>(t, [
              ['outbound.soTools.lineNo', 'line_no'],
              ['outbound.soTools.sku', 'sku_code'],
              ['outbound.soTools.qty', 'qty'],
              ['outbound.soTools.open', 'open'],
              ['outbound.soTools.available', 'available'],
              ['outbound.soTools.short', 'short'],
            ])}
          />
        </div>
        <Typography.Text strong>{t('outbound.soTools.skuSearch')}</Typography.Text>
        <div data-testid="so-sku-search">
          <Input.Search allowClear placeholder={t('outbound.soTools.skuSearchHint')} onSearch={(text) => void search(text)} />
        </div>
        {skus && (
          <div data-testid="so-sku-results">
            <CompactTable<OwnerSkuHit>
              rowKey="id"
              dataSource={skus}
              columns={textColumns<OwnerSkuHit>(t, [
                ['outbound.soTools.sku', 'code'],
                ['outbound.soTools.description', 'description'],
                ['outbound.soTools.uom', 'base_uom'],
                ['outbound.soTools.available', 'available'],
              ])}
            />
          </div>
        )}
      </Space>
    </ViewDialog>
  );
}

/**
 * The check before packing of the selected orders (`/so/checkPartialPack`, reads only): per order
 * whether it is fully picked, and the lines picked short of their qty with what is missing; an
 * order that can no longer be packed says why.
 */
function PackCheckDialog({ soIds, onClose }: { soIds: number[]; onClose: () => void }) {
  const { t } = useTranslation();
  const [orders, setOrders] = useState<PackCheck[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    api<{ orders: PackCheck[] }>('/so/checkPartialPack', { body: { soIds } }).then(
      (answer) => live && setOrders(answer.orders),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
    // The selection is read once, when the dialog opens.
    // oxlint-disable-next-line react/exhaustive-deps
  }, []);

  const verdict = (order: PackCheck) => {
    if (order.reason) return <Tag color="red">{order.reason.message}</Tag>;
    if (order.nothingPicked) return <Tag color="orange">{t('outbound.soTools.packNothingPicked')}</Tag>;
    if (order.partial) return <Tag color="orange">{t('outbound.soTools.packShort')}</Tag>;
    return <Tag color="green">{t('outbound.soTools.packFullyPicked')}</Tag>;
  };

  return (
    <ViewDialog title={t('outbound.soTools.packCheckTitle')} closeText={t('outbound.soTools.close')} closeId="so-pack-check-close" onClose={onClose} width={760}>
      <Space direction="vertical" style={{ width: '100%' }} data-testid="so-pack-check-dialog">
        {failed && <Alert type="error" showIcon message={t('outbound.soTools.packCheckFailed')} />}
        {!orders && !failed && <Typography.Text type="secondary">…</Typography.Text>}
        {orders?.map((order) => {
          const short = order.lines.filter((line) => Number(line.short) > 0);
          return (
            <div key={order.soId} data-testid="so-pack-check-order" data-order={order.orderNo}>
              <Space>
                <Typography.Text strong>{order.orderNo}</Typography.Text>
                <Typography.Text type="secondary">{t(`outbound.status.${order.status}`, { defaultValue: order.status })}</Typography.Text>
                <span data-testid="so-pack-check-verdict">{verdict(order)}</span>
              </Space>
              {short.length > 0 && !order.reason && (
                <CompactTable<PackCheckLine>
                  rowKey="lineId"
                  dataSource={short}
                  columns={textColumns<PackCheckLine>(t, [
                    ['outbound.soTools.lineNo', 'lineNo'],
                    ['outbound.soTools.sku', 'skuCode'],
                    ['outbound.soTools.ordered', 'ordered'],
                    ['outbound.soTools.picked', 'picked'],
                    ['outbound.soTools.short', 'short'],
                  ])}
                />
              )}
            </div>
          );
        })}
      </Space>
    </ViewDialog>
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
  const [busy, submit] = useSubmitAndClose(onDone, onClose);

  const upload = async () => {
    if (!file) return;
    setProblems(null);
    const form = new FormData();
    form.append('file', file, file.name);
    await submit(
      async () => {
        if (kind === 'orders') {
          const answer = await api<{ orders: number; lines: number }>('/so/import', { body: form, quiet: true });
          void showSuccess({ type: 'success', content: t('outbound.soTools.importedOrders', { orders: answer.orders, lines: answer.lines }) });
        } else {
          const answer = await api<{ updated: number }>('/so/importStoreArrival', { body: form, quiet: true });
          void showSuccess({ type: 'success', content: t('outbound.soTools.importedArrival', { count: answer.updated }) });
        }
      },
      (error) => setProblems(problemsOf(error)),
    );
  };

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
