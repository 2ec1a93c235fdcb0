import { Button, Progress } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, download } from '../../app/public';
import { openDocumentInNewTab } from '../shared/open-document';
import type { ToolbarActionProps } from './toolbar-actions';

interface RunState {
  id: number;
  billId: string;
  by: string;
  status: 'running' | 'done' | 'failed' | 'abandoned';
  stage: string;
  percent: number;
  startedAt: string;
}

/**
 * The billing runs of the project going on (and finished in the last minutes), on any server, each
 * with a progress bar and, on hovering, its stage, who started it and when: asked every two seconds
 * while a run goes on, every fifteen otherwise, so a user who left the page and came back sees the
 * run where it is. A run whose server stopped is shown abandoned.
 */
function RunProgressBars() {
  const { t } = useTranslation();
  const [runs, setRuns] = useState<RunState[]>([]);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      let running = false;
      try {
        const answer = await api<{ runs: RunState[] }>('/billing/run/progress', { method: 'POST', body: {}, quiet: true });
        if (stopped) return;
        setRuns(answer.runs.slice(0, 3));
        running = answer.runs.some((r) => r.status === 'running');
      } catch {
        // Asked again at the next turn.
      }
      if (!stopped) timer = setTimeout(() => void poll(), running ? 2000 : 15000);
    };
    void poll();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, []);
  if (runs.length === 0) return null;
  return (
    <span data-testid="billing-run-progress" style={{ display: 'inline-flex', gap: 12, alignItems: 'center' }}>
      {runs.map((run) => (
        <span
          key={run.id}
          data-testid="billing-run"
          data-status={run.status}
          title={`${t(`billing.progress.stage.${run.stage.split(':')[0]}`, { defaultValue: run.stage })} · ${t('billing.progress.startedBy', { at: new Date(run.startedAt).toLocaleString(), by: run.by })}`}
        >
          {t(`billing.progress.${run.status}`, { billId: run.billId })}{' '}
          <Progress percent={run.percent} size="small" status={run.status === 'failed' || run.status === 'abandoned' ? 'exception' : run.status === 'done' ? 'success' : 'active'} style={{ width: 120, margin: 0 }} />
        </span>
      ))}
    </span>
  );
}

/**
 * The bill list's own toolbar: the invoice of the selected bill as PDF (a confirmed or posted bill;
 * a draft is refused with its message) opened in a new tab, and its lines downloaded as an xlsx
 * workbook, and the progress of the project's billing runs. All need only the page's view right.
 */
export default function BillToolbarActions({ rights, selected }: ToolbarActionProps) {
  const { t } = useTranslation();
  const id = selected.length === 1 ? Number(selected[0]._key) : null;
  if (!rights.view) return null;

  // The error popup shows a refusal (a draft has no invoice yet).
  const openInvoice = () => {
    if (id !== null) openDocumentInNewTab('/billing/invoice.pdf', { query: { id } }).catch(() => undefined);
  };

  return (
    <>
      <RunProgressBars />
      <Button data-testid="billing-invoice-pdf" disabled={id === null} onClick={openInvoice}>
        {t('billing.tools.invoicePdf')}
      </Button>
      <Button data-testid="billing-export-lines" disabled={id === null} onClick={() => id !== null && void download('/billing/lines.xlsx', { query: { id } }).catch(() => undefined)}>
        {t('billing.tools.exportLines')}
      </Button>
    </>
  );
}
