import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Input, InputNumber, Select, Space, Switch, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AutoPrintEvent, AutoPrintRule } from '../../common/autoprint-api';
import { api, FormDialog, showConfirm, showSuccess, useRights, useSubmitAndClose } from '../../app/public';

type Rule = AutoPrintRule;

interface RuleList {
  rules: Rule[];
  templates: Array<{ id: number; code: string; kind: string; name: string; publishedVersion: number | null }>;
  printers: Array<{ id: number; name: string; type: string }>;
  reports: Array<{ id: number; code: string; name: string }>;
  events: Array<{ event: AutoPrintEvent; templateKinds: string[] }>;
}

/** The locale key of an event's name. */
const EVENT_KEY: Record<AutoPrintEvent, string> = { 'packing.checkCompleted': 'autoprint.event.checkCompleted', 'loading.shipped': 'autoprint.event.shipped', schedule: 'autoprint.event.schedule' };

/**
 * The auto print rules of the session's warehouse (/autoPrint): which document prints from which
 * template on which printer when an order is checked complete or a load ships, or which report of
 * the project prints at the times of a cron expression; a rule is added, changed, deleted and
 * printed now (for an order, or a schedule's report) from here.
 */
export default function AutoPrintScreen() {
  const { t } = useTranslation();
  const rights = useRights('autoPrint');
  const [data, setData] = useState<RuleList>({ rules: [], templates: [], printers: [], reports: [], events: [] });
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const [printing, setPrinting] = useState<Rule | null>(null);
  const reload = useCallback(() => api<RuleList>('/config/ireport/autoPrint/list', { body: {} }).then(setData), []);
  useEffect(() => void reload(), [reload]);

  const templateName = (id: number) => {
    const found = data.templates.find((x) => x.id === id);
    return found ? `${found.code} ${found.name}${found.publishedVersion === null ? ` (${t('autoprint.screen.notPublished')})` : ''}` : String(id);
  };
  const printerName = (id: number) => data.printers.find((p) => p.id === id)?.name ?? String(id);
  const reportName = (id: number) => {
    const found = data.reports.find((r) => r.id === id);
    return found ? `${found.code} ${found.name}` : String(id);
  };
  const remove = async (rule: Rule) => {
    if (!(await showConfirm({ content: t('autoprint.screen.deleteConfirm'), okType: 'danger' }))) return;
    await api('/config/ireport/autoPrint/delete', { body: { ids: [rule.id] } });
    await reload();
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Alert type="info" showIcon message={t('autoprint.screen.hint')} />
      <Card size="small" title={t('autoprint.screen.title')} extra={rights.add && <Button id="autoPrintAdd" onClick={() => setEditing('new')}>{t('autoprint.screen.add')}</Button>}>
        <Table
          size="small"
          rowKey="id"
          dataSource={data.rules}
          pagination={false}
          columns={[
            { title: t('autoprint.screen.event'), dataIndex: 'event', render: (event: AutoPrintEvent) => t(EVENT_KEY[event]) },
            {
              title: t('autoprint.screen.schedule'),
              key: 'schedule',
              render: (_: unknown, rule: Rule) => (rule.event === 'schedule' ? `${rule.cron ?? ''} · ${rule.reportId === null ? '' : reportName(rule.reportId)}` : ''),
            },
            { title: t('autoprint.screen.template'), dataIndex: 'templateId', render: templateName },
            { title: t('autoprint.screen.printer'), dataIndex: 'printerId', render: printerName },
            { title: t('autoprint.screen.copies'), dataIndex: 'copies' },
            { title: t('autoprint.screen.active'), dataIndex: 'active', render: (active: boolean) => t(active ? 'autoprint.screen.yes' : 'autoprint.screen.no') },
            { title: t('autoprint.screen.remark'), dataIndex: 'remark' },
            { title: t('autoprint.screen.updatedAt'), dataIndex: 'updatedAt' },
            {
              title: '',
              key: 'actions',
              render: (_: unknown, rule: Rule) => (
                <Space>
                  {rights.edit && (
                    <Button size="small" onClick={() => setEditing(rule)}>
                      {t('autoprint.screen.edit')}
                    </Button>
                  )}
                  <Button size="small" onClick={() => setPrinting(rule)}>
                    {t('autoprint.screen.printNow')}
                  </Button>
                  {rights.delete && (
                    <Button size="small" danger onClick={() => void remove(rule)}>
                      {t('autoprint.screen.delete')}
                    </Button>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      {editing && <RuleDialog rule={editing === 'new' ? null : editing} data={data} onClose={() => setEditing(null)} onDone={() => void reload()} />}
      {printing && <PrintNowDialog rule={printing} onClose={() => setPrinting(null)} />}
    </Space>
  );
}

function RuleDialog({ rule, data, onClose, onDone }: { rule: Rule | null; data: RuleList; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [busy, submit] = useSubmitAndClose(onDone, onClose);
  const event = Form.useWatch('event', form) as AutoPrintEvent | undefined;
  const kinds = data.events.find((e) => e.event === event)?.templateKinds ?? [];
  const initial = rule ?? { event: 'packing.checkCompleted', copies: 1, active: true, cron: '0 0 6 * * ?' };
  return (
    <FormDialog open title={t(rule ? 'autoprint.screen.edit' : 'autoprint.screen.add')} okText={t('autoprint.screen.save')} cancelText={t('autoprint.screen.cancel')} busy={busy} form={form} onClose={onClose} testId="autoPrintRuleDialog">
      <Form
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={(values: Omit<Rule, 'id' | 'updatedAt' | 'updatedBy'>) =>
          void submit(() =>
            api('/config/ireport/autoPrint/save', {
              body: {
                ...(rule ? { id: rule.id } : {}),
                ...values,
                remark: values.remark ?? null,
                // Only a schedule keeps a cron expression and a report.
                cron: values.event === 'schedule' ? (values.cron ?? '') : null,
                reportId: values.event === 'schedule' ? (values.reportId ?? null) : null,
              },
            }).then(() => undefined),
          )
        }
      >
        <Form.Item name="event" label={t('autoprint.screen.event')} rules={[{ required: true }]}>
          <Select id="autoPrintEvent" options={data.events.map((e) => ({ value: e.event, label: t(EVENT_KEY[e.event]) }))} onChange={() => form.setFieldValue('templateId', undefined)} />
        </Form.Item>
        {event === 'schedule' && (
          <>
            <Form.Item name="cron" label={t('autoprint.screen.cron')} extra={t('autoprint.screen.cronHelp')} rules={[{ required: true, whitespace: true }]}>
              <Input id="autoPrintCron" maxLength={120} />
            </Form.Item>
            <Form.Item name="reportId" label={t('autoprint.screen.report')} rules={[{ required: true }]}>
              <Select id="autoPrintReport" options={data.reports.map((r) => ({ value: r.id, label: `${r.code} ${r.name}` }))} />
            </Form.Item>
          </>
        )}
        <Form.Item name="templateId" label={t('autoprint.screen.template')} rules={[{ required: true }]}>
          <Select
            id="autoPrintTemplate"
            options={data.templates.filter((x) => kinds.includes(x.kind)).map((x) => ({ value: x.id, label: `${x.code} ${x.name}${x.publishedVersion === null ? ` (${t('autoprint.screen.notPublished')})` : ''}` }))}
          />
        </Form.Item>
        <Form.Item name="printerId" label={t('autoprint.screen.printer')} rules={[{ required: true }]}>
          <Select id="autoPrintPrinter" options={data.printers.map((p) => ({ value: p.id, label: `${p.name} (${p.type})` }))} />
        </Form.Item>
        <Form.Item name="copies" label={t('autoprint.screen.copies')} rules={[{ required: true }]}>
          <InputNumber id="autoPrintCopies" min={1} max={20} precision={0} />
        </Form.Item>
        <Form.Item name="active" label={t('autoprint.screen.active')} valuePropName="checked">
          <Switch id="autoPrintActive" />
        </Form.Item>
        <Form.Item name="remark" label={t('autoprint.screen.remark')}>
          <Input id="autoPrintRemark" maxLength={200} />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}

function PrintNowDialog({ rule, onClose }: { rule: Rule; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [busy, submit] = useSubmitAndClose(() => undefined, onClose);
  return (
    <FormDialog open title={t('autoprint.screen.printNow')} okText={t('autoprint.screen.printNow')} cancelText={t('autoprint.screen.cancel')} busy={busy} form={form} onClose={onClose} testId="autoPrintNowDialog">
      <Form
        form={form}
        layout="vertical"
        onFinish={(values: { orderNo?: string }) =>
          void submit(async () => {
            // A schedule rule prints its report: no order to name.
            const answer = await api<{ jobIds: number[] }>('/config/ireport/autoPrint', { body: { ruleId: rule.id, ...(rule.event === 'schedule' ? {} : { orderNo: values.orderNo }) } });
            void showSuccess({ type: 'success', content: t('autoprint.screen.printed', { ids: answer.jobIds.join(', ') }) });
          })
        }
      >
        {rule.event === 'schedule' ? (
          <Alert type="info" showIcon message={t('autoprint.screen.printReportNow')} />
        ) : (
          <Form.Item name="orderNo" label={t('autoprint.screen.orderNo')} rules={[{ required: true, whitespace: true }]}>
            <Input id="autoPrintOrderNo" maxLength={100} autoFocus />
          </Form.Item>
        )}
      </Form>
    </FormDialog>
  );
}
