import { useEffect, useState } from 'react';
import { Drawer, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../common/languages';
import { formatDateTime, useSession } from '../../app/public';
import { designerApi, type AuditEntry } from './api';

/** How many of the newest audit lines the drawer shows. */
const AUDIT_LIMIT = 200;

/**
 * The designer's audit trail, newest first: who published, saved, copied, rolled back or
 * deactivated which page and version, when; of one page, one module or the whole project.
 */
export function AuditDrawer({ open, onClose, filter }: { open: boolean; onClose: () => void; filter: { moduleCode?: string; functionCode?: string } }) {
  const { t } = useTranslation();
  const language = LANGUAGES[useSession((s) => s.languageCode)] ?? 'en';
  const timeZone = useSession((s) => s.status?.user.timeZone) ?? 'UTC';
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const { moduleCode, functionCode } = filter;

  useEffect(() => {
    if (!open) return;
    setEntries(null);
    designerApi
      .audit({ moduleCode, functionCode, limit: AUDIT_LIMIT })
      .then((answer) => setEntries(answer.entries))
      .catch(() => setEntries([]));
  }, [open, moduleCode, functionCode]);

  const scope = functionCode ? `${moduleCode}/${functionCode}` : (moduleCode ?? t('ui.designer.audit.project'));
  return (
    <Drawer open={open} onClose={onClose} width={720} title={`${t('ui.designer.audit.title')}: ${scope}`} destroyOnHidden>
      <Table<AuditEntry>
        data-testid="designer-audit-list"
        rowKey="id"
        size="small"
        loading={entries === null}
        dataSource={entries ?? []}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        locale={{ emptyText: t('ui.designer.audit.empty') }}
        columns={[
          { title: t('ui.designer.audit.at'), dataIndex: 'at', width: 170, render: (v: string) => formatDateTime(v, language, timeZone) },
          { title: t('ui.designer.audit.by'), dataIndex: 'login_account', width: 110 },
          { title: t('ui.designer.audit.action'), dataIndex: 'action', width: 120, render: (a: string) => <Tag>{t(`ui.designer.audit.actions.${a}`, { defaultValue: a })}</Tag> },
          { title: t('ui.designer.audit.page'), key: 'page', render: (_: unknown, e) => (e.module_code ? `${e.module_code}/${e.function_code ?? ''}` : '') },
          { title: t('ui.designer.audit.version'), dataIndex: 'version', width: 80, render: (v: number | null) => (v === null ? '' : `v${v}`) },
          {
            title: t('ui.designer.audit.details'),
            dataIndex: 'details',
            render: (d: unknown) =>
              d === null || d === undefined ? null : (
                <Typography.Text type="secondary" ellipsis style={{ maxWidth: 200 }}>
                  {JSON.stringify(d)}
                </Typography.Text>
              ),
          },
        ]}
      />
    </Drawer>
  );
}
