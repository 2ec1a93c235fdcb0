import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Alert, Button, Card, Col, Empty, Form, Input, Row, Select, Space, Spin, Statistic, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../common/languages';
import type { DashboardWidget, DashboardWidgetData, ReportConfig } from '../../common/report-api';
import { api, ApiError, showConfirm, useRights } from '../../app/public';
import { formatCell, useLabel } from './report-texts';

const ChartWidget = lazy(() => import('./ChartWidget'));

function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.body.message;
  return error instanceof Error ? error.message : String(error);
}

function WidgetView({ widget }: { widget: DashboardWidgetData }) {
  const label = useLabel();
  const title = label(widget.title);
  if (widget.error) return <Card title={title} size="small"><Alert type="error" message={widget.error} /></Card>;
  if (widget.kind === 'number') {
    const column = widget.valueColumn ?? widget.columns[0]?.name ?? '';
    const spec = widget.columns.find((c) => c.name === column);
    return (
      <Card size="small" data-testid="widget-number">
        <Statistic title={title} value={formatCell(widget.rows[0]?.[column], spec?.type ?? 'text', spec?.decimals)} />
      </Card>
    );
  }
  if (widget.kind === 'chart') {
    return (
      <Card title={title} size="small">
        <Suspense fallback={<Spin />}>
          <ChartWidget widget={widget} />
        </Suspense>
      </Card>
    );
  }
  return (
    <Card title={title} size="small" data-testid="widget-table">
      <Table
        size="small"
        rowKey={(_r, i) => String(i)}
        dataSource={widget.rows}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        columns={widget.columns.map((c) => ({ title: label(c.labels, c.name), dataIndex: c.name, key: c.name, render: (v: unknown) => formatCell(v, c.type, c.decimals) }))}
      />
    </Card>
  );
}

interface WidgetForm {
  kind: DashboardWidget['kind'];
  reportId?: number;
  title: string;
  valueColumn?: string;
  labelColumn?: string;
  chart?: DashboardWidget['chart'];
}

/** The editor of the project's dashboard: widgets over the project's reports, saved as a draft and published (asked first). */
function DashboardEditor({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const label = useLabel();
  const [form] = Form.useForm<{ widgets: WidgetForm[] }>();
  const [reports, setReports] = useState<ReportConfig[]>([]);
  const [notice, setNotice] = useState<{ type: 'success' | 'error'; text: string } | null>(null);
  useEffect(() => {
    void Promise.all([api<ReportConfig[]>('/report/generic/configs', { body: {}, quiet: true }), api<{ widgets: DashboardWidget[] }>('/report/dashboard/draft', { body: {}, quiet: true })])
      .then(([configs, draft]) => {
        setReports(configs);
        form.setFieldsValue({ widgets: draft.widgets.map((w) => ({ ...w, title: w.title.en ?? '' })) });
      })
      .catch((e: unknown) => setNotice({ type: 'error', text: messageOf(e) }));
  }, [form]);
  const widgets = Form.useWatch('widgets', form) ?? [];
  const columnsOf = (reportId: number | undefined) => (reports.find((r) => r.id === reportId)?.draft.columns ?? []).map((c) => ({ value: c.name, label: label(c.labels, c.name) }));

  const save = async (): Promise<boolean> => {
    const values = await form.validateFields();
    try {
      const body = (values.widgets ?? []).map((w) => ({
        kind: w.kind,
        reportId: w.reportId,
        title: Object.fromEntries(LANGUAGES.map((l) => [l, w.title ?? ''])),
        ...(w.valueColumn ? { valueColumn: w.valueColumn } : {}),
        ...(w.labelColumn ? { labelColumn: w.labelColumn } : {}),
        ...(w.kind === 'chart' ? { chart: w.chart ?? 'bar' } : {}),
      }));
      await api('/report/dashboard/save', { body: { widgets: body }, quiet: true });
      setNotice({ type: 'success', text: t('report.ui.saved') });
      return true;
    } catch (e) {
      setNotice({ type: 'error', text: messageOf(e) });
      return false;
    }
  };
  const publish = async () => {
    if (!(await save())) return;
    if (!(await showConfirm({ content: `${t('report.ui.publish')} ${t('report.ui.dashboard')}?` }))) return;
    try {
      const { version } = await api<{ version: number }>('/report/dashboard/publish', { body: {}, quiet: true });
      setNotice({ type: 'success', text: t('report.ui.publishedOk', { version }) });
      onDone();
    } catch (e) {
      setNotice({ type: 'error', text: messageOf(e) });
    }
  };

  return (
    <div data-testid="dashboard-editor" onKeyDown={(e) => e.key === 'Escape' && onDone()}>
      {notice && <Alert type={notice.type} message={notice.text} showIcon style={{ marginBottom: 12 }} />}
      <Form form={form} layout="inline">
        <Form.List name="widgets">
          {(fields, { add, remove }) => (
            <Space direction="vertical" style={{ width: '100%' }}>
              {fields.map((field) => {
                const current = widgets[field.name];
                return (
                  <Space key={field.key} wrap>
                    <Form.Item name={[field.name, 'kind']} label={t('report.ui.widgetKind')}>
                      <Select style={{ width: 110 }} options={['number', 'chart', 'table'].map((v) => ({ value: v, label: v }))} data-testid={`widget-kind-${field.name}`} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'reportId']} rules={[{ required: true }]} label={t('report.ui.reports')}>
                      <Select style={{ width: 200 }} options={reports.map((r) => ({ value: r.id, label: label(r.names, r.code) }))} data-testid={`widget-report-${field.name}`} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'title']} label={t('report.ui.name')}>
                      <Input style={{ width: 160 }} data-testid={`widget-title-${field.name}`} />
                    </Form.Item>
                    {current?.kind !== 'table' && (
                      <Form.Item name={[field.name, 'valueColumn']} label={t('report.ui.valueColumn')}>
                        <Select style={{ width: 140 }} options={columnsOf(current?.reportId)} data-testid={`widget-value-${field.name}`} />
                      </Form.Item>
                    )}
                    {current?.kind === 'chart' && (
                      <>
                        <Form.Item name={[field.name, 'labelColumn']} label={t('report.ui.labelColumn')}>
                          <Select style={{ width: 140 }} options={columnsOf(current?.reportId)} data-testid={`widget-label-${field.name}`} />
                        </Form.Item>
                        <Form.Item name={[field.name, 'chart']} label={t('report.ui.chart')} initialValue="bar">
                          <Select style={{ width: 90 }} options={['bar', 'line', 'pie'].map((v) => ({ value: v, label: v }))} />
                        </Form.Item>
                      </>
                    )}
                    <Button onClick={() => remove(field.name)}>{t('report.ui.remove')}</Button>
                  </Space>
                );
              })}
              <Button onClick={() => add({ kind: 'table', title: '' })} data-testid="widget-add">
                {t('report.ui.add')}
              </Button>
            </Space>
          )}
        </Form.List>
      </Form>
      <Space style={{ marginTop: 12 }}>
        <Button onClick={onDone}>←</Button>
        <Button onClick={() => void save()} data-testid="dashboard-save">
          {t('report.ui.save')}
        </Button>
        <Button type="primary" onClick={() => void publish()} data-testid="dashboard-publish">
          {t('report.ui.publish')}
        </Button>
      </Space>
    </div>
  );
}

/**
 * The start page (/blankHome): the session project's published dashboard, its report widgets as a
 * number, a chart or a table; a configurator composes and publishes it here, without code.
 */
export default function DashboardScreen() {
  const { t } = useTranslation();
  const config = useRights('report.config');
  const [data, setData] = useState<DashboardWidgetData[] | null>(null);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    api<{ widgets: DashboardWidgetData[] }>('/report/dashboard/get', { body: {}, quiet: true })
      .then((answer) => setData(answer.widgets))
      .catch((e: unknown) => setError(messageOf(e)));
  }, []);
  useEffect(load, [load]);

  return (
    <div style={{ padding: 12 }} data-testid="dashboard">
      {config.edit && !editing && (
        <Button style={{ marginBottom: 12 }} onClick={() => setEditing(true)} data-testid="dashboard-edit">
          {t('report.ui.editDashboard')}
        </Button>
      )}
      {error && <Alert type="error" message={error} showIcon />}
      {editing ? (
        <DashboardEditor
          onDone={() => {
            setEditing(false);
            load();
          }}
        />
      ) : data === null ? (
        <Spin />
      ) : data.length === 0 ? (
        <Empty description={t('report.ui.emptyDashboard')} />
      ) : (
        <Row gutter={[12, 12]}>
          {data.map((widget, i) => (
            <Col key={i} xs={24} md={widget.kind === 'number' ? 8 : 12}>
              <WidgetView widget={widget} />
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}
