import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Checkbox, Form, Input, InputNumber, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { LANGUAGES } from '../../common/languages';
import type { ReportConfig, ReportPageAnswer, ReportSpec } from '../../common/report-api';
import { api, ApiError, showConfirm, useRights } from '../../app/public';
import { formatCell, useLabel } from './report-texts';

function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    const details = (error.body as { details?: Array<{ field: string }> }).details;
    return details?.length ? `${error.body.message} (${details.map((d) => d.field).join(', ')})` : error.body.message;
  }
  return error instanceof Error ? error.message : String(error);
}

interface LabelledRow {
  name: string;
  label: string;
  type: string;
}

interface EditorValues {
  code: string;
  names: Record<string, string>;
  displayOrder: number;
  sql: string;
  params: Array<LabelledRow & { required?: boolean }>;
  columns: Array<LabelledRow & { decimals?: number | null }>;
  groupBy?: string;
  totals: Array<{ column: string; aggregate: 'sum' | 'count' | 'avg' }>;
  organizationIds: string[];
  projectIds: string[];
  userIds: string[];
}

/** One text in every language: a label typed once serves all six until someone translates it. */
const everyLanguage = (text: string) => Object.fromEntries(LANGUAGES.map((l) => [l, text]));

function toValues(config: ReportConfig | null): EditorValues {
  const draft = config?.draft;
  return {
    code: config?.code ?? '',
    names: { ...everyLanguage(''), ...config?.names },
    displayOrder: config?.displayOrder ?? 0,
    sql: draft?.sql ?? '',
    params: (draft?.params ?? []).map((p) => ({ name: p.name, label: p.labels.en ?? p.name, type: p.type, required: p.required })),
    columns: (draft?.columns ?? []).map((c) => ({ name: c.name, label: c.labels.en ?? c.name, type: c.type, decimals: c.decimals ?? null })),
    groupBy: draft?.grouping?.groupBy,
    totals: draft?.grouping?.totals ?? [],
    organizationIds: (config?.assignments.organizationIds ?? []).map(String),
    projectIds: (config?.assignments.projectIds ?? []).map(String),
    userIds: (config?.assignments.userIds ?? []).map(String),
  };
}

function toSpec(values: EditorValues, labelsOf: (name: string, label: string) => Record<string, string>): ReportSpec {
  return {
    sql: values.sql,
    params: (values.params ?? []).map((p) => ({ name: p.name, labels: labelsOf(p.name, p.label), type: p.type as ReportSpec['params'][number]['type'], ...(p.required ? { required: true } : {}) })),
    columns: (values.columns ?? []).map((c) => ({
      name: c.name,
      labels: labelsOf(c.name, c.label),
      type: c.type as ReportSpec['columns'][number]['type'],
      ...(c.decimals !== null && c.decimals !== undefined ? { decimals: c.decimals } : {}),
    })),
    grouping: values.groupBy ? { groupBy: values.groupBy, totals: values.totals ?? [] } : null,
  };
}

const ids = (values: string[] | undefined) => (values ?? []).filter((v) => /^\d{1,15}$/.test(v)).map(Number);

/**
 * The configurator's report settings (/userReport): the session project's reports, and an editor
 * of one: names in six languages, display order, the SQL with `:named` parameters (run in the
 * configurator sandbox), its parameters and columns with types and formats, group totals, and
 * assignments to organizations, projects and users. Save keeps a draft; publish makes it the
 * version operators run (asked first); the draft may be run here before.
 */
/** Rows the configurator adds and removes (parameters, columns, group totals): each row's fields with its Remove button, and Add below. */
function EditableRows({ name, newRow, addTestId, children }: { name: string; newRow: object; addTestId: string; children: (row: number) => ReactNode }) {
  const { t } = useTranslation();
  return (
    <Form.List name={name}>
      {(fields, { add, remove }) => (
        <>
          {fields.map((field) => (
            <Space key={field.key} wrap>
              {children(field.name)}
              <Button onClick={() => remove(field.name)}>{t('report.ui.remove')}</Button>
            </Space>
          ))}
          <Button onClick={() => add(newRow)} data-testid={addTestId}>
            {t('report.ui.add')}
          </Button>
        </>
      )}
    </Form.List>
  );
}

/** The name (required) and label of a parameter or column row (a fragment, so that each is an item of the row's Space). */
function nameAndLabel(t: TFunction, row: number, testIdPrefix: string) {
  return (
    <>
      <Form.Item name={[row, 'name']} rules={[{ required: true }]}>
        <Input placeholder={t('report.ui.name')} data-testid={`${testIdPrefix}-name-${row}`} />
      </Form.Item>
      <Form.Item name={[row, 'label']}>
        <Input placeholder={t('report.ui.label')} data-testid={`${testIdPrefix}-label-${row}`} />
      </Form.Item>
    </>
  );
}

export default function ReportConfigScreen() {
  const { t } = useTranslation();
  const label = useLabel();
  const rights = useRights('report.config');
  const [configs, setConfigs] = useState<ReportConfig[]>([]);
  const [editing, setEditing] = useState<ReportConfig | null | undefined>(undefined);
  const [preview, setPreview] = useState<ReportPageAnswer | null>(null);
  const [notice, setNotice] = useState<{ type: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<EditorValues>();
  const columnNames = (Form.useWatch('columns', form) ?? []).map((c) => c?.name).filter(Boolean);

  const load = useCallback(async () => {
    setConfigs(await api<ReportConfig[]>('/report/generic/configs', { body: {}, quiet: true }));
  }, []);
  useEffect(() => {
    load().catch((e: unknown) => setNotice({ type: 'error', text: messageOf(e) }));
  }, [load]);

  const open = (config: ReportConfig | null) => {
    setEditing(config);
    setPreview(null);
    setNotice(null);
    form.setFieldsValue(toValues(config));
  };

  const save = async (): Promise<ReportConfig | undefined> => {
    const values = await form.validateFields();
    const previous = editing?.draft;
    const labelsOf = (name: string, text: string) => {
      const old = [...(previous?.columns ?? []), ...(previous?.params ?? [])].find((x) => x.name === name)?.labels;
      return old && old.en === text ? old : everyLanguage(text || name);
    };
    setBusy(true);
    try {
      const saved = await api<ReportConfig>('/report/generic/save', {
        quiet: true,
        body: {
          ...(editing ? { id: editing.id } : {}),
          code: values.code,
          names: Object.fromEntries(LANGUAGES.map((l) => [l, values.names[l] || values.names.en || values.code])),
          displayOrder: values.displayOrder ?? 0,
          draft: toSpec(values, labelsOf),
          assignments: { organizationIds: ids(values.organizationIds), projectIds: ids(values.projectIds), userIds: ids(values.userIds) },
        },
      });
      setEditing(saved);
      setNotice({ type: 'success', text: t('report.ui.saved') });
      await load();
      return saved;
    } catch (e) {
      setNotice({ type: 'error', text: messageOf(e) });
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  const publish = async () => {
    const saved = await save();
    if (!saved) return;
    if (!(await showConfirm({ content: t('report.ui.publish') + ' ' + (saved.names.en ?? saved.code) + '?' }))) return;
    try {
      const { version } = await api<{ version: number }>('/report/generic/publish', { body: { id: saved.id }, quiet: true });
      setNotice({ type: 'success', text: t('report.ui.publishedOk', { version }) });
      setEditing({ ...saved, publishedVersion: version });
      await load();
    } catch (e) {
      setNotice({ type: 'error', text: messageOf(e) });
    }
  };

  const runDraft = async () => {
    const saved = await save();
    if (!saved) return;
    try {
      setPreview(await api<ReportPageAnswer>('/report/generic/run', { body: { id: saved.id, draft: true, pageSize: 20 }, quiet: true }));
    } catch (e) {
      setNotice({ type: 'error', text: messageOf(e) });
    }
  };

  if (editing === undefined) {
    return (
      <div style={{ padding: 12 }} data-testid="report-config">
        <Space style={{ marginBottom: 12 }}>
          {rights.edit && (
            <Button type="primary" onClick={() => open(null)} data-testid="report-new">
              {t('report.ui.newReport')}
            </Button>
          )}
        </Space>
        {notice && <Alert type={notice.type} message={notice.text} showIcon style={{ marginBottom: 12 }} />}
        <Table
          size="small"
          rowKey="id"
          dataSource={configs}
          pagination={false}
          onRow={(row) => ({ onClick: () => open(row), style: { cursor: 'pointer' } })}
          columns={[
            { title: t('report.ui.order'), dataIndex: 'displayOrder', key: 'order', width: 90 },
            { title: t('report.ui.code'), dataIndex: 'code', key: 'code' },
            { title: t('report.ui.names'), key: 'name', render: (_v, row) => label(row.names, row.code) },
            {
              title: t('report.ui.versions'),
              key: 'version',
              render: (_v, row) => (row.publishedVersion ? <Tag color="green">{t('report.ui.published', { version: row.publishedVersion })}</Tag> : <Tag>{t('report.ui.notPublished')}</Tag>),
            },
          ]}
        />
      </div>
    );
  }

  const typeOptions = (types: string[]) => types.map((v) => ({ value: v, label: v }));
  return (
    <div
      style={{ padding: 12, maxWidth: 1100 }}
      data-testid="report-editor"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !(e.target instanceof HTMLTextAreaElement)) setEditing(undefined);
      }}
    >
      <Space style={{ marginBottom: 12 }} wrap>
        <Button onClick={() => setEditing(undefined)}>←</Button>
        <Typography.Text strong>{editing ? label(editing.names, editing.code) : t('report.ui.newReport')}</Typography.Text>
        {editing?.publishedVersion ? <Tag color="green">{t('report.ui.published', { version: editing.publishedVersion })}</Tag> : <Tag>{t('report.ui.draft')}</Tag>}
      </Space>
      {notice && <Alert type={notice.type} message={notice.text} showIcon closable onClose={() => setNotice(null)} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" disabled={!rights.edit} initialValues={toValues(editing)}>
        <Space wrap align="start">
          <Form.Item name="code" label={t('report.ui.code')} rules={[{ required: true, pattern: /^[A-Za-z0-9_-]{1,40}$/ }]}>
            <Input data-testid="report-code" autoFocus style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="displayOrder" label={t('report.ui.order')}>
            <InputNumber precision={0} />
          </Form.Item>
        </Space>
        <Card size="small" title={t('report.ui.names')} style={{ marginBottom: 12 }}>
          <Space wrap>
            {LANGUAGES.map((l) => (
              <Form.Item key={l} name={['names', l]} label={l} rules={l === 'en' ? [{ required: true }] : []}>
                <Input data-testid={`report-name-${l}`} style={{ width: 200 }} />
              </Form.Item>
            ))}
          </Space>
        </Card>
        <Form.Item name="sql" label={t('report.ui.sql')} rules={[{ required: true }]}>
          <Input.TextArea data-testid="report-sql" rows={8} style={{ fontFamily: 'monospace' }} spellCheck={false} />
        </Form.Item>
        <Card size="small" title={t('report.ui.params')} style={{ marginBottom: 12 }}>
          <EditableRows name="params" newRow={{ type: 'text' }} addTestId="param-add">
            {(row) => (
              <>
                {nameAndLabel(t, row, 'param')}
                <Form.Item name={[row, 'type']} initialValue="text">
                  <Select style={{ width: 110 }} options={typeOptions(['text', 'number', 'date'])} />
                </Form.Item>
                <Form.Item name={[row, 'required']} valuePropName="checked">
                  <Checkbox>{t('report.ui.required')}</Checkbox>
                </Form.Item>
              </>
            )}
          </EditableRows>
        </Card>
        <Card size="small" title={t('report.ui.columns')} style={{ marginBottom: 12 }}>
          <EditableRows name="columns" newRow={{ type: 'text' }} addTestId="column-add">
            {(row) => (
              <>
                {nameAndLabel(t, row, 'column')}
                <Form.Item name={[row, 'type']} initialValue="text">
                  <Select style={{ width: 110 }} options={typeOptions(['text', 'number', 'date', 'datetime'])} data-testid={`column-type-${row}`} />
                </Form.Item>
                <Form.Item name={[row, 'decimals']}>
                  <InputNumber min={0} max={6} precision={0} placeholder={t('report.ui.decimals')} />
                </Form.Item>
              </>
            )}
          </EditableRows>
        </Card>
        <Card size="small" title={t('report.ui.totals')} style={{ marginBottom: 12 }}>
          <Form.Item name="groupBy" label={t('report.ui.groupBy')}>
            <Select allowClear style={{ width: 220 }} options={columnNames.map((n) => ({ value: n, label: n }))} data-testid="report-group-by" />
          </Form.Item>
          <EditableRows name="totals" newRow={{ aggregate: 'sum' }} addTestId="total-add">
            {(row) => (
              <>
                <Form.Item name={[row, 'column']} rules={[{ required: true }]}>
                  <Select style={{ width: 200 }} options={columnNames.map((n) => ({ value: n, label: n }))} data-testid={`total-column-${row}`} />
                </Form.Item>
                <Form.Item name={[row, 'aggregate']} initialValue="sum">
                  <Select style={{ width: 110 }} options={typeOptions(['sum', 'count', 'avg'])} />
                </Form.Item>
              </>
            )}
          </EditableRows>
        </Card>
        <Space wrap align="start">
          <Form.Item name="organizationIds" label={t('report.ui.assignOrgs')}>
            <Select mode="tags" style={{ width: 220 }} open={false} />
          </Form.Item>
          <Form.Item name="projectIds" label={t('report.ui.assignProjects')}>
            <Select mode="tags" style={{ width: 220 }} open={false} />
          </Form.Item>
          <Form.Item name="userIds" label={t('report.ui.assignUsers')}>
            <Select mode="tags" style={{ width: 220 }} open={false} />
          </Form.Item>
        </Space>
      </Form>
      {rights.edit && (
        <Space style={{ marginTop: 12 }}>
          <Button onClick={() => void save()} loading={busy} data-testid="report-save">
            {t('report.ui.save')}
          </Button>
          <Button onClick={() => void runDraft()} loading={busy} data-testid="report-preview">
            {t('report.ui.preview')}
          </Button>
          <Button type="primary" onClick={() => void publish()} loading={busy} data-testid="report-publish">
            {t('report.ui.publish')}
          </Button>
        </Space>
      )}
      {preview && (
        <Table
          style={{ marginTop: 12 }}
          size="small"
          rowKey={(_r, i) => String(i)}
          dataSource={preview.rows}
          pagination={false}
          columns={preview.columns.map((c) => ({ title: label(c.labels, c.name), dataIndex: c.name, key: c.name, render: (v: unknown) => formatCell(v, c.type, c.decimals) }))}
        />
      )}
    </div>
  );
}
