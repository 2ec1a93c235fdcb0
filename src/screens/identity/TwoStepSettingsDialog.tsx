import { useState } from 'react';
import { Alert, Button, Divider, Form, Input, Modal, Space, Switch, Typography } from 'antd';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import type { TotpSetup, TwoStepSettings } from '../../common/identity-api';
import { api } from '../../app/public';
import { useFormAction } from './useFormAction';
import { useLoadOnOpen } from './useLoadOnOpen';

/** The new secret with its QR code drawn for the screen. */
interface Enrolment extends TotpSetup {
  qr: string;
}

/**
 * One code sent by e-mail or SMS, on or off, with where the codes go (the user's address or
 * telephone). Without one it can only be switched off.
 */
function MethodSwitch({ method, settings, busy, onChange }: { method: 'email' | 'sms'; settings: TwoStepSettings; busy: boolean; onChange: (on: boolean) => void }) {
  const { t } = useTranslation();
  const on = settings[method];
  const hint =
    method === 'email'
      ? settings.emailAddress && t('ui.auth.settings.emailHint', { email: settings.emailAddress })
      : settings.telephone && t('ui.auth.settings.smsHint', { phone: settings.telephone });
  return (
    <Space>
      <Switch checked={on} disabled={busy || (!hint && !on)} onChange={onChange} data-testid={`two-step-${method}`} />
      <span>
        {t(`ui.auth.twoStep.methods.${method}`)} · <Typography.Text type="secondary">{hint || t('ui.auth.settings.none')}</Typography.Text>
      </span>
    </Space>
  );
}

/**
 * Two-step verification settings: e-mail and SMS codes on or off, and the
 * authenticator app, switched on only after a code from the newly shown secret checks out.
 */
export function TwoStepSettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const [code, setCode] = useState('');
  // Two-step settings have no per-field errors: every refusal goes to the banner.
  const { busy, error, setError, run } = useFormAction(undefined);
  const { data: settings, setData: setSettings } = useLoadOnOpen<TwoStepSettings>(open, '/user/twoStep', setError);


  const toggle = (method: 'email' | 'sms' | 'totp', enabled: boolean) =>
    run(async () => {
      setSettings(await api<TwoStepSettings>('/user/twoStep', { method: 'POST', body: { method, enabled }, quiet: true }));
    });

  const startEnrolment = () =>
    run(async () => {
      const answer = await api<TotpSetup>('/user/twoStep/totp/setup', { method: 'POST', body: {}, quiet: true });
      const qr = await QRCode.toDataURL(answer.uri, { margin: 1, width: 200 });
      setCode('');
      setEnrolment({ ...answer, qr });
    });

  const confirmEnrolment = () =>
    run(async () => {
      setSettings(await api<TwoStepSettings>('/user/twoStep/totp/confirm', { method: 'POST', body: { code }, quiet: true }));
      setEnrolment(undefined);
    });

  return (
    <Modal open={open} title={t('ui.auth.settings.title')} onCancel={onClose} footer={<Button onClick={onClose}>{t('ui.auth.common.close')}</Button>} destroyOnHidden>
      <div data-testid="two-step-settings">
        {error && <Alert type="error" message={error} showIcon style={{ marginBottom: 16 }} data-testid="two-step-error" />}
        {settings && (
          <>
            <Space direction="vertical" style={{ width: '100%' }}>
              <MethodSwitch method="email" settings={settings} busy={busy} onChange={(on) => void toggle('email', on)} />
              <MethodSwitch method="sms" settings={settings} busy={busy} onChange={(on) => void toggle('sms', on)} />
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
