import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Template } from '@pdfme/common';
import { api, ApiError, fetchBlob, showConfirm, showSuccess, useRights } from '../../app/public';

const KINDS = ['pickList', 'packList', 'deliveryNote', 'cartonLabel', 'palletLabel', 'invoice', 'report'] as const;

interface TemplateSummary {
  id: number;
  code: string;
  kind: string;
  name: string;
  publishedVersion: number | null;
  reportId: number | null;
  updatedAt: string;
}
interface TemplateConfig extends TemplateSummary {
  draft: Template;
}
interface Version {
  version: number;
  publishedAt: string;
  publishedBy: string | null;
  current: boolean;
}
/** A report of the project, as a report template names the one it prints. */
interface ReportChoice {
  id: number;
  code: string;
  names: Record<string, string>;
  publishedVersion: number | null;
}
type DesignerHandle = { getTemplate(): Template; updateTemplate(t: Template): void; destroy(): void };

function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    const details = (error.body as { details?: Array<{ field: string; params?: { reason?: string } }> }).details;
    return details?.length ? `${error.body.message} (${details.map((d) => `${d.field}${d.params?.reason ? `: ${d.params.reason}` : ''}`).join(', ')})` : error.body.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The template designer (/templateDesigner): pick or start a template of the project, place its
 * fields in pdfme's designer, save the draft, preview it as PDF and publish it (docs/templates.md).
 * A report template names the report it prints and previews with that report's first rows.
 */
export default function TemplateDesignerScreen() {
  const { t, i18n } = useTranslation();
  const [list, setList] = useState<TemplateSummary[]>([]);
  const [current, setCurrent] = useState<{ id?: number; code: string; kind: string; name: string; publishedVersion: number | null; reportId: number | null } | null>(null);
  const [reports, setReports] = useState<ReportChoice[]>([]);
  const [versions, setVersions] = useState<Version[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [targets, setTargets] = useState<Array<{ id: number; code: string; name: string }>>([]);
  const [target, setTarget] = useState<number | undefined>();
  const [form] = Form.useForm<{ code: string; kind: string; name: string }>();
  const container = useRef<HTMLDivElement>(null);
  const designer = useRef<DesignerHandle | null>(null);
  const fontNames = useRef<string[]>([]);
  // What the server would refuse is neither asked nor offered: a refused call signs the user out of
  // this client. Saving a new template needs the add right, saving one that exists the edit right;
  // preview saves first. The reports to choose from need the report configurator's view right.
  const rights = useRights('template.design');
  const reportRights = useRights('report.config');
  const canSave = current?.id === undefined ? rights.add : rights.edit;

  const reload = useCallback(() => api<TemplateSummary[]>('/template/list', { body: {} }).then(setList), []);
  useEffect(() => {
    void reload();
    return () => designer.current?.destroy();
  }, [reload]);
  useEffect(() => {
    if (!rights.edit) return;
    api<Array<{ id: number; code: string; name: string }>>('/template/copyTargets', { body: {}, quiet: true })
      .then(setTargets)
      .catch(() => setTargets([]));
  }, [rights.edit]);
  useEffect(() => {
    if (!reportRights.view || !(rights.add || rights.edit)) return;
    api<ReportChoice[]>('/report/generic/configs', { body: {}, quiet: true })
      .then(setReports)
      .catch(() => setReports([]));
  }, [reportRights.view, rights.add, rights.edit]);
  useEffect(() => () => void (previewUrl && URL.revokeObjectURL(previewUrl)), [previewUrl]);

  const show = async (template: Template) => {
    if (!container.current) return;
    if (designer.current) return designer.current.updateTemplate(template);
    const { openDesigner } = await import('./pdfme-designer');
    designer.current = openDesigner(container.current, template, fontNames.current);
  };
  const shipped = async (kind: string) => {
    const answer = await api<{ template: Template; fontNames: string[] }>('/template/shipped', { body: { kind } });
    fontNames.current = answer.fontNames;
    return answer.template;
  };

  const open = async (id: number) => {
    setError(null);
    if (!fontNames.current.length) await shipped('report');
    const config = await api<TemplateConfig>('/template/get', { body: { id } });
    setCurrent({ id: config.id, code: config.code, kind: config.kind, name: config.name, publishedVersion: config.publishedVersion, reportId: config.reportId });
    setVersions(await api<Version[]>('/template/versions', { body: { id } }));
    await show(config.draft);
  };

  const start = async (values: { code: string; kind: string; name: string }) => {
    setStarting(false);
    setError(null);
    setCurrent({ ...values, publishedVersion: null, reportId: null });
    setVersions([]);
    await show(await shipped(values.kind));
  };

  const save = async (): Promise<number | undefined> => {
    if (!current || !designer.current) return undefined;
    setError(null);
    try {
      const body = { id: current.id, code: current.code, kind: current.kind, name: current.name, template: designer.current.getTemplate(), ...(current.kind === 'report' ? { reportId: current.reportId } : {}) };
      const saved = await api<TemplateConfig>('/template/save', { body, quiet: true });
      setCurrent({ id: saved.id, code: saved.code, kind: saved.kind, name: saved.name, publishedVersion: saved.publishedVersion, reportId: saved.reportId });
      await reload();
      return saved.id;
    } catch (e) {
      setError(messageOf(e));
      return undefined;
    }
  };

  const preview = async (withReportRows = false) => {
    const report = reports.find((r) => r.id === current?.reportId);
    if (withReportRows && !report) return setError(t('template.designer.needsReport'));
    const id = await save();
    if (!id) return;
    try {
      // The report's first rows, read by the report's own run (its draft while it has no published version).
      const documents = report
        ? (await api<{ documents: unknown[] }>('/report/generic/print/sample', { body: { id: report.id, draft: report.publishedVersion === null }, quiet: true })).documents
        : undefined;
      const { blob } = await fetchBlob('/report/generic/print/preview', { body: { templateId: id, draft: true, ...(withReportRows ? { documents } : {}) }, quiet: true });
      setPreviewUrl(URL.createObjectURL(new Blob([blob], { type: 'application/pdf' })));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const publish = async () => {
    const id = await save();
    if (!id) return;
    if (!(await showConfirm({ content: t('template.designer.publishConfirm', { code: current?.code }) }))) return;
    try {
      const { version } = await api<{ version: number }>('/template/publish', { body: { id }, quiet: true });
      void showSuccess({ type: 'success', content: t('template.designer.published', { version }) });
      setCurrent((c) => (c ? { ...c, publishedVersion: version } : c));
      setVersions(await api<Version[]>('/template/versions', { body: { id } }));
      await reload();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const copy = async () => {
    const project = targets.find((p) => p.id === target);
    if (!current?.id || !project) return;
    if (!(await showConfirm({ content: t('template.designer.copyConfirm', { code: current.code, project: project.code }) }))) return;
    try {
      await api('/template/copy', { body: { id: current.id, projectId: project.id }, quiet: true });
      void showSuccess({ type: 'success', content: t('template.designer.copied', { project: project.code }) });
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="small">
      <Card size="small">
        <Space wrap>
          <Select
            aria-label={t('template.designer.pick')}
            data-testid="template-pick"
            style={{ minWidth: 280 }}
            placeholder={t('template.designer.pick')}
            value={current?.id}
            showSearch
            optionFilterProp="label"
            options={list.map((r) => ({ value: r.id, label: `${r.code} - ${r.name} (${t(`template.kind.${r.kind}`)})` }))}
            onChange={(id: number) => void open(id)}
          />
          {rights.add && <Button onClick={() => setStarting(true)}>{t('template.designer.new')}</Button>}
          {current && (
            <>
              <Tag>{current.code}</Tag>
              <Tag color={current.publishedVersion ? 'green' : 'default'}>
                {current.publishedVersion ? t('template.designer.version', { version: current.publishedVersion }) : t('template.designer.unpublished')}
              </Tag>
              {canSave && (
                <>
                  <Button onClick={() => void save()}>{t('template.designer.save')}</Button>
                  {current.kind === 'report' && (
                    <Select
                      aria-label={t('template.designer.report')}
                      data-testid="template-report"
                      style={{ minWidth: 220 }}
                      placeholder={t('template.designer.report')}
                      value={current.reportId ?? undefined}
                      allowClear
                      showSearch
                      optionFilterProp="label"
                      notFoundContent={t('template.designer.noReport')}
                      options={reports.map((r) => ({ value: r.id, label: `${r.code} - ${r.names[i18n.language] || r.names.en || r.code}` }))}
                      onChange={(id: number | undefined) => setCurrent((c) => (c ? { ...c, reportId: id ?? null } : c))}
                    />
                  )}
                  <Button onClick={() => void preview()}>{t('template.designer.preview')}</Button>
                  {current.kind === 'report' && (
                    <Button onClick={() => void preview(true)} data-testid="template-preview-report">
                      {t('template.designer.previewRows')}
                    </Button>
                  )}
                  <Button type="primary" onClick={() => void publish()}>
                    {t('template.designer.publish')}
                  </Button>
                </>
              )}
              {current.id !== undefined && targets.length > 0 && (
                <>
                  <Select
                    aria-label={t('template.designer.copyTo')}
                    placeholder={t('template.designer.copyTo')}
                    style={{ minWidth: 180 }}
                    value={target}
                    onChange={setTarget}
                    options={targets.map((p) => ({ value: p.id, label: `${p.code} - ${p.name}` }))}
                  />
                  <Button disabled={target === undefined} onClick={() => void copy()}>
                    {t('template.designer.copy')}
                  </Button>
                </>
              )}
            </>
          )}
        </Space>
      </Card>
      {error && <Alert type="error" showIcon message={error} closable onClose={() => setError(null)} />}
      {!current && <Alert type="info" message={t('template.designer.hint')} />}
      <div ref={container} data-testid="template-designer" style={{ height: current ? '70vh' : 0, width: '100%', overflow: 'hidden' }} />
      {versions.length > 0 && (
        <Card size="small" title={t('template.designer.versions')}>
          <Table
            size="small"
            rowKey="version"
            pagination={false}
            dataSource={versions}
            columns={[
              { title: t('template.designer.versionNo'), dataIndex: 'version', render: (v: number, r: Version) => (r.current ? <b>{v}</b> : v) },
              { title: t('template.designer.publishedAt'), dataIndex: 'publishedAt' },
              { title: t('template.designer.publishedBy'), dataIndex: 'publishedBy' },
            ]}
          />
        </Card>
      )}
      <Modal open={starting} title={t('template.designer.new')} onCancel={() => setStarting(false)} onOk={() => form.submit()} destroyOnHidden>
        <Form form={form} layout="vertical" onFinish={(v) => void start(v)} initialValues={{ kind: 'pickList' }}>
          <Form.Item name="code" label={t('template.field.code')} rules={[{ required: true, pattern: /^[A-Za-z0-9_-]{1,40}$/ }]}>
            <Input autoFocus />
          </Form.Item>
          <Form.Item name="name" label={t('template.field.name')} rules={[{ required: true, max: 200 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="kind" label={t('template.field.kind')} rules={[{ required: true }]}>
            <Select options={KINDS.map((k) => ({ value: k, label: t(`template.kind.${k}`) }))} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal open={previewUrl !== null} title={t('template.designer.preview')} width="80vw" footer={null} onCancel={() => setPreviewUrl(null)}>
        {previewUrl && <iframe title={t('template.designer.preview')} data-testid="template-preview" src={previewUrl} style={{ width: '100%', height: '75vh', border: 0 }} />}
      </Modal>
    </Space>
  );
}
