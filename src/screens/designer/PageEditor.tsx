import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Badge, Button, Checkbox, Modal, Select, Space, Spin, Tabs, Tag, Tooltip, Typography, message } from 'antd';
import { RedoOutlined, UndoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PageDefinition, ValidationProblem } from '../../../engine/schema/index.js';
import type { FieldError } from '../../common/errors';
import { ApiError, FormDialog } from '../../app/public';
import { stableStringify } from '../../common/designer/stable-json';
import { designerApi, type PageDetail, type PageKey } from './api';
import { JsonEditor } from './monaco/lazy';
import { problemsUnder, validateDocument } from './problems';
import { useHistory } from './useHistory';
import { ConditionBuilder } from './panels/ConditionBuilder';
import { ConfirmButton } from './panels/ConfirmButton';
import { ItemListEditor, type ItemListEditorProps } from './panels/ItemListEditor';
import { PreviewPanel } from './panels/PreviewPanel';
import { PropertyForm } from './panels/PropertyForm';
import { SqlTools } from './panels/SqlTools';
import { TextsPanel } from './panels/TextsPanel';
import { VersionsPanel } from './panels/VersionsPanel';
import {
  BEHAVIOUR_PROPERTIES,
  FIELD_MAP_PROPERTIES,
  PAGE_PROPERTIES,
  QUERY_CONDITION_PROPERTIES,
  SQL_PROPERTIES,
  SUB_PAGE_PROPERTIES,
  fieldProperties,
  FIELD_TYPE_LABELS,
} from './panels/specs';

type Doc = Record<string, unknown>;
type Obj = Record<string, unknown>;

const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const itemsOf = (doc: Doc, key: string): Obj[] => (Array.isArray(doc[key]) ? (doc[key] as Obj[]) : []);

function uniqueName(base: string, taken: string[]): string {
  let n = taken.length + 1;
  while (taken.includes(`${base}${n}`)) n += 1;
  return `${base}${n}`;
}

/** A new item's code, free among the items', with its text code (the code in capitals) under `textKey`. */
function newCoded(items: Obj[], base: string, textKey: 'labelCode' | 'titleCode'): Obj {
  const code = uniqueName(base, items.map((i) => str(i.code)));
  return { code, [textKey]: code.toUpperCase() };
}

/** The lists of a page the editor shows as a tab each, with their test id. */
const LIST_TEST_IDS = {
  fields: 'designer-fields',
  behaviours: 'designer-behaviours',
  subPages: 'designer-subpages',
  sqls: 'designer-sqls',
  queryConditions: 'designer-conditions',
  fieldMaps: 'designer-fieldmaps',
} as const;
type ListKey = keyof typeof LIST_TEST_IDS;

/** Server refusals (400 details) as problems on their paths, beside the client validator's. */
function serverProblems(details: FieldError[] | undefined): ValidationProblem[] {
  return (details ?? []).map((d) => ({ path: d.field.startsWith('/') ? d.field : `/${d.field.replace(/\./g, '/')}`, code: d.code, message: d.message ?? d.code }));
}

/**
 * The editor of one page: header and page properties, fields with drag-and-drop
 * order and a property panel, behaviours, sub-pages, named SQL in monaco, query conditions,
 * field maps, texts in six languages, the raw JSON, the live preview and the versions; every
 * edit can be undone and redone, and the validator's problems show on their property.
 */
export function PageEditor({ pageKey, onChanged }: { pageKey: PageKey; onChanged: () => void }) {
  const { t, i18n } = useTranslation();
  const [detail, setDetail] = useState<PageDetail | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const history = useHistory<Doc>({});
  const doc = history.value;
  const [savedJson, setSavedJson] = useState('');
  const [serverSide, setServerSide] = useState<ValidationProblem[]>([]);
  const [busy, setBusy] = useState(false);
  const [publishOpen, setPublishOpen] = useState(false);
  const [tab, setTab] = useState('page');
  const { reset } = history;
  // antd's hook APIs: its static Modal and message do not render under React 19.
  const [modal, modalHolder] = Modal.useModal();
  const [messages, messageHolder] = message.useMessage();

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      const answer = await designerApi.page(pageKey);
      setDetail(answer);
      const content = (answer.working?.content ?? {}) as Doc;
      reset(content);
      setSavedJson(stableStringify(content));
      setServerSide([]);
    } catch (error) {
      setLoadError(error instanceof Error ? error.message : String(error));
    }
  }, [pageKey, reset]);

  useEffect(() => {
    void load();
  }, [load]);

  const problems = useMemo(() => [...validateDocument({ ...doc, status: 'draft' }), ...serverSide], [doc, serverSide]);
  const dirty = stableStringify(doc) !== savedJson;
  const set = (key: string, value: unknown) =>
    history.set((current) => {
      const next = { ...current };
      if (value === undefined || (Array.isArray(value) && value.length === 0 && key !== 'fields')) delete next[key];
      else next[key] = value;
      return next;
    });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      // Text inputs and monaco keep their own undo.
      if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.closest('.monaco-editor'))) return;
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z') {
        event.preventDefault();
        if (event.shiftKey) history.redo();
        else history.undo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [history]);

  const save = async (): Promise<boolean> => {
    setBusy(true);
    try {
      const answer = await designerApi.saveDraft(pageKey, doc);
      setServerSide([]);
      setSavedJson(stableStringify(doc));
      void messages.success(t('ui.designer.saved', { version: answer.version }));
      await refreshDetail();
      onChanged();
      return true;
    } catch (error) {
      if (error instanceof ApiError) {
        setServerSide(serverProblems(error.body.details));
        void messages.error(error.body.message);
      }
      return false;
    } finally {
      setBusy(false);
    }
  };

  const refreshDetail = async () => setDetail(await designerApi.page(pageKey));

  const publish = async (menuGroup: string | undefined) => {
    setBusy(true);
    try {
      if (dirty && !(await save())) return;
      await designerApi.publish(pageKey, menuGroup ? { parentCode: menuGroup } : undefined);
      void messages.success(t('ui.designer.published'));
      setPublishOpen(false);
      await load();
      onChanged();
    } catch (error) {
      if (error instanceof ApiError) {
        setServerSide(serverProblems(error.body.details));
        setPublishOpen(false);
        void modal.error({ title: t('ui.designer.publishRefused'), content: <span data-testid="designer-publish-refused">{error.body.message}</span> });
      }
    } finally {
      setBusy(false);
    }
  };

  if (loadError) return <Alert type="error" showIcon message={loadError} />;
  if (!detail) return <Spin style={{ display: 'block', margin: 48 }} />;

  const draft = detail.versions.find((v) => v.status === 'draft');
  const published = detail.versions.find((v) => v.status === 'published');
  const fieldNames = itemsOf(doc, 'fields').map((f) => str(f.name, ''));
  const count = (path: string) => problemsUnder(problems, path).length;
  const label = (key: string, path?: string) => (
    <Badge count={path ? count(path) : 0} size="small" offset={[8, -2]}>
      <span>{t(key)}</span>
    </Badge>
  );

  /** The tab of one list of the page: its items, ordered and edited in an ItemListEditor. */
  const listTab = (key: ListKey, editor: Pick<ItemListEditorProps, 'properties' | 'nameOf' | 'newItem' | 'extra' | 'sortable'>) => ({
    key,
    label: label(`ui.designer.tab.${key}`, `/${key}`),
    children: (
      <ItemListEditor testId={LIST_TEST_IDS[key]} items={itemsOf(doc, key)} onChange={(next) => set(key, next)} path={`/${key}`} problems={problems} {...editor} />
    ),
  });

  return (
    <div data-testid="designer-editor" data-module={pageKey.moduleCode} data-function={pageKey.functionCode}>
      {modalHolder}
      {messageHolder}
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {pageKey.moduleCode}/{pageKey.functionCode}
          </Typography.Title>
          {draft && <Tag color="gold">{t('ui.designer.status.draft')} v{draft.version}</Tag>}
          {published && <Tag color="green">{t('ui.designer.status.published')} v{published.version}</Tag>}
          {!published && detail.shipped && <Tag>{t('ui.designer.versions.shipped')} v{detail.shipped.version}</Tag>}
          {dirty && <Tag color="orange" data-testid="designer-dirty">{t('ui.designer.unsaved')}</Tag>}
        </Space>
        <Space wrap>
          <Tooltip title={t('ui.designer.undo')}>
            <Button icon={<UndoOutlined />} disabled={!history.canUndo} onClick={history.undo} data-testid="designer-undo" />
          </Tooltip>
          <Tooltip title={t('ui.designer.redo')}>
            <Button icon={<RedoOutlined />} disabled={!history.canRedo} onClick={history.redo} data-testid="designer-redo" />
          </Tooltip>
          <Button data-testid="designer-save" loading={busy} disabled={!dirty} onClick={() => void save()}>
            {t('ui.designer.saveDraft')}
          </Button>
          <Button type="primary" data-testid="designer-publish" loading={busy} disabled={!dirty && !draft} onClick={() => setPublishOpen(true)}>
            {t('ui.designer.publish')}
          </Button>
          {draft && (
            <ConfirmButton
              title={t('ui.designer.deleteDraftConfirm', { version: draft.version })}
              onConfirm={() => void designerApi.deleteDraft(pageKey, draft.version).then(load).then(onChanged)}
              testId="designer-delete-draft"
              danger
            >
              {t('ui.designer.deleteDraft')}
            </ConfirmButton>
          )}
          {published && (
            <ConfirmButton title={t('ui.designer.deactivateConfirm')} onConfirm={() => void designerApi.deactivate(pageKey).then(load).then(onChanged)} testId="designer-deactivate">
              {t('ui.designer.deactivate')}
            </ConfirmButton>
          )}
        </Space>
      </Space>
      {problems.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="designer-problems"
          message={t('ui.designer.problems', { count: problems.length })}
          description={
            <ul style={{ margin: 0, paddingLeft: 16, maxHeight: 120, overflow: 'auto' }}>
              {problems.slice(0, 50).map((p, i) => (
                <li key={i}>
                  <code>{p.path || '/'}</code> {p.message}
                </li>
              ))}
            </ul>
          }
        />
      )}
      <Tabs
        tabPosition="left"
        activeKey={tab}
        onChange={setTab}
        destroyInactiveTabPane
        items={[
          {
            key: 'page',
            label: label('ui.designer.tab.page', ''),
            children: (
              <PropertyForm
                value={doc}
                onChange={(next) => history.set(next)}
                properties={PAGE_PROPERTIES}
                basePath=""
                problems={problems.filter((p) => !/^\/(fields|behaviours|subPages|sqls|queryConditions|fieldMaps|texts)\//.test(p.path))}
                testIdPrefix="designer-page"
              />
            ),
          },
          listTab('fields', {
            properties: fieldProperties(fieldNames),
            nameOf: (f) => `${str(f.name, '?')} · ${FIELD_TYPE_LABELS[str(f.type, '')] ? t(FIELD_TYPE_LABELS[str(f.type, '')]) : str(f.type, '')}`,
            newItem: (items) => {
              const name = uniqueName('field_', items.map((i) => str(i.name)));
              return { name, labelCode: name.toUpperCase(), type: 'string' };
            },
          }),
          listTab('behaviours', {
            properties: BEHAVIOUR_PROPERTIES,
            nameOf: (b) => str(b.code, '?'),
            newItem: (items) => ({ ...newCoded(items, 'action', 'labelCode'), action: 'sql:', selection: 'many', right: 'edit' }),
          }),
          listTab('subPages', {
            properties: SUB_PAGE_PROPERTIES,
            nameOf: (s) => `${str(s.code, '?')} → ${str(s.moduleCode, '')}/${str(s.functionCode, '')}`,
            newItem: (items) => ({
              code: uniqueName('tab', items.map((i) => str(i.code))),
              titleCode: uniqueName('TAB', items.map((i) => str(i.code).toUpperCase())),
              moduleCode: pageKey.moduleCode,
              functionCode: '',
              links: [{ parentField: 'id', childField: '' }],
            }),
          }),
          listTab('sqls', {
            sortable: false,
            properties: SQL_PROPERTIES,
            nameOf: (s) => str(s.name, '?'),
            newItem: (items) => ({ name: uniqueName('sql_', items.map((i) => str(i.name))), text: 'select 1 as value, 1 as label' }),
            extra: (item, _i, update) => <SqlTools named={item} onText={(text) => update({ ...item, text })} />,
          }),
          listTab('queryConditions', {
            properties: QUERY_CONDITION_PROPERTIES,
            nameOf: (q) => str(q.code, '?'),
            newItem: (items) => ({ ...newCoded(items, 'condition', 'titleCode'), query: { combinator: 'and', rules: [] } }),
            extra: (item, _i, update) => <ConditionBuilder page={doc} value={item.query} onChange={(query) => update({ ...item, query })} />,
          }),
          listTab('fieldMaps', {
            properties: FIELD_MAP_PROPERTIES,
            nameOf: (m) => str(m.code, '?'),
            newItem: (items) => ({
              code: uniqueName('map', items.map((i) => str(i.code))),
              titleCode: uniqueName('MAP', items.map((i) => str(i.code).toUpperCase())),
              columns: fieldNames.slice(0, 1).map((field) => ({ header: field, field })),
            }),
          }),
          {
            key: 'texts',
            label: label('ui.designer.tab.texts', '/texts'),
            children: (
              <TextsPanel page={doc} onChange={(texts) => set('texts', Object.keys(texts).length ? texts : undefined)} hasLocaleKey={(code) => i18n.exists(code)} />
            ),
          },
          {
            key: 'json',
            label: t('ui.designer.tab.json'),
            children: (
              <JsonEditor
                value={stableStringify(doc)}
                onChange={(text) => {
                  try {
                    const parsed = JSON.parse(text) as unknown;
                    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) history.set(parsed as Doc);
                  } catch {
                    // Half-typed JSON is applied once it parses again.
                  }
                }}
              />
            ),
          },
          {
            key: 'preview',
            label: t('ui.designer.tab.preview'),
            children: <PreviewPanel definition={{ ...doc, status: 'published' } as PageDefinition} problems={validateDocument({ ...doc, status: 'published' })} />,
          },
          {
            key: 'versions',
            label: t('ui.designer.tab.versions'),
            children: <VersionsPanel pageKey={pageKey} detail={detail} onChanged={() => void load().then(onChanged)} />,
          },
        ]}
      />
      <PublishDialog open={publishOpen} busy={busy} onCancel={() => setPublishOpen(false)} onPublish={(group) => void publish(group)} />
    </div>
  );
}

function PublishDialog({ open, busy, onCancel, onPublish }: { open: boolean; busy: boolean; onCancel: () => void; onPublish: (menuGroup: string | undefined) => void }) {
  const { t } = useTranslation();
  const [withMenu, setWithMenu] = useState(false);
  const [group, setGroup] = useState<string | undefined>();
  const [groups, setGroups] = useState<Array<{ value: string; label: string }>>([]);
  useEffect(() => {
    if (!open) return;
    designerApi.menuGroups().then(
      (answer) => setGroups(answer.groups.map((g) => ({ value: g.code, label: t(g.titleKey) }))),
      () => setGroups([]),
    );
  }, [open, t]);
  return (
    <FormDialog
      open={open}
      title={t('ui.designer.publishTitle')}
      okText={t('ui.designer.publish')}
      cancelText={t('ui.designer.cancel')}
      busy={busy}
      okButtonProps={{ 'data-testid': 'designer-publish-ok', disabled: withMenu && !group }}
      onClose={onCancel}
      submit={() => onPublish(withMenu ? group : undefined)}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph>{t('ui.designer.publishText')}</Typography.Paragraph>
        <Checkbox data-testid="designer-publish-menu" checked={withMenu} onChange={(e) => setWithMenu(e.target.checked)}>
          {t('ui.designer.publishWithMenu')}
        </Checkbox>
        {withMenu && (
          <Select data-testid="designer-publish-group" style={{ width: '100%' }} placeholder={t('ui.designer.menuGroup')} value={group} options={groups} onChange={setGroup} />
        )}
      </Space>
    </FormDialog>
  );
}
