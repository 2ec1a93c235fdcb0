import { useState } from 'react';
import { Button, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { stableStringify } from '../../src/common/designer/stable-json';
import { designerApi, type PageDetail, type PageKey } from '../api';
import { JsonDiff } from '../monaco/lazy';

const STATUS_COLOR = { draft: 'gold', published: 'green', inactive: 'default' } as const;

/** The page's versions: rollback to an inactive one, and a side-by-side diff of any two. */
export function VersionsPanel({ pageKey, detail, onChanged }: { pageKey: PageKey; detail: PageDetail; onChanged: () => void }) {
  const { t } = useTranslation();
  const choices = [
    ...detail.versions.map((v) => ({ value: v.version, label: `v${v.version} (${t(`ui.designer.status.${v.status}`)})` })),
    ...(detail.shipped ? [{ value: 0, label: t('ui.designer.versions.shipped') }] : []),
  ];
  const [left, setLeft] = useState<number | undefined>(choices[1]?.value);
  const [right, setRight] = useState<number | undefined>(choices[0]?.value);
  const [diff, setDiff] = useState<{ left: string; right: string } | null>(null);
  const compare = async () => {
    if (left === undefined || right === undefined) return;
    const answer = await designerApi.diff(pageKey, left, right);
    setDiff({ left: stableStringify(answer.left), right: stableStringify(answer.right) });
  };
  return (
    <div data-testid="designer-versions">
      <Table
        size="small"
        rowKey="version"
        pagination={false}
        dataSource={detail.versions}
        columns={[
          { title: t('ui.designer.versions.version'), dataIndex: 'version', render: (v: number) => `v${v}` },
          {
            title: t('ui.designer.versions.status'),
            dataIndex: 'status',
            render: (s: keyof typeof STATUS_COLOR) => <Tag color={STATUS_COLOR[s]}>{t(`ui.designer.status.${s}`)}</Tag>,
          },
          { title: t('ui.designer.versions.updatedAt'), dataIndex: 'updatedAt', render: (v: string) => new Date(v).toLocaleString() },
          { title: t('ui.designer.versions.updatedBy'), dataIndex: 'updatedBy' },
          {
            title: '',
            key: 'actions',
            // Publishing or deleting a version that is not a draft is the server's to refuse
            // (spec section 4): its message shows in the popup.
            render: (_: unknown, row) => (
              <Space size={4}>
                {row.status === 'inactive' && (
                  <Popconfirm
                    title={t('ui.designer.versions.rollbackConfirm', { version: row.version })}
                    okText={t('ui.designer.ok')}
                    cancelText={t('ui.designer.cancel')}
                    onConfirm={() => void designerApi.rollback(pageKey, row.version).then(onChanged)}
                  >
                    <Button size="small" data-testid={`designer-rollback-${row.version}`}>
                      {t('ui.designer.versions.rollback')}
                    </Button>
                  </Popconfirm>
                )}
                <Popconfirm
                  title={t('ui.designer.versions.publishConfirm', { version: row.version })}
                  okText={t('ui.designer.ok')}
                  cancelText={t('ui.designer.cancel')}
                  onConfirm={() => void designerApi.publishVersion(pageKey, row.version).then(onChanged, () => undefined)}
                >
                  <Button size="small" data-testid={`designer-version-publish-${row.version}`}>
                    {t('ui.designer.versions.publish')}
                  </Button>
                </Popconfirm>
                <Popconfirm
                  title={t('ui.designer.versions.deleteConfirm', { version: row.version })}
                  okText={t('ui.designer.ok')}
                  okButtonProps={{ danger: true }}
                  cancelText={t('ui.designer.cancel')}
                  onConfirm={() => void designerApi.deleteDraft(pageKey, row.version).then(onChanged, () => undefined)}
                >
                  <Button size="small" danger data-testid={`designer-version-delete-${row.version}`}>
                    {t('ui.designer.versions.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Space style={{ margin: '12px 0' }} wrap>
        <Select data-testid="designer-diff-left" style={{ width: 200 }} value={left} options={choices} onChange={setLeft} />
        <Select data-testid="designer-diff-right" style={{ width: 200 }} value={right} options={choices} onChange={setRight} />
        <Button data-testid="designer-diff" disabled={left === undefined || right === undefined} onClick={() => void compare()}>
          {t('ui.designer.versions.compare')}
        </Button>
      </Space>
      {diff && <JsonDiff left={diff.left} right={diff.right} />}
    </div>
  );
}
