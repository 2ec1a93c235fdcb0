import { useState, type ReactNode } from 'react';
import { Alert, Button, Checkbox, Form, Input, Radio, Space, theme, Typography } from 'antd';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { LoginAnswer, LoginSuccess, TwoStepMethod } from '../../common/api-types';
import type { CodeSent } from '../../common/identity-api';
import { applyLanguage, storeToken, takeReturnPath } from '../../app/public';
import { publicCall, rememberTrustedBrowser, trustedBrowserToken } from './auth-api';
import { useFormAction } from './useFormAction';

interface LoginForm {
  loginAccount: string;
  password: string;
}

interface TwoStepForm {
  method: TwoStepMethod;
  code: string;
  trustBrowser: boolean;
}

interface Challenge {
  loginAccount: string;
  challengeId: string;
  methods: TwoStepMethod[];
}

/**
 * The frame the public sign-in screens share: a card drawn with antd's tokens rather than antd's
 * Card, which brings tabs and menus along and would make the sign-in page load them.
 */
export function AuthCard({ title, children, testId, backToLogin = false }: { title: string; children: ReactNode; testId: string; backToLogin?: boolean }) {
  const { token } = theme.useToken();
  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f0f2f5', padding: 16 }}>
      <div
        style={{
          width: 400,
          maxWidth: '100%',
          padding: token.paddingLG,
          background: token.colorBgContainer,
          border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
        }}
        data-testid={testId}
      >
        <Typography.Title level={3}>{title}</Typography.Title>
        {children}
        {backToLogin && (
          <div style={{ marginTop: 16 }}>
            <BackToLogin />
          </div>
        )}
      </div>
    </div>
  );
}

/** The way back to /login from the sign-up and password reset screens. */
export function BackToLogin() {
  const { t } = useTranslation();
  return <Link to="/login">{t('ui.auth.backToLogin')}</Link>;
}

/**
 * `/login`: the password, then, when the account asks for it and this browser
 * is not trusted, the two-step challenge: choose a method, have the code sent, enter it, and
 * optionally trust this browser.
 */
export function LoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The sign-in calls have no per-field errors: every refusal goes to the banner.
  const { busy, error, run } = useFormAction(undefined);
  const [challenge, setChallenge] = useState<Challenge>();
  const [sentMethod, setSentMethod] = useState<TwoStepMethod>();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [twoStepForm] = Form.useForm<TwoStepForm>();
  const method = Form.useWatch('method', twoStepForm);

  function enter(session: LoginSuccess, loginAccount: string) {
    storeToken(session.token, session.expiresAt);
    if (session.trustedBrowserToken) rememberTrustedBrowser(loginAccount, session.trustedBrowserToken);
    applyLanguage(session.user.language);
    // The page first asked for, when sign-in interrupted it.
    void navigate(takeReturnPath() ?? '/page', { replace: true });
  }

  const submit = (values: LoginForm) =>
    run(async () => {
      const answer = await publicCall<LoginAnswer>('/user/login', { ...values, trustedBrowserToken: trustedBrowserToken(values.loginAccount) });
      if ('twoStep' in answer) {
        setChallenge({ loginAccount: values.loginAccount, ...answer.twoStep });
        setSentMethod(undefined);
        setSentTo(null);
        twoStepForm.setFieldsValue({ method: answer.twoStep.methods[0], code: '', trustBrowser: false });
      } else {
        enter(answer, values.loginAccount);
      }
    });

  const sendCode = (chosen: TwoStepMethod) =>
    run(async () => {
      if (!challenge) return;
      const answer = await publicCall<CodeSent>('/user/AuthorizationCode/send', {
        challengeId: challenge.challengeId,
        method: chosen,
      });
      setSentMethod(answer.method);
      setSentTo(answer.sentTo);
    });

  const verify = (values: TwoStepForm) =>
    run(async () => {
      if (!challenge) return;
      // A code sent by e-mail or SMS earlier binds the challenge to that method; choosing the
      // authenticator afterwards switches it back.
      if (values.method === 'totp' && sentMethod && sentMethod !== 'totp') {
        await publicCall('/user/AuthorizationCode/send', { challengeId: challenge.challengeId, method: 'totp' });
        setSentMethod('totp');
      }
      const session = await publicCall<LoginSuccess>('/user/AuthorizationCode', {
        challengeId: challenge.challengeId,
        code: values.code,
        trustBrowser: values.trustBrowser,
      });
      enter(session, challenge.loginAccount);
    });

  if (challenge) {
    const needsSending = method === 'email' || method === 'sms';
    return (
      <AuthCard title={t('ui.auth.twoStep.title')} testId="two-step-card">
        <Typography.Paragraph type="secondary">{t('ui.auth.twoStep.intro')}</Typography.Paragraph>
        {error && <Alert type="error" message={error} showIcon style={{ marginBottom: 16 }} data-testid="login-error" />}
        <Form<TwoStepForm> form={twoStepForm} layout="vertical" name="twoStep" onFinish={(v) => void verify(v)}>
          <Form.Item name="method" label={t('ui.auth.twoStep.method')}>
            <Radio.Group
              optionType="button"
              options={challenge.methods.map((m) => ({ value: m, label: t(`ui.auth.twoStep.methods.${m}`) }))}
              onChange={() => {
                setSentTo(null);
              }}
            />
          </Form.Item>
          {needsSending ? (
            <Space direction="vertical" style={{ width: '100%', marginBottom: 16 }}>
              <Button onClick={() => void sendCode(method)} loading={busy} data-testid="send-code">
                {t('ui.auth.twoStep.send')}
              </Button>
              {sentTo && sentMethod === method && <Alert type="info" showIcon message={t('ui.auth.twoStep.sent', { to: sentTo })} />}
            </Space>
          ) : (
            <Typography.Paragraph>{t('ui.auth.twoStep.totpHint')}</Typography.Paragraph>
          )}
          <Form.Item name="code" label={t('ui.auth.twoStep.code')} rules={[{ required: true, message: t('ui.auth.validation.required') }]}>
            <Input prefix={<SafetyOutlined />} inputMode="numeric" autoComplete="one-time-code" maxLength={10} autoFocus />
          </Form.Item>
          <Form.Item name="trustBrowser" valuePropName="checked">
            <Checkbox>{t('ui.auth.twoStep.trustBrowser')}</Checkbox>
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('ui.auth.twoStep.verify')}
          </Button>
          <Button type="link" block onClick={() => setChallenge(undefined)}>
            {t('ui.auth.twoStep.back')}
          </Button>
        </Form>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('ui.login.title')} testId="login-card">
      {error && <Alert type="error" message={error} showIcon style={{ marginBottom: 16 }} data-testid="login-error" />}
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
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16 }}>
        <Link to="/forgot">{t('ui.login.forgot')}</Link>
        <Link to="/sign">{t('ui.login.register')}</Link>
      </div>
    </AuthCard>
  );
}
