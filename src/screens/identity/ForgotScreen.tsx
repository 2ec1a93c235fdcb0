import { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { AuthCard } from './LoginScreen';
import { AuthDone } from './AuthDone';
import { publicCall, type EmailCodeFields } from './auth-api';
import { useFormAction } from './useFormAction';
import { CodeAndNewPasswordFields } from './PasswordPolicy';

interface ResetForm extends EmailCodeFields {
  newPassword: string;
}

/**
 * `/forgot`: the e-mail address gets the login account and a reset code; the
 * code and a new password (policy shown live) then reset the password.
 */
export function ForgotScreen() {
  const { t } = useTranslation();
  const [form] = Form.useForm<ResetForm>();
  const [step, setStep] = useState<'email' | 'reset' | 'done'>('email');
  const { busy, error, run } = useFormAction(form);

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

  if (step === 'done') return <AuthDone title={t('ui.auth.forgot.title')} testId="forgot-card" message={t('ui.auth.forgot.done')} />;

  return (
    <AuthCard title={t('ui.auth.forgot.title')} testId="forgot-card" backToLogin>
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
          <CodeAndNewPasswordFields name="newPassword" labelKey="ui.auth.field.newPassword" submitText={t('ui.auth.forgot.reset')} busy={busy} />
        )}
      </Form>
    </AuthCard>
  );
}
