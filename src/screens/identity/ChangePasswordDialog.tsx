import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, FormDialog, showSuccess } from '../../app/public';
import { NewPasswordFields } from './PasswordPolicy';
import { useFormAction } from './useFormAction';

interface ChangeForm {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Change password: old one right, new one meeting the policy, typed twice, different. */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ChangeForm>();
  const { busy, error, run } = useFormAction(form);

  const submit = (values: ChangeForm) =>
    run(async () => {
      await api('/user/changePwd', { method: 'POST', body: values, quiet: true });
      form.resetFields();
      onClose();
      void showSuccess({ type: 'success', content: t('ui.auth.changePassword.done') });
    }, ['oldPassword', 'newPassword', 'confirmPassword']);

  return (
    <FormDialog open={open} title={t('ui.auth.changePassword.title')} okText={t('ui.auth.common.save')} cancelText={t('ui.auth.common.cancel')} busy={busy} form={form} onClose={onClose} testId="change-password-dialog">
      {error && <Alert type="error" message={error} showIcon style={{ marginBottom: 16 }} />}
      <Form<ChangeForm> form={form} layout="vertical" name="changePassword" onFinish={(v) => void submit(v)}>
        <Form.Item name="oldPassword" label={t('ui.auth.field.oldPassword')} rules={[{ required: true, message: t('ui.auth.validation.required') }]}>
          <Input.Password autoComplete="current-password" autoFocus />
        </Form.Item>
        <NewPasswordFields name="newPassword" labelKey="ui.auth.field.newPassword" />
      </Form>
    </FormDialog>
  );
}
