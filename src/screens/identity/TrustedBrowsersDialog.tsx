import { useState } from 'react';
import { Alert, Button, Modal } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { TrustedBrowser } from '../../common/identity-api';
import { api } from '../../app/public';
import { CompactTable } from '../../app/public-widgets';
import { useFormAction } from './useFormAction';
import { useLoadOnOpen } from './useLoadOnOpen';


const when = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '');

/** The browsers trusted to skip two-step verification, each revocable. */
export function TrustedBrowsersDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  // No per-field errors here: every refusal goes to the banner.
  const { busy, error, setError, run } = useFormAction(undefined);
  const { data: rows = [], load } = useLoadOnOpen<TrustedBrowser[]>(open, '/user/trustedBrowsers', setError);
  const [revoked, setRevoked] = useState(false);

  const revoke = (id: number | 'all') =>
    run(async () => {
      await api('/user/trustedBrowsers/revoke', { method: 'POST', body: { id }, quiet: true });
      setRevoked(true);
      await load();
    });

  return (
    <Modal
      open={open}
      title={t('ui.auth.trusted.title')}
      width={760}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="all" danger disabled={!rows.length} loading={busy} onClick={() => void revoke('all')} data-testid="trusted-revoke-all">
          {t('ui.auth.trusted.revokeAll')}
        </Button>,
        <Button key="close" onClick={onClose}>
          {t('ui.auth.common.close')}
        </Button>,
      ]}
    >
      {error && <Alert type="error" message={error} showIcon style={{ marginBottom: 16 }} />}
      {revoked && <Alert type="success" message={t('ui.auth.trusted.revoked')} showIcon style={{ marginBottom: 16 }} data-testid="trusted-revoked" />}
      <CompactTable<TrustedBrowser>
        data-testid="trusted-browsers"
        rowKey="id"
        dataSource={rows}
        locale={{ emptyText: t('ui.auth.trusted.empty') }}
        columns={[
          { key: 'label', title: t('ui.auth.trusted.browser'), dataIndex: 'label', ellipsis: true },
          { key: 'ip', title: t('ui.auth.trusted.ip'), dataIndex: 'ip', width: 110 },
          { key: 'createdAt', title: t('ui.auth.trusted.created'), render: (_, row) => when(row.createdAt), width: 140 },
          { key: 'lastUsedAt', title: t('ui.auth.trusted.lastUsed'), render: (_, row) => when(row.lastUsedAt), width: 140 },
          { key: 'expiresAt', title: t('ui.auth.trusted.expires'), render: (_, row) => when(row.expiresAt), width: 140 },
          {
            key: 'revoke',
            title: '',
            width: 90,
            render: (_, row) => (
              <Button size="small" danger loading={busy} onClick={() => void revoke(row.id)} data-testid={`trusted-revoke-${row.id}`}>
                {t('ui.auth.trusted.revoke')}
              </Button>
            ),
          },
        ]}
      />
    </Modal>
  );
}
