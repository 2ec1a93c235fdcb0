import { useState } from 'react';
import { Alert, Button, Form, Input, Result } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AuthCard } from './LoginScreen';
import { publicCall } from './auth-api';
import { useFormAction } from './useFormAction';
import { confirmPasswordRules, newPasswordRules, PasswordPolicy } from './PasswordPolicy';

interface ResetForm {
  email: string;
  code: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * `/forgot` (issue 3, item 3): the e-mail address gets the login account and a reset code; the
 * code and a new password (policy shown live) then reset the password.
 */
export function ForgotScreen() {
  const { t } = useTranslation();
  const [form] = Form.useForm<ResetForm>();
  const [step, setStep] = useState<'email' | 'reset' | 'done'>('email');
  const { busy, error, run } = useFormAction(form);
  const newPassword = Form.useWatch('newPassword', form) ?? '';

  function sendMail() {
    void form.validateFields(['email']).then(({ email }) =>
      run(async () => {
        await publicCall('/user/forgot', { email });
        setStep('reset');
      }, ['email']),
    );
  }

  function reset(values: ResetForm) {
    void run(async () => {
      await publicCall('/user/resetPassword', values);
      setStep('done');
    }, ['email', 'code', 'newPassword', 'confirmPassword']);
  }

  if (step === 'done') {
    return (
      <AuthCard title={t('ui.auth.forgot.title')} testId="forgot-card">
        <Result status="success" title={t('ui.auth.forgot.done')} extra={<Link to="/login">{t('ui.auth.backToLogin')}</Link>} />
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('ui.auth.forgot.title')} testId="forgot-card">
      {step === 'email' ? <Alert type="info" message={t('ui.auth.forgot.intro')} style={{ marginBottom: 16 }} /> : <Alert type="success" showIcon message={t('ui.auth.forgot.sent')} style={{ marginBottom: 16 }} />}
      {error && <Alert type="error" message={error} showIcon style={{ marginBottom: 16 }} data-testid="forgot-error" />}
      <Form<ResetForm> form={form} layout="vertical" name="forgot" onFinish={reset}>
        <Form.Item
          name="email"
          label={t('ui.auth.field.email')}
          rules={[
            { required: true, message: t('ui.auth.validation.required') },
            { type: 'email', message: t('ui.auth.validation.email') },
          ]}
        >
          <Input prefix={<MailOutlined />} autoComplete="email" disabled={step !== 'email'} autoFocus />
        </Form.Item>
        {step === 'email' ? (
          <Button type="primary" block loading={busy} onClick={sendMail} data-testid="forgot-send">
            {t('ui.auth.forgot.send')}
          </Button>
        ) : (
          <>
            <Form.Item name="code" label={t('ui.auth.field.code')} rules={[{ required: true, message: t('ui.auth.validation.required') }]}>
              <Input inputMode="numeric" autoComplete="one-time-code" maxLength={10} />
            </Form.Item>
            <Form.Item name="newPassword" label={t('ui.auth.field.newPassword')} rules={newPasswordRules(t)}>
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <PasswordPolicy password={newPassword} />
            <Form.Item name="confirmPassword" label={t('ui.auth.field.confirmPassword')} dependencies={['newPassword']} rules={confirmPasswordRules(t, 'newPassword')}>
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy}>
              {t('ui.auth.forgot.reset')}
            </Button>
          </>
        )}
      </Form>
      <div style={{ marginTop: 16 }}>
        <Link to="/login">{t('ui.auth.backToLogin')}</Link>
      </div>
    </AuthCard>
  );
}
