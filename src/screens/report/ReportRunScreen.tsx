import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Empty, Form, Input, Modal, Select, Space, Table, Typography, type InputRef } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ReportPageAnswer, RunnableReport } from '../../common/report-api';
import { api, ApiError, fetchBlob } from '../../app/public';
import { cellText, formatCell, useLabel } from './report-texts';

const PAGE_SIZE = 20;

function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.body.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The operator's report runner (/userGeneric): the published reports of the session's project,
 * a search form made of the chosen report's parameters (Enter runs it, Escape clears it), its rows
 * a page at a time with server sorting, its group totals, and export to xlsx or csv (a large
 * export goes to the download center), and printing through a published template of the project
 * for the report, shown as PDF (docs/templates.md "Templates for a report").
 */
export default function ReportRunScreen() {
  const { t } = useTranslation();
  const label = useLabel();
  const [reports, setReports] = useState<RunnableReport[] | null>(null);
  const [reportId, setReportId] = useState<number | undefined>(undefined);
  const [params, setParams] = useState<Record<string, string>>({});
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<{ column: string; desc: boolean } | undefined>(undefined);
  const [answer, setAnswer] = useState<ReportPageAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ type: 'info' | 'error'; text: string } | null>(null);
  const [templates, setTemplates] = useState<Array<{ id: number; code: string; name: string }>>([]);
  const [templateId, setTemplateId] = useState<number | undefined>(undefined);
  const [printing, setPrinting] = useState(false);
  const [pdfUrl, setPdfUrl] = useState<string | null>(null);
  const first = useRef<InputRef>(null);
  const report = reports?.find((r) => r.id === reportId);

  useEffect(() => {
    api<RunnableReport[]>('/report/generic/list', { method: 'POST', body: {}, quiet: true })
      .then((list) => {
        setReports(list);
        if (list.length) setReportId(list[0].id);
      })
      .catch((e: unknown) => setNotice({ type: 'error', text: messageOf(e) }));
  }, []);

  const run = useCallback(
    async (toPage: number, bySort = sort) => {
      if (reportId === undefined) return;
      setBusy(true);
      setNotice(null);
      try {
        const result = await api<ReportPageAnswer>('/report/generic/run', { body: { id: reportId, params, page: toPage, pageSize: PAGE_SIZE, sort: bySort }, quiet: true });
        setAnswer(result);
        setPage(toPage);
      } catch (e) {
        setNotice({ type: 'error', text: messageOf(e) });
      } finally {
        setBusy(false);
      }
    },
    [reportId, params, sort],
  );

  useEffect(() => {
    setAnswer(null);
    setParams({});
    setSort(undefined);
    setTemplates([]);
    setTemplateId(undefined);
    setTimeout(() => first.current?.focus(), 0);
    if (reportId === undefined) return;
    let current = true;
    api<Array<{ id: number; code: string; name: string }>>('/report/generic/print/templates', { body: { id: reportId }, quiet: true })
      .then((list) => {
        if (!current) return;
        setTemplates(list);
        setTemplateId(list[0]?.id);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [reportId]);
  useEffect(() => () => void (pdfUrl && URL.revokeObjectURL(pdfUrl)), [pdfUrl]);

  const print = async () => {
    if (reportId === undefined || templateId === undefined) return;
    setNotice(null);
    setPrinting(true);
    try {
      const { blob } = await fetchBlob('/report/generic/print', { body: { id: reportId, templateId, params, sort }, quiet: true });
      setPdfUrl(URL.createObjectURL(new Blob([blob], { type: 'application/pdf' })));
    } catch (e) {
      setNotice({ type: 'error', text: messageOf(e) });
    } finally {
      setPrinting(false);
    }
  };

  const exportAs = async (format: 'xlsx' | 'csv') => {
    if (reportId === undefined) return;
    setNotice(null);
    try {
      const file = await fetchBlob('/report/generic/export', { body: { id: reportId, params, sort, format }, quiet: true });
      if (file.contentType.includes('json')) {
        setNotice({ type: 'info', text: t('report.ui.background') });
        return;
      }
      const link = document.createElement('a');
      link.href = URL.createObjectURL(file.blob);
      link.download = file.fileName || `report.${format}`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (e) {
      setNotice({ type: 'error', text: messageOf(e) });
    }
  };

  if (reports !== null && reports.length === 0) return <Empty description={t('report.ui.noReports')} />;
  const columns = (answer?.columns ?? report?.spec.columns ?? []).map((c) => ({
    title: label(c.labels, c.name),
    dataIndex: c.name,
    key: c.name,
    sorter: true,
    align: c.type === 'number' ? ('right' as const) : undefined,
    sortOrder: sort?.column === c.name ? (sort.desc ? ('descend' as const) : ('ascend' as const)) : null,
    render: (value: unknown) => formatCell(value, c.type, c.decimals),
  }));
  const grouping = report?.spec.grouping;

  return (
    <div style={{ padding: 12 }} data-testid="report-run">
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          style={{ minWidth: 260 }}
          value={reportId}
          onChange={setReportId}
          options={(reports ?? []).map((r) => ({ value: r.id, label: r.name || r.code }))}
          aria-label={t('report.ui.reports')}
          data-testid="report-select"
        />
      </Space>
      {report && (
        <Form
          layout="inline"
          onFinish={() => void run(1)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setParams({});
          }}
          style={{ marginBottom: 12, rowGap: 8 }}
        >
          {report.spec.params.map((p, i) => (
            <Form.Item key={p.name} label={label(p.labels, p.name)} required={p.required}>
              <Input
                ref={i === 0 ? first : undefined}
                name={p.name}
                data-testid={`param-${p.name}`}
                type={p.type === 'date' ? 'date' : 'text'}
                inputMode={p.type === 'number' ? 'decimal' : undefined}
                value={params[p.name] ?? ''}
                onChange={(e) => setParams({ ...params, [p.name]: e.target.value })}
                allowClear
              />
            </Form.Item>
          ))}
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" loading={busy} data-testid="report-search">
                {t('report.ui.search')}
              </Button>
              <Button onClick={() => void exportAs('xlsx')} disabled={!answer} data-testid="report-export-xlsx">
                {t('report.ui.exportXlsx')}
              </Button>
              <Button onClick={() => void exportAs('csv')} disabled={!answer} data-testid="report-export-csv">
                {t('report.ui.exportCsv')}
              </Button>
              {templates.length > 1 && (
                <Select
                  style={{ minWidth: 180 }}
                  value={templateId}
                  onChange={setTemplateId}
                  options={templates.map((tpl) => ({ value: tpl.id, label: tpl.name || tpl.code }))}
                  aria-label={t('report.ui.printWith')}
                  data-testid="report-print-template"
                />
              )}
              {templates.length > 0 && (
                <Button onClick={() => void print()} disabled={!answer} loading={printing} data-testid="report-print">
                  {t('report.ui.print')}
                </Button>
              )}
            </Space>
          </Form.Item>
        </Form>
      )}
      {notice && <Alert type={notice.type} message={notice.text} showIcon closable onClose={() => setNotice(null)} style={{ marginBottom: 12 }} />}
      {answer && (
        <>
          <Table
            size="small"
            rowKey={(_row, index) => String(index)}
            columns={columns}
            dataSource={answer.rows}
            loading={busy}
            scroll={{ x: 'max-content' }}
            pagination={{ current: page, pageSize: PAGE_SIZE, total: answer.total, showSizeChanger: false, showTotal: (count) => t('report.ui.total', { count }) }}
            onChange={(pagination, _filters, sorter) => {
              const one = Array.isArray(sorter) ? sorter[0] : sorter;
              const next = one?.order ? { column: String(one.field), desc: one.order === 'descend' } : undefined;
              const sortChanged = JSON.stringify(next) !== JSON.stringify(sort);
              setSort(next);
              void run(sortChanged ? 1 : (pagination.current ?? 1), next);
            }}
            data-testid="report-rows"
          />
          {grouping && answer.groups.length > 0 && (
            <>
              <Typography.Title level={5}>{t('report.ui.groupTotal', { column: label(report?.spec.columns.find((c) => c.name === grouping.groupBy)?.labels, grouping.groupBy) })}</Typography.Title>
              <Table
                size="small"
                pagination={false}
                rowKey={(row) => String(row.group)}
                dataSource={answer.groups}
                data-testid="report-groups"
                columns={[
                  { title: label(report?.spec.columns.find((c) => c.name === grouping.groupBy)?.labels, grouping.groupBy), dataIndex: 'group', key: 'group', render: (v: unknown) => cellText(v) },
                  ...grouping.totals.map((total) => ({
                    title: `${label(report?.spec.columns.find((c) => c.name === total.column)?.labels, total.column)} (${total.aggregate})`,
                    key: `${total.column}:${total.aggregate}`,
                    align: 'right' as const,
                    render: (_v: unknown, row: ReportPageAnswer['groups'][number]) => String(row.values[`${total.column}:${total.aggregate}`] ?? ''),
                  })),
                ]}
              />
            </>
          )}
        </>
      )}
      <Modal open={pdfUrl !== null} title={t('report.ui.printTitle')} width="80vw" footer={null} onCancel={() => setPdfUrl(null)}>
        {pdfUrl && <iframe title={t('report.ui.printTitle')} data-testid="report-print-pdf" src={pdfUrl} style={{ width: '100%', height: '75vh', border: 0 }} />}
      </Modal>
    </div>
  );
}
