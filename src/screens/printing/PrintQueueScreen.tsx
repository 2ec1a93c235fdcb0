import { useCallback, useEffect, useRef, useState, type HTMLAttributes } from 'react';
import { Alert, Button, Input, Modal, Select, Space, Table, Tag, Typography, type InputRef } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../common/languages';
import { api, ApiError, fetchBlob, formatDateTime, showConfirm, useSession } from '../../app/public';

/** One print job as GET /print/job answers it. */
interface PrintJobRow {
  id: number;
  printerName: string;
  documentKind: string;
  reference: string | null;
  status: 'queued' | 'sent' | 'failed';
  attempts: number;
  errorCode: string | null;
  error: string | null;
  errorDetail: string | null;
  createdAt: string;
  createdBy: string | null;
  sentAt: string | null;
  copyOf: number | null;
}

interface SendOutcome {
  id: number;
  status: string;
  error?: string;
  message?: string;
}

const STATUS_COLOR: Record<PrintJobRow['status'], string> = { queued: 'gold', sent: 'green', failed: 'red' };

function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.body.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The print queue of the session's warehouse: its jobs with status, printer, document, reference,
 * attempts, last error and times; retry of queued or failed jobs and reprint of sent ones (each
 * asked first); a job's document, a PDF in a new browser tab or ZPL as text. The scan field filters
 * by reference (an SSCC, an order number): Enter applies it, Escape clears it and the selection.
 */
export default function PrintQueueScreen() {
  const { t } = useTranslation();
  const language = LANGUAGES[useSession((s) => s.languageCode)] ?? 'en';
  const timeZone = useSession((s) => s.status?.user.timeZone) ?? 'UTC';
  const when = (value: string) => formatDateTime(value, language, timeZone);
  const [rows, setRows] = useState<PrintJobRow[]>([]);
  const [status, setStatus] = useState<PrintJobRow['status'] | undefined>(undefined);
  const [reference, setReference] = useState('');
  const [applied, setApplied] = useState('');
  const [selected, setSelected] = useState<number[]>([]);
  const [canPrint, setCanPrint] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ type: 'success' | 'warning' | 'error'; text: string } | null>(null);
  const [zpl, setZpl] = useState<{ title: string; text: string } | null>(null);
  const scan = useRef<InputRef>(null);

  const load = useCallback(async () => {
    const answer = await api<PrintJobRow[]>('/print/job', { query: { status, limit: 500 }, quiet: true });
    setRows(answer);
    setSelected((current) => current.filter((id) => answer.some((r) => r.id === id)));
  }, [status]);

  useEffect(() => {
    load().catch((e: unknown) => setNotice({ type: 'error', text: messageOf(e) }));
  }, [load]);
  useEffect(() => {
    api<{ print: boolean }>('/print/job/access', { quiet: true })
      .then((answer) => setCanPrint(answer.print))
      .catch(() => setCanPrint(false));
    scan.current?.focus();
  }, []);

  // Escape closes the document view wherever the focus is (the scan field or the row's button
  // may still hold it right after the view opened).
  useEffect(() => {
    if (zpl === null) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setZpl(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [zpl]);

  const visible = applied ? rows.filter((r) => (r.reference ?? '').toLowerCase().includes(applied.toLowerCase())) : rows;
  const chosen = rows.filter((r) => selected.includes(r.id));

  const send = async (action: 'retry' | 'reprint') => {
    setNotice(null);
    if (!chosen.length) return setNotice({ type: 'warning', text: t('printing.queue.selectFirst') });
    if (action === 'retry' && chosen.some((r) => r.status === 'sent')) return setNotice({ type: 'warning', text: t('printing.queue.onlyUnsent') });
    if (action === 'reprint' && chosen.some((r) => r.status !== 'sent')) return setNotice({ type: 'warning', text: t('printing.queue.onlySent') });
    const ok = await showConfirm({
      content: t(action === 'retry' ? 'printing.queue.confirmRetry' : 'printing.queue.confirmReprint', { count: chosen.length }),
      okText: t(action === 'retry' ? 'printing.queue.retry' : 'printing.queue.reprint'),
      cancelText: t('ui.engine.cancel'),
    });
    if (!ok) return;
    setBusy(true);
    try {
      const path = action === 'retry' ? '/print/job/retry' : '/print/job/reprint';
      const answer = await api<{ outcomes: SendOutcome[] }>(path, { body: { ids: chosen.map((r) => r.id) }, quiet: true });
      const sent = answer.outcomes.filter((o) => o.status === 'sent').length;
      const problems = [...new Set(answer.outcomes.map((o) => o.message).filter((m): m is string => Boolean(m)))];
      const text = [t('printing.queue.outcome', { sent, count: answer.outcomes.length }), ...problems].join(' ');
      setNotice({ type: sent === answer.outcomes.length ? 'success' : 'warning', text });
      setSelected([]);
      await load();
    } catch (e) {
      setNotice({ type: 'error', text: messageOf(e) });
    } finally {
      setBusy(false);
      scan.current?.focus();
    }
  };

  const openDocument = async (row: PrintJobRow) => {
    setNotice(null);
    // A PDF opens in a tab opened before the answer arrives, so that the browser does not block it.
    const view = window.open('', '_blank');
    try {
      const file = await fetchBlob(`/print/job/${row.id}/document`, { quiet: true });
      if (file.contentType.startsWith('application/pdf')) {
        const url = URL.createObjectURL(file.blob);
        if (view) view.location.href = url;
        else window.location.assign(url);
        return;
      }
      if (view) view.close();
      setZpl({ title: `${t(`printing.kind.${row.documentKind}`, { defaultValue: row.documentKind })} ${row.reference ?? row.id}`, text: await file.blob.text() });
    } catch (e) {
      if (view) view.close();
      setNotice({ type: 'error', text: messageOf(e) });
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="print-queue">
      <Space wrap>
        <Input
          ref={scan}
          data-testid="print-queue-scan"
          style={{ width: 220 }}
          allowClear
          placeholder={t('printing.queue.scan')}
          value={reference}
          onChange={(e) => setReference(e.target.value)}
          onPressEnter={() => setApplied(reference.trim())}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              setReference('');
              setApplied('');
              setSelected([]);
            }
          }}
        />
        <Select
          data-testid="print-queue-status"
          style={{ minWidth: 150 }}
          value={status ?? ''}
          onChange={(value: string) => setStatus(value ? (value as PrintJobRow['status']) : undefined)}
          options={[
            { value: '', label: t('printing.queue.allStatuses') },
            ...(['queued', 'sent', 'failed'] as const).map((s) => ({ value: s, label: t(`printing.status.${s}`) })),
          ]}
        />
        <Button data-testid="print-queue-refresh" onClick={() => void load().catch((e: unknown) => setNotice({ type: 'error', text: messageOf(e) }))}>
          {t('printing.queue.refresh')}
        </Button>
        {canPrint && (
          <>
            <Button type="primary" data-testid="print-queue-retry" loading={busy} onClick={() => void send('retry')}>
              {t('printing.queue.retry')}
            </Button>
            <Button data-testid="print-queue-reprint" loading={busy} onClick={() => void send('reprint')}>
              {t('printing.queue.reprint')}
            </Button>
          </>
        )}
      </Space>
      {notice && <Alert type={notice.type} showIcon message={notice.text} closable onClose={() => setNotice(null)} data-testid="print-queue-notice" />}
      <Table<PrintJobRow>
        rowKey="id"
        size="small"
        scroll={{ x: 1100 }}
        pagination={{ pageSize: 50, showSizeChanger: false }}
        dataSource={visible}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        onRow={(row) => ({ 'data-testid': `print-job-${row.id}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('printing.queue.col.id'), dataIndex: 'id', width: 80 },
          {
            title: t('printing.queue.col.status'),
            dataIndex: 'status',
            width: 100,
            render: (value: PrintJobRow['status'], row) => (
              <Tag color={STATUS_COLOR[value]} data-testid={`print-job-status-${row.id}`} data-status={value}>
                {t(`printing.status.${value}`)}
              </Tag>
            ),
          },
          { title: t('printing.queue.col.printer'), dataIndex: 'printerName', width: 140 },
          { title: t('printing.queue.col.kind'), dataIndex: 'documentKind', width: 120, render: (kind: string) => t(`printing.kind.${kind}`, { defaultValue: kind }) },
          { title: t('printing.queue.col.reference'), dataIndex: 'reference', width: 190 },
          { title: t('printing.queue.col.attempts'), dataIndex: 'attempts', width: 80 },
          {
            title: t('printing.queue.col.error'),
            width: 220,
            render: (_, row) => (row.error ? <Typography.Text type="danger" title={row.errorDetail ?? undefined}>{row.error}</Typography.Text> : null),
          },
          { title: t('printing.queue.col.createdAt'), dataIndex: 'createdAt', width: 150, render: (value: string) => when(value) },
          { title: t('printing.queue.col.createdBy'), dataIndex: 'createdBy', width: 110 },
          { title: t('printing.queue.col.sentAt'), dataIndex: 'sentAt', width: 150, render: (value: string | null) => (value ? when(value) : '') },
          { title: t('printing.queue.col.copyOf'), dataIndex: 'copyOf', width: 90 },
          {
            title: '',
            width: 110,
            fixed: 'right',
            render: (_, row) => (
              <Button size="small" data-testid={`print-job-document-${row.id}`} onClick={() => void openDocument(row)}>
                {t('printing.queue.view')}
              </Button>
            ),
          },
        ]}
      />
      <Modal open={zpl !== null} title={zpl?.title} footer={null} onCancel={() => setZpl(null)} width={720} destroyOnHidden>
        <pre data-testid="print-job-zpl" style={{ maxHeight: '60vh', overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {zpl?.text}
        </pre>
      </Modal>
    </Space>
  );
}
