import { useState } from 'react';
import { Button, Select, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { CompactTable } from '../../../app/public-widgets';
import { stableStringify } from '../../../common/designer/stable-json';
import { designerApi, type PageDetail, type PageKey } from '../api';
import { JsonDiff } from '../monaco/lazy';
import { ConfirmButton } from './ConfirmButton';

const STATUS_COLOR = { draft: 'gold', published: 'green', inactive: 'default' } as const;

/**
 * What can be done with a stored version: rollback to an inactive one; publish and delete are
 * offered on every version, and the server refuses them for one that is not a draft (its message
 * shows in the popup, so their failure is not thrown on).
 */
function versionActions(status: PageDetail['versions'][number]['status']) {
  return [
    ...(status === 'inactive' ? [{ name: 'rollback', testId: 'designer-rollback', run: designerApi.rollback, danger: false, quiet: false }] : []),
    { name: 'publish', testId: 'designer-version-publish', run: designerApi.publishVersion, danger: false, quiet: true },
    { name: 'delete', testId: 'designer-version-delete', run: designerApi.deleteDraft, danger: true, quiet: true },
  ];
}

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
      <CompactTable
        rowKey="version"
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
            render: (_: unknown, row) => (
              <Space size={4}>
                {versionActions(row.status).map((action) => (
                  <ConfirmButton
                    key={action.name}
                    small
                    danger={action.danger}
                    dangerOk={action.danger}
                    title={t(`ui.designer.versions.${action.name}Confirm`, { version: row.version })}
                    onConfirm={() => void action.run(pageKey, row.version).then(onChanged, action.quiet ? () => undefined : undefined)}
                    testId={`${action.testId}-${row.version}`}
                  >
                    {t(`ui.designer.versions.${action.name}`)}
                  </ConfirmButton>
                ))}
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
