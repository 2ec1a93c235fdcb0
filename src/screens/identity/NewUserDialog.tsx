import { useEffect, useState } from 'react';
import { Alert, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, FormDialog, openRoute, useBusy, useSession } from '../../app/public';
import { dialogAction } from '../../app/public-widgets';
import { newPasswordRules, PasswordPolicy } from './PasswordPolicy';

interface Option {
  id: number;
  code: string;
  name: string;
}

interface Choices {
  projects: Option[];
  warehouses: Option[];
  roles: { id: number; name: string }[];
}

interface NewUserValues {
  loginAccount: string;
  displayName: string;
  email?: string;
  password: string;
  roleIds?: number[];
  projectIds?: number[];
  warehouseIds?: number[];
}

/**
 * "New user" on the user list: login, name, e-mail, password (with the password policy), roles,
 * projects and warehouses in one dialog, saved by one `POST /api/user/save` (one transaction). The
 * projects and warehouses start as the administrator's current ones; the first of each becomes the
 * new user's default. Once saved, the dialog says so with a link that opens the new user on the list.
 */
export default dialogAction({ allowed: (rights) => rights.add, testId: 'identity-new-user', labelKey: 'ui.identity.newUser.button', Dialog: NewUserDialog });

function NewUserDialog({ onClose, onDone: onSaved }: { onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<NewUserValues>();
  const [busy, run] = useBusy();
  const [choices, setChoices] = useState<Choices | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const currentProject = useSession((s) => s.status?.project?.id);
  const currentWarehouse = useSession((s) => s.status?.warehouse?.id);
  const password = (Form.useWatch('password', form) as string | undefined) ?? '';

  useEffect(() => {
    let live = true;
    void Promise.all([api<{ projects: Option[]; warehouses: Option[] }>('/user/org'), api<Choices['roles']>('/user/role')]).then(
      ([org, roles]) => live && setChoices({ projects: org.projects, warehouses: org.warehouses, roles }),
      () => live && setChoices({ projects: [], warehouses: [], roles: [] }),
    );
    return () => {
      live = false;
    };
  }, []);

  const save = (values: NewUserValues) =>
    run(async () => {
      const projectIds = values.projectIds ?? [];
      const warehouseIds = values.warehouseIds ?? [];
      try {
        await api<{ uid: number }>('/user/save', {
          method: 'POST',
          body: {
            loginAccount: values.loginAccount.trim(),
            displayName: values.displayName.trim(),
            email: values.email?.trim() ? values.email.trim() : null,
            password: values.password,
            roleIds: values.roleIds ?? [],
            projectIds,
            warehouseIds,
            defaultProjectId: projectIds[0] ?? null,
            defaultWarehouseId: warehouseIds[0] ?? null,
          },
        });
      } catch {
        // The API client has shown the refusal (a taken login, a weak password); the form stays.
        return;
      }
      setSaved(values.loginAccount.trim());
      onSaved();
    });

  const options = (rows: Option[]) => rows.map((row) => ({ value: row.id, label: `${row.code} ${row.name}` }));
  const required = [{ required: true, whitespace: true, message: t('ui.identity.newUser.required') }];

  return (
    <FormDialog
      open
      title={t('ui.identity.newUser.title')}
      okText={saved ? t('ui.identity.newUser.cancel') : t('ui.identity.newUser.save')}
      cancelText={t('ui.identity.newUser.cancel')}
      busy={busy}
      submit={saved ? onClose : () => form.submit()}
      onClose={onClose}
      okButtonProps={{ id: 'identity-new-user-ok', disabled: !choices }}
    >
      {saved ? (
        <Alert
          type="success"
          data-testid="identity-new-user-saved"
          showIcon
          message={t('ui.identity.newUser.saved', { login: saved })}
          description={
            <Typography.Link
              data-testid="identity-new-user-open"
              onClick={() => {
                openRoute('user', { login_account: saved });
                onClose();
              }}
            >
              {t('ui.identity.newUser.open', { login: saved })}
            </Typography.Link>
          }
        />
      ) : (
        choices && (
          <Form
            form={form}
            layout="vertical"
            data-testid="identity-new-user-form"
            onFinish={(values) => void save(values)}
            initialValues={{
              projectIds: currentProject !== undefined && choices.projects.some((p) => p.id === currentProject) ? [currentProject] : [],
              warehouseIds: currentWarehouse !== undefined && choices.warehouses.some((w) => w.id === currentWarehouse) ? [currentWarehouse] : [],
              roleIds: [],
            }}
          >
            <Form.Item name="loginAccount" label={t('ui.identity.newUser.loginAccount')} rules={[...required, { max: 100 }]}>
              <Input autoComplete="off" data-testid="identity-new-user-login" />
            </Form.Item>
            <Form.Item name="displayName" label={t('ui.identity.newUser.displayName')} rules={[...required, { max: 200 }]}>
              <Input data-testid="identity-new-user-name" />
            </Form.Item>
            <Form.Item name="email" label={t('ui.identity.newUser.email')} rules={[{ type: 'email' }, { max: 254 }]}>
              <Input data-testid="identity-new-user-email" />
            </Form.Item>
            <Form.Item name="password" label={t('ui.identity.newUser.password')} rules={newPasswordRules(t)}>
              <Input.Password autoComplete="new-password" data-testid="identity-new-user-password" />
            </Form.Item>
            <PasswordPolicy password={password} />
            <Form.Item name="roleIds" label={t('ui.identity.newUser.roles')}>
              <Select mode="multiple" data-testid="identity-new-user-roles" optionFilterProp="label" options={choices.roles.map((r) => ({ value: r.id, label: r.name }))} />
            </Form.Item>
            <Form.Item name="projectIds" label={t('ui.identity.newUser.projects')}>
              <Select mode="multiple" data-testid="identity-new-user-projects" optionFilterProp="label" options={options(choices.projects)} />
            </Form.Item>
            <Form.Item name="warehouseIds" label={t('ui.identity.newUser.warehouses')}>
              <Select mode="multiple" data-testid="identity-new-user-warehouses" optionFilterProp="label" options={options(choices.warehouses)} />
            </Form.Item>
          </Form>
        )
      )}
    </FormDialog>
  );
}
