import { useState } from 'react';
import { Alert, Button, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { AuthCard } from './LoginScreen';
import { AuthDone } from './AuthDone';
import type { SignupAnswer } from '../../common/identity-api';
import { publicCall, type EmailCodeFields } from './auth-api';
import { useFormAction } from './useFormAction';
import { CodeAndNewPasswordFields } from './PasswordPolicy';
import { i18next } from '../../app/public';

interface SignForm extends EmailCodeFields {
  loginAccount: string;
  displayName?: string;
  password: string;
}

/** `/sign`: registration with a code e-mailed to the address. */
export function SignScreen() {
  const { t } = useTranslation();
  const [form] = Form.useForm<SignForm>();
  const { busy, error, run: runAction } = useFormAction(form);
  const [codeSentTo, setCodeSentTo] = useState<string>();
  const [created, setCreated] = useState<string>();
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
      const answer = await publicCall<SignupAnswer>('/user/signup', { ...values, language: i18next.language });
      setCreated(answer.loginAccount);
    });
  }

  if (created) return <AuthDone title={t('ui.auth.sign.title')} testId="sign-card" message={t('ui.auth.sign.done', { account: created })} />;

  const required = { required: true, message: t('ui.auth.validation.required') };
  return (
    <AuthCard title={t('ui.auth.sign.title')} testId="sign-card" backToLogin>
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
        <CodeAndNewPasswordFields name="password" labelKey="ui.auth.field.password" submitText={t('ui.auth.sign.submit')} busy={busy} />
      </Form>
    </AuthCard>
  );
}
