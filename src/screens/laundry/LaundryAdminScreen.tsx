import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Form, Input, Modal, Popconfirm, Space, Table, Tabs, Tag, Typography, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LaundryCustomerRow, LaundryDeviceRow, LaundryIssuedDevice } from '../../common/laundry-api';
import { api } from '../../app/public';

const when = (value: string | null) => (value ? new Date(value).toLocaleString() : '');

/** The issued key, this once: as text and as a QR code a phone's scanner can read into the key field. */
function IssuedKey({ issued, onClose }: { issued: LaundryIssuedDevice; onClose: () => void }) {
  const { t } = useTranslation();
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode').then(({ default: QRCode }) => QRCode.toDataURL(issued.key, { margin: 1, width: 220 })).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [issued.key]);
  return (
    <Modal open title={t('laundry.admin.keyTitle', { name: issued.device.name })} onCancel={onClose} footer={<Button onClick={onClose}>{t('laundry.admin.close')}</Button>}>
      <Space direction="vertical" style={{ width: '100%' }} data-testid="laundry-issued-key">
        <Alert type="warning" showIcon message={t('laundry.admin.keyOnce')} />
        <Typography.Paragraph copyable={{ text: issued.key }} code data-testid="laundry-key-text" style={{ wordBreak: 'break-all' }}>
          {issued.key}
        </Typography.Paragraph>
        {qr && <img src={qr} alt="" width={220} height={220} data-testid="laundry-key-qr" />}
      </Space>
    </Modal>
  );
}

/**
 * The rows a tab lists (`listPath`), loaded when it opens, and `change`: a call that changes them,
 * answered once the list is loaded again.
 */
function useAdminRows<Row>(listPath: string) {
  const [rows, setRows] = useState<Row[]>([]);
  const load = useCallback(() => api<{ rows: Row[] }>(listPath, { body: {} }).then((answer) => setRows(answer.rows)), [listPath]);
  useEffect(() => void load(), [load]);
  const change = useCallback(
    async <T,>(path: string, body: object): Promise<T> => {
      const answer = await api<T>(path, { body });
      await load();
      return answer;
    },
    [load],
  );
  return { rows, change };
}

/** The list of a tab (devices, customers): small rows by id, twenty a page. */
function AdminTable<Row extends { id: number }>(props: Omit<TableProps<Row>, 'size' | 'rowKey' | 'pagination'>) {
  return <Table<Row> size="small" rowKey="id" pagination={{ pageSize: 20 }} {...props} />;
}

/**
 * The form a tab issues with (a device, a customer): its name, any further fields, and the issue
 * button; emptied once `onIssue` has issued.
 */
function IssueForm<Values extends { name: string }>({
  nameLabel,
  nameId,
  submitTestId,
  submitLabel,
  onIssue,
  children,
}: {
  nameLabel: string;
  nameId: string;
  submitTestId: string;
  submitLabel: string;
  onIssue: (values: Values) => Promise<void>;
  children?: ReactNode;
}) {
  const [form] = Form.useForm<Values>();
  const issue = async (values: Values) => {
    await onIssue(values);
    form.resetFields();
  };
  return (
    <Form form={form} layout="inline" onFinish={(values) => void issue(values)}>
      <Form.Item name="name" label={nameLabel} rules={[{ required: true, whitespace: true, max: 100 }]}>
        <Input id={nameId} maxLength={100} />
      </Form.Item>
      {children}
      <Button type="primary" htmlType="submit" data-testid={submitTestId}>
        {submitLabel}
      </Button>
    </Form>
  );
}

function DevicesTab() {
  const { t } = useTranslation();
  const { rows, change } = useAdminRows<LaundryDeviceRow>('/laundry/devices');
  const [issued, setIssued] = useState<LaundryIssuedDevice | null>(null);
  const issue = async ({ name }: { name: string }) => {
    setIssued(await change<LaundryIssuedDevice>('/laundry/device/issue', { name: name.trim() }));
  };
  const revoke = (deviceId: number) => change('/laundry/device/revoke', { deviceId });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <IssueForm nameLabel={t('laundry.admin.deviceName')} nameId="laundry-device-name" submitTestId="laundry-issue-device" submitLabel={t('laundry.admin.issueDevice')} onIssue={issue} />
      <AdminTable
        data-testid="laundry-devices"
        dataSource={rows}
        columns={[
          { title: t('laundry.admin.deviceName'), dataIndex: 'name' },
          { title: t('laundry.admin.keyHint'), dataIndex: 'keyHint', render: (hint: string) => <code>{hint}…</code> },
          { title: t('laundry.admin.issued'), dataIndex: 'createdAt', render: when },
          { title: t('laundry.admin.lastUsed'), dataIndex: 'lastUsedAt', render: when },
          {
            title: t('laundry.admin.state'),
            key: 'state',
            render: (_: unknown, row: LaundryDeviceRow) =>
              row.revokedAt ? <Tag>{`${t('laundry.admin.revoked')} ${when(row.revokedAt)}`}</Tag> : <Tag color="green">{t('laundry.admin.inUse')}</Tag>,
          },
          {
            key: 'actions',
            render: (_: unknown, row: LaundryDeviceRow) =>
              row.revokedAt ? null : (
                <Popconfirm title={t('laundry.admin.revokeConfirm', { name: row.name })} onConfirm={() => void revoke(row.id)}>
                  <Button danger size="small" data-testid={`laundry-revoke-${row.id}`}>
                    {t('laundry.admin.revoke')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
      {issued && <IssuedKey issued={issued} onClose={() => setIssued(null)} />}
    </Space>
  );
}

function CustomersTab() {
  const { t } = useTranslation();
  const { rows, change } = useAdminRows<LaundryCustomerRow>('/laundry/customers');
  const [issued, setIssued] = useState<LaundryCustomerRow | null>(null);
  const issue = async ({ name, phone }: { name: string; phone?: string }) => {
    setIssued(await change<LaundryCustomerRow>('/laundry/customer/issue', { name: name.trim(), phone: phone?.trim() || null }));
  };
  const setActive = (customerId: number, active: boolean) => change('/laundry/customer/active', { customerId, active });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <IssueForm nameLabel={t('laundry.admin.customerName')} nameId="laundry-customer-name" submitTestId="laundry-issue-customer" submitLabel={t('laundry.admin.issueCustomer')} onIssue={issue}>
        <Form.Item name="phone" label={t('laundry.admin.phone')} rules={[{ pattern: /^[0-9 +()-]*$/, max: 40 }]}>
          <Input id="laundry-customer-phone" maxLength={40} />
        </Form.Item>
      </IssueForm>
      {issued && (
        <Alert
          type="success"
          showIcon
          closable
          onClose={() => setIssued(null)}
          data-testid="laundry-customer-issued"
          data-code={issued.code}
          message={t('laundry.admin.customerIssued', { name: issued.name, code: issued.code })}
        />
      )}
      <AdminTable
        data-testid="laundry-customers"
        dataSource={rows}
        columns={[
          { title: t('laundry.admin.code'), dataIndex: 'code', render: (code: string) => <code>{code}</code> },
          { title: t('laundry.admin.customerName'), dataIndex: 'name' },
          { title: t('laundry.admin.phone'), dataIndex: 'phone' },
          { title: t('laundry.admin.issued'), dataIndex: 'createdAt', render: when },
          {
            title: t('laundry.admin.state'),
            dataIndex: 'active',
            render: (active: boolean) => (active ? <Tag color="green">{t('laundry.admin.active')}</Tag> : <Tag>{t('laundry.admin.withdrawn')}</Tag>),
          },
          {
            key: 'actions',
            render: (_: unknown, row: LaundryCustomerRow) =>
              row.active ? (
                <Popconfirm title={t('laundry.admin.withdrawConfirm', { name: row.name })} onConfirm={() => void setActive(row.id, false)}>
                  <Button danger size="small">
                    {t('laundry.admin.withdraw')}
                  </Button>
                </Popconfirm>
              ) : (
                <Button size="small" onClick={() => void setActive(row.id, true)}>
                  {t('laundry.admin.restore')}
                </Button>
              ),
          },
        ]}
      />
    </Space>
  );
}

/** The laundry's administration: devices of this warehouse (the key shown once) and customers with their codes (docs/laundry.md). */
export default function LaundryAdminScreen() {
  const { t } = useTranslation();
  return (
    <div data-testid="laundry-admin" style={{ padding: 12 }}>
      <Tabs
        items={[
          { key: 'devices', label: t('laundry.admin.devices'), children: <DevicesTab /> },
          { key: 'customers', label: t('laundry.admin.customers'), children: <CustomersTab /> },
        ]}
      />
    </div>
  );
}
