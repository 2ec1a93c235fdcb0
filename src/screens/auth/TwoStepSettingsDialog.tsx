import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Divider, Form, Input, Modal, Space, Switch, Typography } from 'antd';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/public';
import { useFormAction } from './useFormAction';
import { errorText } from './auth-api';

interface Settings {
  email: boolean;
  sms: boolean;
  totp: boolean;
  emailAddress: string | null;
  telephone: string | null;
}

interface Enrolment {
  secret: string;
  uri: string;
  qr: string;
}

/**
 * Two-step verification settings (issue 3, item 2): e-mail and SMS codes on or off, and the
 * authenticator app, switched on only after a code from the newly shown secret checks out.
 */
export function TwoStepSettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<Settings>();
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const [code, setCode] = useState('');
  // Two-step settings have no per-field errors: every refusal goes to the banner.
  const { busy, error, setError, run } = useFormAction(undefined);

  const load = useCallback(async () => {
    try {
      setSettings(await api<Settings>('/user/twoStep', { quiet: true }));
    } catch (e) {
      setError(errorText(e));
    }
  }, [setError]);

  useEffect(() => {
    if (open) void load();
  }, [open, load]);


  const toggle = (method: 'email' | 'sms' | 'totp', enabled: boolean) =>
    run(async () => {
      setSettings(await api<Settings>('/user/twoStep', { method: 'POST', body: { method, enabled }, quiet: true }));
    });

  const startEnrolment = () =>
    run(async () => {
      const answer = await api<{ secret: string; uri: string }>('/user/twoStep/totp/setup', { method: 'POST', body: {}, quiet: true });
      const qr = await QRCode.toDataURL(answer.uri, { margin: 1, width: 200 });
      setCode('');
      setEnrolment({ ...answer, qr });
    });

  const confirmEnrolment = () =>
    run(async () => {
      setSettings(await api<Settings>('/user/twoStep/totp/confirm', { method: 'POST', body: { code }, quiet: true }));
      setEnrolment(undefined);
    });

  return (
    <Modal open={open} title={t('ui.auth.settings.title')} onCancel={onClose} footer={<Button onClick={onClose}>{t('ui.auth.common.close')}</Button>} destroyOnHidden>
      <div data-testid="two-step-settings">
        {error && <Alert type="error" message={error} showIcon style={{ marginBottom: 16 }} data-testid="two-step-error" />}
        {settings && (
          <>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Space>
                <Switch
                  checked={settings.email}
                  disabled={busy || (!settings.emailAddress && !settings.email)}
                  onChange={(on) => void toggle('email', on)}
                  data-testid="two-step-email"
                />
                <span>
                  {t('ui.auth.twoStep.methods.email')} ·{' '}
                  <Typography.Text type="secondary">
                    {settings.emailAddress ? t('ui.auth.settings.emailHint', { email: settings.emailAddress }) : t('ui.auth.settings.none')}
                  </Typography.Text>
                </span>
              </Space>
              <Space>
                <Switch
                  checked={settings.sms}
                  disabled={busy || (!settings.telephone && !settings.sms)}
                  onChange={(on) => void toggle('sms', on)}
                  data-testid="two-step-sms"
                />
                <span>
                  {t('ui.auth.twoStep.methods.sms')} ·{' '}
                  <Typography.Text type="secondary">
                    {settings.telephone ? t('ui.auth.settings.smsHint', { phone: settings.telephone }) : t('ui.auth.settings.none')}
                  </Typography.Text>
                </span>
              </Space>
            </Space>
            <Divider />
            <Typography.Title level={5}>{t('ui.auth.twoStep.methods.totp')}</Typography.Title>
            {settings.totp ? (
              <Space>
                <Typography.Text data-testid="totp-state">{t('ui.auth.settings.totpOn')}</Typography.Text>
                <Button danger loading={busy} onClick={() => void toggle('totp', false)} data-testid="totp-disable">
                  {t('ui.auth.settings.disable')}
                </Button>
              </Space>
            ) : enrolment ? (
              <Space direction="vertical" style={{ width: '100%' }}>
                <Typography.Paragraph>{t('ui.auth.settings.scan')}</Typography.Paragraph>
                <img src={enrolment.qr} alt="otpauth QR" width={200} height={200} data-testid="totp-qr" />
                <Typography.Text>
                  {t('ui.auth.settings.secret')}:{' '}
                  <Typography.Text code copyable data-testid="totp-secret">
                    {enrolment.secret}
                  </Typography.Text>
                </Typography.Text>
                <Form layout="inline" onFinish={() => void confirmEnrolment()}>
                  <Form.Item label={t('ui.auth.twoStep.code')}>
                    <Input value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" maxLength={6} data-testid="totp-code" />
                  </Form.Item>
                  <Button type="primary" htmlType="submit" loading={busy} disabled={code.length !== 6} data-testid="totp-confirm">
                    {t('ui.auth.settings.confirm')}
                  </Button>
                </Form>
              </Space>
            ) : (
              <Space>
                <Typography.Text type="secondary" data-testid="totp-state">
                  {t('ui.auth.settings.totpOff')}
                </Typography.Text>
                <Button loading={busy} onClick={() => void startEnrolment()} data-testid="totp-enrol">
                  {t('ui.auth.settings.enrol')}
                </Button>
              </Space>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
