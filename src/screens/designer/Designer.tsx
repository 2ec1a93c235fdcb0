import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Empty, Input, Layout, Menu, Select, Space, Tag, Tooltip, Typography, message } from 'antd';
import { CopyOutlined, HistoryOutlined, PlusOutlined, ReloadOutlined, SwapOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { designerApi, type PageKey, type PageSummary } from './api';
import { AuditDrawer } from './AuditDrawer';
import { CopyDialog, NewPageDialog, TransferDialog } from './dialogs';
import { PageEditor } from './PageEditor';

const keyOf = (page: PageKey) => `${page.moduleCode}/${page.functionCode}`;

/**
 * The designer: the project's pages by module on the left (narrowed to one module or a search),
 * the selected page's editor on the right, and the audit trail of the project, a module or a page.
 */
export function Designer() {
  const { t } = useTranslation();
  const [pages, setPages] = useState<PageSummary[]>([]);
  const [selected, setSelected] = useState<PageKey | null>(null);
  const [filter, setFilter] = useState('');
  const [newOpen, setNewOpen] = useState(false);
  const [copyOf, setCopyOf] = useState<PageKey | null>(null);
  const [transferOpen, setTransferOpen] = useState(false);
  const [moduleList, setModuleList] = useState<Array<{ moduleCode: string; pages: number }>>([]);
  const [moduleCode, setModuleCode] = useState<string>();
  const [auditOpen, setAuditOpen] = useState(false);
  const [messages, messageHolder] = message.useMessage();

  const reload = useCallback(async () => {
    const [list, counted] = await Promise.all([designerApi.pages(), designerApi.modules()]);
    setPages(list.pages);
    setModuleList([...counted.modules].sort((a, b) => a.moduleCode.localeCompare(b.moduleCode)));
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  const modules = useMemo(() => {
    const grouped = new Map<string, PageSummary[]>();
    const needle = filter.trim().toLowerCase();
    for (const page of pages) {
      if (moduleCode && page.moduleCode !== moduleCode) continue;
      if (needle && !keyOf(page).toLowerCase().includes(needle) && !(page.titleCode ?? '').toLowerCase().includes(needle)) continue;
      grouped.set(page.moduleCode, [...(grouped.get(page.moduleCode) ?? []), page]);
    }
    return [...grouped].sort(([a], [b]) => a.localeCompare(b));
  }, [pages, filter, moduleCode]);

  const status = (page: PageSummary) => (
    <Space size={2}>
      {page.startup && <Tag color="purple">{t('ui.designer.startup')}</Tag>}
      {page.draftVersion !== null && <Tag color="gold">{t('ui.designer.status.draft')}</Tag>}
      {page.publishedVersion !== null ? (
        <Tag color="green">v{page.publishedVersion}</Tag>
      ) : page.shippedVersion !== null ? (
        <Tag>{t('ui.designer.versions.shipped')}</Tag>
      ) : null}
    </Space>
  );

  return (
    <Layout style={{ background: 'transparent', minHeight: 480 }} data-testid="designer" data-designer-root>
      {messageHolder}
      <Layout.Sider width={320} theme="light" style={{ borderRight: '1px solid #f0f0f0', paddingRight: 8 }}>
        <Space style={{ marginBottom: 8 }} wrap>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setNewOpen(true)} data-testid="designer-new">
            {t('ui.designer.newPage')}
          </Button>
          <Tooltip title={t('ui.designer.transfer.title')}>
            <Button icon={<SwapOutlined />} onClick={() => setTransferOpen(true)} data-testid="designer-transfer" />
          </Tooltip>
          <Tooltip title={t('ui.designer.clearCache')}>
            <Button
              icon={<ReloadOutlined />}
              data-testid="designer-clear-cache"
              onClick={() => void designerApi.clearCache().then(() => messages.success(t('ui.designer.cacheCleared')))}
            />
          </Tooltip>
          <Tooltip title={t('ui.designer.audit.title')}>
            <Button icon={<HistoryOutlined />} onClick={() => setAuditOpen(true)} data-testid="designer-audit" aria-label={t('ui.designer.audit.title')} />
          </Tooltip>
        </Space>
        <Select
          allowClear
          showSearch
          style={{ width: '100%', marginBottom: 8 }}
          placeholder={t('ui.designer.allModules')}
          value={moduleCode}
          onChange={setModuleCode}
          data-testid="designer-module"
          options={moduleList.map((m) => ({ value: m.moduleCode, label: t('ui.designer.moduleWithPages', { module: m.moduleCode, count: m.pages }) }))}
        />
        <Input.Search allowClear placeholder={t('ui.designer.search')} value={filter} onChange={(e) => setFilter(e.target.value)} style={{ marginBottom: 8 }} />
        {modules.length === 0 ? (
          <Empty description={t('ui.designer.noPages')} />
        ) : (
          <Menu
            // Remounted when the modules change, so that every module starts open.
            key={modules.map(([m]) => m).join('|')}
            mode="inline"
            data-testid="designer-pages"
            selectedKeys={selected ? [keyOf(selected)] : []}
            defaultOpenKeys={modules.map(([m]) => m)}
            items={modules.map(([moduleCode, list]) => ({
              key: moduleCode,
              label: `${moduleCode} (${list.length})`,
              children: list.map((page) => ({
                key: keyOf(page),
                label: (
                  <Space style={{ width: '100%', justifyContent: 'space-between' }} data-testid={`designer-page-${keyOf(page)}`}>
                    <Typography.Text ellipsis style={{ maxWidth: 140 }}>
                      {page.functionCode}
                    </Typography.Text>
                    <Space size={2}>
                      {status(page)}
                      <CopyOutlined
                        data-testid={`designer-copy-${keyOf(page)}`}
                        onClick={(e) => {
                          e.stopPropagation();
                          setCopyOf(page);
                        }}
                      />
                    </Space>
                  </Space>
                ),
              })),
            }))}
            onClick={({ key }) => {
              const [moduleCode, functionCode] = key.split('/');
              setSelected({ moduleCode, functionCode });
            }}
          />
        )}
      </Layout.Sider>
      <Layout.Content style={{ paddingLeft: 16, minWidth: 0 }}>
        {selected ? <PageEditor key={keyOf(selected)} pageKey={selected} onChanged={() => void reload()} /> : <Empty description={t('ui.designer.choosePage')} />}
      </Layout.Content>
      <NewPageDialog
        open={newOpen}
        onClose={() => setNewOpen(false)}
        onCreated={(key) => {
          setNewOpen(false);
          void reload().then(() => setSelected(key));
        }}
      />
      <CopyDialog page={copyOf} onClose={() => setCopyOf(null)} onDone={() => void reload()} />
      <AuditDrawer open={auditOpen} onClose={() => setAuditOpen(false)} filter={selected ?? (moduleCode ? { moduleCode } : {})} />
      <TransferDialog open={transferOpen} onClose={() => setTransferOpen(false)} onImported={() => void reload()} />
    </Layout>
  );
}
