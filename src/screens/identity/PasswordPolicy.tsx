import { CheckCircleFilled, CloseCircleOutlined } from '@ant-design/icons';
import { Button, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkPasswordRules, PASSWORD_RULES, passwordViolations } from '../../common/password-policy';

/** The password policy, each rule ticking as the typed password meets it. */
export function PasswordPolicy({ password }: { password: string }) {
  const { t } = useTranslation();
  const met = checkPasswordRules(password);
  return (
    <div data-testid="password-policy" style={{ marginTop: -8, marginBottom: 16 }}>
      <Typography.Text type="secondary">{t('ui.auth.policy.title')}</Typography.Text>
      <ul style={{ listStyle: 'none', paddingLeft: 0, margin: '4px 0 0' }}>
        {PASSWORD_RULES.map((rule) => (
          <li key={rule} data-rule={rule} data-met={met[rule] ? 'true' : 'false'} style={{ color: met[rule] ? '#389e0d' : '#8c8c8c' }}>
            {met[rule] ? <CheckCircleFilled /> : <CloseCircleOutlined />} {t(`ui.auth.policy.${rule}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Form rules of a new password and its confirmation, checked in the browser as on the server. */
export function newPasswordRules(t: (key: string) => string) {
  return [
    { required: true, message: t('ui.auth.validation.required') },
    {
      validator: (_: unknown, value: string | undefined) =>
        !value || passwordViolations(value).length === 0 ? Promise.resolve() : Promise.reject(new Error(t('ui.auth.validation.policy'))),
    },
  ];
}

export function confirmPasswordRules(t: (key: string) => string, field: string) {
  return [
    { required: true, message: t('ui.auth.validation.required') },
    ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
      validator: (_: unknown, value: string | undefined) =>
        !value || getFieldValue(field) === value ? Promise.resolve() : Promise.reject(new Error(t('ui.auth.validation.mismatch'))),
    }),
  ];
}

/**
 * A new password with the policy ticking below it, then the password typed again: the same fields
 * on registration, reset and change. `name` is the new password's field; its confirmation is
 * `confirmPassword`. Rendered inside the form it belongs to.
 */
export function NewPasswordFields({ name, labelKey }: { name: 'newPassword' | 'password'; labelKey: string }) {
  const { t } = useTranslation();
  const password = (Form.useWatch(name, Form.useFormInstance()) as string | undefined) ?? '';
  return (
    <>
      <Form.Item name={name} label={t(labelKey)} rules={newPasswordRules(t)}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <PasswordPolicy password={password} />
      <Form.Item name="confirmPassword" label={t('ui.auth.field.confirmPassword')} dependencies={[name]} rules={confirmPasswordRules(t, name)}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}

/** The end of the sign-up and password reset forms: the e-mailed code, the new password typed twice and the button that sends them. */
export function CodeAndNewPasswordFields({ name, labelKey, submitText, busy }: { name: 'newPassword' | 'password'; labelKey: string; submitText: string; busy: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="code" label={t('ui.auth.field.code')} rules={[{ required: true, message: t('ui.auth.validation.required') }]}>
        <Input inputMode="numeric" autoComplete="one-time-code" maxLength={10} />
      </Form.Item>
      <NewPasswordFields name={name} labelKey={labelKey} />
      <Button type="primary" htmlType="submit" block loading={busy}>
        {submitText}
      </Button>
    </>
  );
}
