import { CheckCircleFilled, CloseCircleOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkPasswordRules, PASSWORD_RULES, passwordViolations } from '../../common/password-policy';

/** The password policy of spec section 5, each rule ticking as the typed password meets it. */
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
