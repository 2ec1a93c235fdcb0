import { useState } from 'react';
import { Alert, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, showSuccess } from '../../app/public';
import { applyFieldErrors, errorText } from './auth-api';
import { confirmPasswordRules, newPasswordRules, PasswordPolicy } from './PasswordPolicy';

interface ChangeForm {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Change password (spec section 5): old one right, new one meeting the policy, typed twice, different. */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ChangeForm>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const newPassword = Form.useWatch('newPassword', form) ?? '';

  async function submit(values: ChangeForm) {
    setBusy(true);
    setError(undefined);
    try {
      await api('/user/changePwd', { method: 'POST', body: values, quiet: true });
      form.resetFields();
      onClose();
      void showSuccess({ type: 'success', content: t('ui.auth.changePassword.done') });
    } catch (e) {
      if (!applyFieldErrors(form, e, ['oldPassword', 'newPassword', 'confirmPassword'])) setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      title={t('ui.auth.changePassword.title')}
      okText={t('ui.auth.common.save')}
      cancelText={t('ui.auth.common.cancel')}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="change-password-dialog"
    >
      {error && <Alert type="error" message={error} showIcon style={{ marginBottom: 16 }} />}
      <Form<ChangeForm> form={form} layout="vertical" name="changePassword" onFinish={(v) => void submit(v)}>
        <Form.Item name="oldPassword" label={t('ui.auth.field.oldPassword')} rules={[{ required: true, message: t('ui.auth.validation.required') }]}>
          <Input.Password autoComplete="current-password" autoFocus />
        </Form.Item>
        <Form.Item name="newPassword" label={t('ui.auth.field.newPassword')} rules={newPasswordRules(t)}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <PasswordPolicy password={newPassword} />
        <Form.Item name="confirmPassword" label={t('ui.auth.field.confirmPassword')} dependencies={['newPassword']} rules={confirmPasswordRules(t, 'newPassword')}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
