import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

interface LoginForm {
  loginAccount: string;
  password: string;
}

export function LoginScreen() {
  const { t, i18n } = useTranslation();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(values: LoginForm) {
    setBusy(true);
    setError(undefined);
    try {
      const response = await fetch('/api/user/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-language': i18n.language },
        body: JSON.stringify(values),
      });
      const body = (await response.json()) as { message?: string };
      if (!response.ok) setError(body.message ?? response.statusText);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f0f2f5' }}>
      <Card style={{ width: 360 }} data-testid="login-card">
        <Typography.Title level={3}>{t('ui.login.title')}</Typography.Title>
        {error && <Alert type="error" message={error} showIcon style={{ marginBottom: 16 }} />}
        <Form<LoginForm> layout="vertical" onFinish={(v) => void submit(v)} name="login">
          <Form.Item name="loginAccount" label={t('ui.login.account')} rules={[{ required: true, message: t('ui.login.accountRequired') }]}>
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item name="password" label={t('ui.login.password')} rules={[{ required: true, message: t('ui.login.passwordRequired') }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('ui.login.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
