import { useEffect, useState, type ComponentType } from 'react';
import { Button, Dropdown, Form, Select, Typography, type MenuProps } from 'antd';
import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LANGUAGES, toLanguage } from '../../common/languages';
import { api } from '../api/client';
import { clearSession } from '../api/token';
import { chooseLanguage } from '../language';
import { LOCALES } from '../locale';
import { showConfirm, showMessage, showSuccess } from '../popups';
import { resetSession, useSession } from '../store/session-store';
import { FormDialog, useBusy } from '../widgets/FormDialog';
import { loadAuthDialog, type AuthDialogName, type DialogProps } from './auth-dialogs';
import { DownloadCenterDialog } from './DownloadCenterDialog';
import { useUserOptions } from './user-options';

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

/** Ends every session of the signed-in user on the server, this one included, and returns to the root. */
export async function signOutEverywhere(navigate: (to: string) => unknown): Promise<void> {
  await api<{ ended: number }>('/user/logoutAll', { method: 'POST' });
  clearSession();
  resetSession();
  await navigate('/');
}

/** The IANA time zones this browser knows, the user's own first when the list lacks it. */
function timeZoneNames(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return known.includes(current) ? known : [current, ...known];
}

/**
 * A dialog asking one required choice of a list (with a hint above it) and sending it: `send` makes
 * the call; when it succeeds the dialog closes and `onDone` runs, when it is refused the error
 * popup has told the user why and the dialog stays open.
 */
function ChoiceDialog<V extends string | number>(props: DialogProps & {
  name: string;
  texts: { title: string; ok: string; hint: string; label: string };
  options: { value: V; label: string }[];
  initial?: V;
  testId: string;
  send: (value: V) => Promise<void>;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { open, onClose, name, texts, initial, send, onDone } = props;
  const [form] = Form.useForm();
  const [busy, run] = useBusy();
  useEffect(() => {
    if (open && initial !== undefined) form.setFieldValue(name, initial);
  }, [open, initial, name, form]);
  const submit = (values: Record<string, V>) =>
    run(async () => {
      try {
        await send(values[name]);
        onClose();
        onDone();
      } catch {
        // The error popup already told the user why.
      }
    });
  return (
    <FormDialog open={open} title={texts.title} okText={texts.ok} cancelText={t('ui.popup.cancel')} busy={busy} form={form} onClose={onClose}>
      <Typography.Paragraph type="secondary">{texts.hint}</Typography.Paragraph>
      <Form form={form} layout="vertical" name={name} onFinish={(v: Record<string, V>) => void submit(v)}>
        <Form.Item name={name} label={texts.label} rules={[{ required: true, message: texts.label }]}>
          <Select showSearch autoFocus optionFilterProp="label" data-testid={props.testId} options={props.options} />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}

/** The user's own time zone: dates and times of every screen are shown in it. */
function TimeZoneDialog({ open, onClose, onSaved }: DialogProps & { onSaved: () => void }) {
  const { t } = useTranslation();
  const current = useSession((s) => s.status?.user.timeZone) ?? 'UTC';
  const texts = { title: t('ui.shell.timeZone.title'), ok: t('ui.shell.timeZone.save'), hint: t('ui.shell.timeZone.hint'), label: t('ui.shell.timeZone.label') };
  const send = async (timeZone: string) => {
    await api<{ timeZone: string }>('/user/timeZone', { method: 'PUT', body: { timeZone } });
    void showSuccess({ type: 'success', content: t('ui.shell.timeZone.saved', { timeZone }) });
  };
  const options = timeZoneNames(current).map((name) => ({ value: name, label: name }));
  return <ChoiceDialog open={open} onClose={onClose} name="timeZone" texts={texts} options={options} initial={current} testId="time-zone-select" send={send} onDone={onSaved} />;
}

/** An administrator acts as another user (until released). */
function SimulateDialog({ open, onClose, onDone }: DialogProps & { onDone: () => void }) {
  const { t } = useTranslation();
  const texts = { title: t('ui.shell.simulate.title'), ok: t('ui.shell.simulate.start'), hint: t('ui.shell.simulate.hint'), label: t('ui.shell.simulate.uid') };
  const users = useUserOptions(open);
  const send = async (uid: number) => {
    await api('/user/simulate', { method: 'POST', body: { uid } });
  };
  return <ChoiceDialog open={open} onClose={onClose} name="uid" texts={texts} options={users} testId="simulate-user" send={send} onDone={onDone} />;
}

/**
 * The user menu of the shell: language, navigation layout (administrators),
 * the download center, account dialogs, time zone, simulate and release user (administrators),
 * sign out here or of every session.
 */
export function UserMenu({ onScopeChanged, onLayout, compact = false }: { onScopeChanged: () => void; onLayout: (layout: 'left' | 'top') => void; compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const status = useSession((s) => s.status);
  const languageCode = useSession((s) => s.languageCode);
  const [dialog, setDialog] = useState<{ name: AuthDialogName; Component: ComponentType<DialogProps> } | null>(null);
  const [simulating, setSimulating] = useState(false);
  const [downloads, setDownloads] = useState(false);
  const [choosingTimeZone, setChoosingTimeZone] = useState(false);
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
    { key: 'timeZone', label: t('ui.shell.user.timeZone') },
    ...(isAdmin && !simulatedBy ? [{ key: 'simulate', label: t('ui.shell.user.simulate') }] : []),
    ...(simulatedBy ? [{ key: 'release', label: t('ui.shell.user.release') }] : []),
    { type: 'divider' },
    { key: 'signOut', label: t('ui.shell.user.signOut'), danger: true },
    { key: 'signOutEverywhere', label: t('ui.shell.user.signOutEverywhere'), danger: true },
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
      case 'timeZone':
        setChoosingTimeZone(true);
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
      case 'signOutEverywhere':
        void showConfirm({
          content: t('ui.shell.user.signOutEverywhereConfirm'),
          okText: t('ui.shell.user.signOutEverywhere'),
          okType: 'danger',
          iconType: 'warning',
          onOk: () => signOutEverywhere(navigate).catch(() => undefined),
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
      <TimeZoneDialog open={choosingTimeZone} onClose={() => setChoosingTimeZone(false)} onSaved={onScopeChanged} />
      <SimulateDialog open={simulating} onClose={() => setSimulating(false)} onDone={onScopeChanged} />
    </>
  );
}
