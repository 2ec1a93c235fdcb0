import { useEffect, useState } from 'react';
import { Alert, Checkbox, Form, Input, List, Modal, Radio, Select, Space, Table, Tag, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../app/public';
import { PAGE_SCOPES } from '../../../engine/schema/index.js';
import { designerApi, type CopyReport, type DefinitionFile, type ImportItem, type PageKey } from './api';

const CODE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** A new page over an existing table: its key, table and scope; it starts as a draft with one field. */
export function NewPageDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (key: PageKey) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ moduleCode: string; functionCode: string; table: string; scope: string; titleCode: string }>();
  const [error, setError] = useState<string | null>(null);
  const create = async () => {
    const values = await form.validateFields();
    setError(null);
    const key = { moduleCode: values.moduleCode, functionCode: values.functionCode };
    const content = {
      schemaVersion: 2,
      moduleCode: values.moduleCode,
      functionCode: values.functionCode,
      titleCode: values.titleCode,
      status: 'draft',
      table: { name: values.table },
      scope: values.scope,
      fields: [{ name: 'id', labelCode: 'ID', type: 'integer', editable: false, displayable: false }],
      texts: { ID: { en: 'ID' } },
    };
    try {
      await designerApi.saveDraft(key, content);
      onCreated(key);
      form.resetFields();
    } catch (e) {
      setError(e instanceof ApiError ? e.body.message : String(e));
    }
  };
  return (
    <Modal open={open} title={t('ui.designer.newPage')} okText={t('ui.designer.create')} cancelText={t('ui.designer.cancel')} onCancel={onClose} onOk={() => void create()} okButtonProps={{ 'data-testid': 'designer-new-ok' }}>
      <Form form={form} layout="vertical" initialValues={{ scope: 'project' }}>
        <Form.Item name="moduleCode" label={t('ui.designer.prop.moduleCode')} rules={[{ required: true, pattern: CODE }]}>
          <Input data-testid="designer-new-module" />
        </Form.Item>
        <Form.Item name="functionCode" label={t('ui.designer.prop.functionCode')} rules={[{ required: true, pattern: CODE }]}>
          <Input data-testid="designer-new-function" />
        </Form.Item>
        <Form.Item name="titleCode" label={t('ui.designer.prop.titleCode')} rules={[{ required: true, pattern: /^[A-Za-z][A-Za-z0-9_]*([.-][A-Za-z0-9_]+)*$/ }]}>
          <Input data-testid="designer-new-title" />
        </Form.Item>
        <Form.Item name="table" label={t('ui.designer.prop.table')} rules={[{ required: true, pattern: IDENTIFIER }]}>
          <Input data-testid="designer-new-table" />
        </Form.Item>
        <Form.Item name="scope" label={t('ui.designer.prop.scope')} rules={[{ required: true }]}>
          <Select data-testid="designer-new-scope" options={PAGE_SCOPES.map((s) => ({ value: s, label: t(`ui.designer.value.scope.${s}`) }))} />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon message={error} />}
    </Modal>
  );
}

/** The report of a copy: pages written, references remapped, references left unresolved. */
export function CopyReportView({ report }: { report: CopyReport }) {
  const { t } = useTranslation();
  return (
    <div data-testid="designer-copy-report">
      <Typography.Text strong>{t('ui.designer.copy.pages')}</Typography.Text>
      <List
        size="small"
        dataSource={report.pages}
        renderItem={(p) => (
          <List.Item>
            {p.projectCode}: {p.from.moduleCode}/{p.from.functionCode} → {p.to.moduleCode}/{p.to.functionCode} v{p.version}{' '}
            <Tag>{t(`ui.designer.status.${p.status}`)}</Tag>
          </List.Item>
        )}
      />
      <Typography.Text strong>{t('ui.designer.copy.remapped', { count: report.remapped.length })}</Typography.Text>
      <List size="small" dataSource={report.remapped} renderItem={(r) => <List.Item>{`${r.projectCode} ${r.page.moduleCode}/${r.page.functionCode} ${r.path}: ${r.from} → ${r.to}`}</List.Item>} />
      <Typography.Text strong type={report.unresolved.length ? 'warning' : undefined}>
        {t('ui.designer.copy.unresolved', { count: report.unresolved.length })}
      </Typography.Text>
      <List
        size="small"
        dataSource={report.unresolved}
        renderItem={(r) => (
          <List.Item>
            {`${r.projectCode} ${r.page.moduleCode}/${r.page.functionCode} ${r.path}: ${r.reference}`} <Tag color="orange">{t(`ui.designer.copy.reason.${r.reason}`)}</Tag>
          </List.Item>
        )}
      />
    </div>
  );
}

/** Copy a page within the project, to a list of projects, or to a new project. */
export function CopyDialog({ page, onClose, onDone }: { page: PageKey | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'within' | 'projects' | 'newProject'>('within');
  const [target, setTarget] = useState({ moduleCode: '', functionCode: '' });
  const [projects, setProjects] = useState<string[]>([]);
  const [options, setOptions] = useState<Array<{ value: string; label: string }>>([]);
  const [newProject, setNewProject] = useState({ code: '', name: '' });
  const [withSubPages, setWithSubPages] = useState(true);
  const [publish, setPublish] = useState(false);
  const [report, setReport] = useState<CopyReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!page) return;
    setTarget({ moduleCode: page.moduleCode, functionCode: `${page.functionCode}_copy` });
    setReport(null);
    setError(null);
    designerApi.projects().then((answer) => setOptions(answer.options), () => setOptions([]));
  }, [page]);
  if (!page) return null;
  const run = async () => {
    setError(null);
    const opts = { withSubPages, publish };
    // Only the key: the server refuses any other property (the list passes its whole summary).
    const from = { moduleCode: page.moduleCode, functionCode: page.functionCode };
    try {
      const answer =
        mode === 'within'
          ? await designerApi.copy(from, target, opts)
          : mode === 'projects'
            ? await designerApi.copyToProjects([from], projects, opts)
            : await designerApi.copyToNewProject([from], newProject.code, newProject.name, opts);
      setReport(answer);
      onDone();
    } catch (e) {
      setError(e instanceof ApiError ? e.body.message : String(e));
    }
  };
  return (
    <Modal
      open
      width={720}
      title={t('ui.designer.copy.title', { page: `${page.moduleCode}/${page.functionCode}` })}
      okText={report ? t('ui.designer.close') : t('ui.designer.copy.run')}
      cancelText={t('ui.designer.cancel')}
      okButtonProps={{ 'data-testid': 'designer-copy-ok' }}
      onCancel={onClose}
      onOk={() => (report ? onClose() : void run())}
    >
      {report ? (
        <CopyReportView report={report} />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as typeof mode)} data-testid="designer-copy-mode">
            <Radio value="within">{t('ui.designer.copy.within')}</Radio>
            <Radio value="projects" data-testid="designer-copy-mode-projects">
              {t('ui.designer.copy.toProjects')}
            </Radio>
            <Radio value="newProject">{t('ui.designer.copy.toNewProject')}</Radio>
          </Radio.Group>
          {mode === 'within' && (
            <Space>
              <Input addonBefore={t('ui.designer.prop.moduleCode')} value={target.moduleCode} onChange={(e) => setTarget({ ...target, moduleCode: e.target.value })} />
              <Input
                data-testid="designer-copy-function"
                addonBefore={t('ui.designer.prop.functionCode')}
                value={target.functionCode}
                onChange={(e) => setTarget({ ...target, functionCode: e.target.value })}
              />
            </Space>
          )}
          {mode === 'projects' && (
            <Select data-testid="designer-copy-projects" mode="multiple" style={{ width: '100%' }} value={projects} options={options} onChange={setProjects} placeholder={t('ui.designer.copy.projects')} />
          )}
          {mode === 'newProject' && (
            <Space>
              <Input addonBefore={t('ui.designer.copy.projectCode')} value={newProject.code} onChange={(e) => setNewProject({ ...newProject, code: e.target.value })} />
              <Input addonBefore={t('ui.designer.copy.projectName')} value={newProject.name} onChange={(e) => setNewProject({ ...newProject, name: e.target.value })} />
            </Space>
          )}
          <Checkbox checked={withSubPages} onChange={(e) => setWithSubPages(e.target.checked)}>
            {t('ui.designer.copy.withSubPages')}
          </Checkbox>
          <Checkbox data-testid="designer-copy-publish" checked={publish} onChange={(e) => setPublish(e.target.checked)}>
            {t('ui.designer.copy.publish')}
          </Checkbox>
          {error && <Alert type="error" showIcon message={error} data-testid="designer-copy-error" />}
        </Space>
      )}
    </Modal>
  );
}

function saveJsonFile(name: string, data: unknown) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/**
 * Between environments: export the project's definitions as one JSON array of
 * `{ path, content }` files, and import such a file — a dry run lists every difference first.
 */
export function TransferDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: () => void }) {
  const { t } = useTranslation();
  const [includeShipped, setIncludeShipped] = useState(false);
  const [files, setFiles] = useState<DefinitionFile[] | null>(null);
  const [items, setItems] = useState<ImportItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const exportNow = async () => {
    const answer = await designerApi.exportDefinitions({ includeShipped });
    saveJsonFile(`definitions-${answer.projectCode}.json`, answer);
  };
  const readFile = async (file: File) => {
    setError(null);
    setDone(false);
    try {
      const parsed = JSON.parse(await file.text()) as { files?: DefinitionFile[] } | DefinitionFile[];
      const list = Array.isArray(parsed) ? parsed : (parsed.files ?? []);
      setFiles(list);
      const answer = await designerApi.importDefinitions(list, true);
      setItems(answer.items);
    } catch (e) {
      setError(e instanceof ApiError ? e.body.message : String(e));
    }
  };
  const importNow = async () => {
    if (!files) return;
    try {
      const answer = await designerApi.importDefinitions(files, false);
      setItems(answer.items);
      setDone(true);
      onImported();
    } catch (e) {
      setError(e instanceof ApiError ? e.body.message : String(e));
    }
  };
  const changed = items?.filter((i) => i.action === 'add' || i.action === 'change').length ?? 0;
  const invalid = items?.some((i) => i.action === 'invalid') ?? false;
  return (
    <Modal
      open={open}
      width={860}
      title={t('ui.designer.transfer.title')}
      okText={t('ui.designer.transfer.import', { count: changed })}
      cancelText={t('ui.designer.close')}
      okButtonProps={{ disabled: !items || invalid || changed === 0 || done, 'data-testid': 'designer-import-ok' }}
      onCancel={onClose}
      onOk={() => void importNow()}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space>
          <Checkbox checked={includeShipped} onChange={(e) => setIncludeShipped(e.target.checked)}>
            {t('ui.designer.transfer.includeShipped')}
          </Checkbox>
          <a data-testid="designer-export" onClick={() => void exportNow()}>
            {t('ui.designer.transfer.export')}
          </a>
        </Space>
        <Upload accept=".json,application/json" maxCount={1} showUploadList={false} beforeUpload={(file) => (void readFile(file), false)}>
          <a data-testid="designer-import-file">{t('ui.designer.transfer.chooseFile')}</a>
        </Upload>
        {error && <Alert type="error" showIcon message={error} />}
        {done && <Alert type="success" showIcon message={t('ui.designer.transfer.imported', { count: changed })} />}
        {items && (
          <Table
            size="small"
            rowKey="path"
            data-testid="designer-import-items"
            pagination={false}
            dataSource={items}
            expandable={{
              rowExpandable: (item) => item.changes.length > 0 || item.problems.length > 0,
              expandedRowRender: (item) => (
                <ul style={{ margin: 0 }}>
                  {item.problems.map((p, i) => (
                    <li key={`p${i}`} style={{ color: '#cf1322' }}>
                      <code>{p.field}</code> {p.message}
                    </li>
                  ))}
                  {item.changes.map((c, i) => (
                    <li key={`c${i}`}>
                      <code>{c.path}</code> {t(`ui.designer.transfer.change.${c.kind}`)}: {JSON.stringify(c.before)} → {JSON.stringify(c.after)}
                    </li>
                  ))}
                </ul>
              ),
            }}
            columns={[
              { title: t('ui.designer.transfer.path'), dataIndex: 'path' },
              {
                title: t('ui.designer.transfer.action'),
                dataIndex: 'action',
                render: (action: ImportItem['action']) => (
                  <Tag color={{ add: 'green', change: 'blue', unchanged: 'default', invalid: 'red' }[action]}>{t(`ui.designer.transfer.actions.${action}`)}</Tag>
                ),
              },
              { title: t('ui.designer.transfer.changes'), key: 'changes', render: (_: unknown, item: ImportItem) => item.changes.length },
            ]}
          />
        )}
      </Space>
    </Modal>
  );
}
