import { useEffect, useState, type ComponentType } from 'react';
import { Button, Dropdown, Form, Modal, Select, Typography, type MenuProps } from 'antd';
import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LANGUAGES, toLanguage } from '../../common/languages';
import { api } from '../api/client';
import { clearSession } from '../api/token';
import { chooseLanguage } from '../language';
import { LOCALES } from '../locale';
import { showConfirm, showMessage } from '../popups';
import { resetSession, useSession } from '../store/session-store';
import { loadAuthDialog, type AuthDialogName, type DialogProps } from './auth-dialogs';
import { DownloadCenterDialog } from './DownloadCenterDialog';

/** Signs out on the server (best effort) and forgets the session here; then goes to the root. */
export async function signOut(navigate: (to: string) => unknown): Promise<void> {
  try {
    await api('/user/logout', { method: 'POST', quiet: true });
  } finally {
    clearSession();
    resetSession();
    await navigate('/');
  }
}

function SimulateDialog({ open, onClose, onDone }: DialogProps & { onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ uid: number }>();
  const [busy, setBusy] = useState(false);
  const [users, setUsers] = useState<{ uid: number; loginAccount: string; displayName: string }[]>([]);
  useEffect(() => {
    if (!open) return;
    api<{ uid: number; loginAccount: string; displayName: string }[]>('/user/all/loginAccount')
      .then(setUsers)
      .catch(() => setUsers([]));
  }, [open]);
  async function submit({ uid }: { uid: number }) {
    setBusy(true);
    try {
      await api('/user/simulate', { method: 'POST', body: { uid } });
      onClose();
      onDone();
    } catch {
      // The error popup already told the user why.
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal
      open={open}
      title={t('ui.shell.simulate.title')}
      okText={t('ui.shell.simulate.start')}
      cancelText={t('ui.popup.cancel')}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('ui.shell.simulate.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" name="simulate" onFinish={(v) => void submit(v)}>
        <Form.Item name="uid" label={t('ui.shell.simulate.uid')} rules={[{ required: true, message: t('ui.shell.simulate.uid') }]}>
          <Select
            showSearch
            autoFocus
            optionFilterProp="label"
            data-testid="simulate-user"
            options={users.map((u) => ({ value: u.uid, label: `${u.loginAccount} (${u.displayName})` }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * The user menu of the shell (issue 4, item 2): language, navigation layout (administrators),
 * the download center, account dialogs, simulate and release user (administrators), sign out.
 */
export function UserMenu({ onScopeChanged, onLayout, compact = false }: { onScopeChanged: () => void; onLayout: (layout: 'left' | 'top') => void; compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const status = useSession((s) => s.status);
  const languageCode = useSession((s) => s.languageCode);
  const [dialog, setDialog] = useState<{ name: AuthDialogName; Component: ComponentType<DialogProps> } | null>(null);
  const [simulating, setSimulating] = useState(false);
  const [downloads, setDownloads] = useState(false);
  const isAdmin = Boolean(status?.user.isAdmin);
  const simulatedBy = status?.simulatedBy ?? null;

  async function openDialog(name: AuthDialogName) {
    try {
      setDialog({ name, Component: await loadAuthDialog(name) });
    } catch (error) {
      console.error(`${name} did not load`, error);
      void showMessage({ type: 'error', content: t('errors.MODULE_NOT_FOUND') });
    }
  }

  async function release() {
    await api('/user/release', { method: 'POST' });
    onScopeChanged();
  }

  const items: MenuProps['items'] = [
    {
      key: 'language',
      label: t('ui.shell.user.language'),
      children: LANGUAGES.map((language, code) => ({
        key: `language:${code}`,
        label: <span lang={LOCALES[language].tag}>{LOCALES[language].nativeName}</span>,
        disabled: code === languageCode,
      })),
    },
    ...(isAdmin
      ? [
          {
            key: 'layout',
            label: t('ui.shell.user.layout'),
            children: [
              { key: 'layout:left', label: t('ui.shell.user.layoutLeft'), disabled: status?.navLayout === 'left' },
              { key: 'layout:top', label: t('ui.shell.user.layoutTop'), disabled: status?.navLayout === 'top' },
            ],
          },
        ]
      : []),
    { type: 'divider' },
    { key: 'downloads', label: t('ui.download.menu') },
    { key: 'ChangePasswordDialog', label: t('ui.shell.user.changePassword') },
    { key: 'TwoStepSettingsDialog', label: t('ui.shell.user.twoStep') },
    { key: 'TrustedBrowsersDialog', label: t('ui.shell.user.trustedBrowsers') },
    ...(isAdmin && !simulatedBy ? [{ key: 'simulate', label: t('ui.shell.user.simulate') }] : []),
    ...(simulatedBy ? [{ key: 'release', label: t('ui.shell.user.release') }] : []),
    { type: 'divider' },
    { key: 'signOut', label: t('ui.shell.user.signOut'), danger: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key.startsWith('language:')) {
      const language = toLanguage(Number(key.slice('language:'.length)));
      if (language) chooseLanguage(language).catch(() => undefined);
      return;
    }
    if (key === 'layout:left' || key === 'layout:top') return onLayout(key === 'layout:left' ? 'left' : 'top');
    switch (key) {
      case 'ChangePasswordDialog':
      case 'TwoStepSettingsDialog':
      case 'TrustedBrowsersDialog':
        void openDialog(key);
        return;
      case 'downloads':
        setDownloads(true);
        return;
      case 'simulate':
        setSimulating(true);
        return;
      case 'release':
        release().catch(() => undefined);
        return;
      case 'signOut':
        void showConfirm({
          content: t('ui.shell.user.signOutConfirm'),
          okText: t('ui.shell.user.signOut'),
          okType: 'danger',
          iconType: 'warning',
          onOk: () => signOut(navigate),
        });
        return;
    }
  };

  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']}>
        <Button type="text" data-testid="user-menu" style={{ color: 'inherit' }} aria-label={status?.user.displayName} title={status?.user.displayName}>
          <UserOutlined />
          {/* On a phone the icon alone keeps the header to one row; the name is the button's label. */}
          {compact ? null : (status?.user.displayName ?? '')}
          <DownOutlined />
        </Button>
      </Dropdown>
      {dialog && <dialog.Component key={dialog.name} open onClose={() => setDialog(null)} />}
      <DownloadCenterDialog open={downloads} onClose={() => setDownloads(false)} />
      <SimulateDialog open={simulating} onClose={() => setSimulating(false)} onDone={onScopeChanged} />
    </>
  );
}
