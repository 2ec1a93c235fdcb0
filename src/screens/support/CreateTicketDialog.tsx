import { useEffect, useState } from 'react';
import { Alert, Form, Input, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, FormDialog, showSuccess, useBusy } from '../../app/public';
import { supportApi, type Option, type Ticket } from './support-api';

interface CreateForm {
  type: 'GEN' | 'A01';
  organizationId: number;
  projectId: number;
  subject?: string;
  category: string;
  priority: string;
  asnNumber?: string;
  message: string;
}

const CATEGORIES = ['question', 'problem', 'request', 'data'];
const PRIORITIES = ['low', 'normal', 'high', 'urgent'];

/**
 * Create ticket (a dialog of the /support screen): the organization and project pickers
 * offer only what the user holds; a question or problem has a subject, a reopen-ASN request (A01)
 * names the ASN. Attachments are added to the ticket's messages through the attachments area.
 */
export function CreateTicketDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (ticket: Ticket) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CreateForm>();
  const [organizations, setOrganizations] = useState<Option[]>([]);
  const [projects, setProjects] = useState<Option[]>([]);
  const [busy, run] = useBusy();
  const [error, setError] = useState<string>();
  const type = Form.useWatch('type', form) ?? 'GEN';
  const organizationId = Form.useWatch('organizationId', form);

  useEffect(() => {
    if (!open) return;
    void supportApi.organizations().then((list) => {
      setOrganizations(list);
      if (list.length === 1) form.setFieldValue('organizationId', list[0].id);
    });
  }, [open, form]);

  useEffect(() => {
    setProjects([]);
    form.setFieldValue('projectId', undefined);
    if (!organizationId) return;
    void supportApi.projects(organizationId).then((list) => {
      setProjects(list);
      if (list.length === 1) form.setFieldValue('projectId', list[0].id);
    });
  }, [organizationId, form]);

  const submit = (values: CreateForm) =>
    run(async () => {
      setError(undefined);
      try {
        const common = { organizationId: values.organizationId, projectId: values.projectId, priority: values.priority, message: values.message };
        const ticket =
          values.type === 'A01'
            ? await supportApi.sendReopenAsn({ ...common, asnNumber: values.asnNumber?.trim(), ...(values.subject?.trim() ? { subject: values.subject.trim() } : {}) })
            : await supportApi.send({ ...common, subject: values.subject?.trim(), category: values.category });
        form.resetFields();
        onCreated(ticket);
        void showSuccess({ type: 'success', content: t('support.ui.created', { number: ticket.number }) });
      } catch (e) {
        setError(e instanceof ApiError ? e.body.message : String(e));
      }
    });

  const required = [{ required: true, message: t('support.ui.choose') }];
  const text = [{ required: true, whitespace: true, message: t('support.ui.choose') }];
  return (
    <FormDialog open={open} title={t('support.ui.create')} okText={t('support.ui.send')} cancelText={t('support.ui.cancel')} busy={busy} form={form} onClose={onClose} okButtonProps={{ id: 'support-create-send' }}>
      <div data-testid="support-create">
        {error && <Alert type="error" message={error} showIcon style={{ marginBottom: 16 }} data-testid="support-create-error" />}
        <Form<CreateForm> form={form} layout="vertical" name="supportCreate" initialValues={{ type: 'GEN', category: 'question', priority: 'normal' }} onFinish={(v) => void submit(v)}>
          <Form.Item name="type" label={t('support.ui.type')}>
            <Radio.Group>
              <Radio value="GEN">{t('support.ui.typeGEN')}</Radio>
              <Radio value="A01">{t('support.ui.typeA01')}</Radio>
            </Radio.Group>
          </Form.Item>
          <Form.Item name="organizationId" label={t('support.ui.organization')} rules={required}>
            <Select data-testid="support-create-organization" placeholder={t('support.ui.choose')} options={organizations.map((o) => ({ value: o.id, label: `${o.code} ${o.name}` }))} />
          </Form.Item>
          <Form.Item name="projectId" label={t('support.ui.project')} rules={required}>
            <Select data-testid="support-create-project" placeholder={t('support.ui.choose')} options={projects.map((p) => ({ value: p.id, label: `${p.code} ${p.name}` }))} />
          </Form.Item>
          {type === 'A01' ? (
            <Form.Item name="asnNumber" label={t('support.ui.asnNumber')} rules={text}>
              <Input maxLength={50} />
            </Form.Item>
          ) : (
            <Form.Item name="category" label={t('support.ui.category')}>
              <Select options={CATEGORIES.map((c) => ({ value: c, label: t(`support.category.${c}`) }))} />
            </Form.Item>
          )}
          <Form.Item name="subject" label={t('support.ui.subject')} rules={type === 'A01' ? [] : text}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="priority" label={t('support.ui.priority')}>
            <Select options={PRIORITIES.map((p) => ({ value: p, label: t(`support.priority.${p}`) }))} />
          </Form.Item>
          <Form.Item name="message" label={t('support.ui.message')} rules={text}>
            <Input.TextArea rows={4} maxLength={4000} />
          </Form.Item>
        </Form>
      </div>
    </FormDialog>
  );
}
