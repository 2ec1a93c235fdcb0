import { useState } from 'react';
import { Alert, Button, Form, Input, Result, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AuthCard } from './LoginScreen';
import { publicCall } from './auth-api';
import { useFormAction } from './useFormAction';
import { confirmPasswordRules, newPasswordRules, PasswordPolicy } from './PasswordPolicy';
import { i18next } from '../../app/public';

interface SignForm {
  loginAccount: string;
  displayName?: string;
  email: string;
  code: string;
  password: string;
  confirmPassword: string;
}

/** `/sign` (issue 3, item 3): registration with a code e-mailed to the address. */
export function SignScreen() {
  const { t } = useTranslation();
  const [form] = Form.useForm<SignForm>();
  const { busy, error, run: runAction } = useFormAction(form);
  const [codeSentTo, setCodeSentTo] = useState<string>();
  const [created, setCreated] = useState<string>();
  const password = Form.useWatch('password', form) ?? '';
  const fields = ['loginAccount', 'displayName', 'email', 'code', 'password', 'confirmPassword'];

  const run = (work: () => Promise<void>) => runAction(work, fields);

  function sendCode() {
    void form.validateFields(['email']).then(({ email }) =>
      run(async () => {
        await publicCall('/user/sendEmail', { email });
        setCodeSentTo(email);
      }),
    );
  }

  function submit(values: SignForm) {
    void run(async () => {
      const answer = await publicCall<{ loginAccount: string }>('/user/signup', { ...values, language: i18next.language });
      setCreated(answer.loginAccount);
    });
  }

  if (created) {
    return (
      <AuthCard title={t('ui.auth.sign.title')} testId="sign-card">
        <Result status="success" title={t('ui.auth.sign.done', { account: created })} extra={<Link to="/login">{t('ui.auth.backToLogin')}</Link>} />
      </AuthCard>
    );
  }

  const required = { required: true, message: t('ui.auth.validation.required') };
  return (
    <AuthCard title={t('ui.auth.sign.title')} testId="sign-card">
      {error && <Alert type="error" message={error} showIcon style={{ marginBottom: 16 }} data-testid="sign-error" />}
      <Form<SignForm> form={form} layout="vertical" name="sign" onFinish={submit}>
        <Form.Item name="loginAccount" label={t('ui.auth.field.loginAccount')} rules={[required]}>
          <Input autoComplete="username" autoFocus maxLength={50} />
        </Form.Item>
        <Form.Item name="displayName" label={t('ui.auth.field.displayName')}>
          <Input autoComplete="name" maxLength={200} />
        </Form.Item>
        <Form.Item label={t('ui.auth.field.email')} required>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="email" noStyle rules={[required, { type: 'email', message: t('ui.auth.validation.email') }]}>
              <Input autoComplete="email" />
            </Form.Item>
            <Button onClick={sendCode} loading={busy} data-testid="sign-send-code">
              {t('ui.auth.sign.sendCode')}
            </Button>
          </Space.Compact>
        </Form.Item>
        {codeSentTo && <Alert type="success" showIcon message={t('ui.auth.sign.codeSent', { email: codeSentTo })} style={{ marginBottom: 16 }} />}
        <Form.Item name="code" label={t('ui.auth.field.code')} rules={[required]}>
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={10} />
        </Form.Item>
        <Form.Item name="password" label={t('ui.auth.field.password')} rules={newPasswordRules(t)}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <PasswordPolicy password={password} />
        <Form.Item name="confirmPassword" label={t('ui.auth.field.confirmPassword')} dependencies={['password']} rules={confirmPasswordRules(t, 'password')}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t('ui.auth.sign.submit')}
        </Button>
      </Form>
      <div style={{ marginTop: 16 }}>
        <Link to="/login">{t('ui.auth.backToLogin')}</Link>
      </div>
    </AuthCard>
  );
}
