import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Checkbox, Descriptions, Form, Input, InputNumber, Result, Select, Space, Steps, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, showConfirm, useRights } from '../../app/public';
import type { TempOrder, WizardData, WizardItem, WizardKind } from '../../common/wizard-api';

type Kind = WizardKind;
type Line = NonNullable<WizardData['lines']>[number];
type Item = WizardItem;
interface Partner {
  id: number;
  code: string;
  name: string;
  contact_name: string | null;
  phone: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  country: string | null;
}
type Vas = { code: string } & Record<string, string | null>;

/** The server paths of each wizard (the spec's /inv/wine/* and /inv/nonMer/* names). */
const PATHS: Record<Kind, Record<'get' | 'save' | 'step' | 'reset' | 'submit' | 'items' | 'owners' | 'consignees' | 'couriers' | 'vas', string>> = {
  wine: {
    get: '/inv/wine/allInfo',
    save: '/inv/wine/saveTempOrder',
    step: '/inv/wine/addTempOrder',
    reset: '/inv/wine/clearTemp',
    submit: '/inv/wine/saveOrder',
    items: '/inv/wine/items',
    owners: '/inv/wine/dropdown',
    consignees: '/inv/wine/consignee',
    couriers: '/inv/wine/courrier',
    vas: '/inv/wine/vasInstruction',
  },
  nonMer: {
    get: '/inv/nonMer/findTempSoOrderInfo',
    save: '/inv/nonMer/addTempOrder',
    step: '/inv/nonMer/currentStep',
    reset: '/inv/nonMer/resetTempOrder',
    submit: '/inv/nonMer/saveOrder',
    items: '/so/inv/allNonMer',
    owners: '/inv/nonMer/dropdown',
    consignees: '/inv/nonMer/consignee',
    couriers: '/inv/nonMer/courrier',
    vas: '/inv/nonMer/vasInstruction',
  },
};
const STEPS = [1, 2, 3, 4, 5] as const;

/** A free-text note of the order (instructions, remark): two lines, at most 1000 characters. */
function NoteItem({ name, label }: { name: string; label: string }) {
  return (
    <Form.Item name={name} label={label}>
      <Input.TextArea maxLength={1000} rows={2} />
    </Form.Item>
  );
}

const trimmed = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/**
 * A five-step order wizard: 1 customer and consignee, 2 items with their available stock, 3 courier
 * and VAS instructions, 4 delivery, 5 review and submit. Every step is saved on the server as it is
 * left (the temporary order and the step the user is on), so closing the browser and signing in
 * again resumes at the same step with the same data. Enter in a field goes to the next step.
 */
export default function OrderWizard({ kind }: { kind: Kind }) {
  const { t, i18n } = useTranslation();
  const paths = PATHS[kind];
  // Every step is saved as it is left, which needs the add right: a user who may only look is told
  // so and offered no step, since a refused call signs the user out.
  const rights = useRights(kind === 'wine' ? 'wizard.wineOrder' : 'wizard.nonMerOrder');
  // Known only once the rights are in (any right includes viewing); until then the buttons wait and
  // Enter still saves, for the server to decide.
  const lookOnly = rights.view && !rights.add;
  const [temp, setTemp] = useState<TempOrder | null>(null);
  const [resumed, setResumed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [owners, setOwners] = useState<Array<{ id: number; code: string; name: string }>>([]);
  const [consignees, setConsignees] = useState<Partner[]>([]);
  const [couriers, setCouriers] = useState<Partner[]>([]);
  const [vas, setVas] = useState<Vas[]>([]);
  const [lines, setLines] = useState<Line[]>([]);
  const [known, setKnown] = useState<Map<number, Item>>(new Map());
  const [found, setFound] = useState<Item[]>([]);
  const [submitted, setSubmitted] = useState<string | null>(null);
  const [form] = Form.useForm<WizardData>();

  const show = useCallback((order: TempOrder) => {
    setTemp(order);
    setLines(order.data.lines ?? []);
    setKnown((before) => new Map([...before, ...order.items.map((item) => [item.id, item] as const)]));
  }, []);

  const load = useCallback(async () => {
    const order = await api<TempOrder>(paths.get);
    show(order);
    setResumed(order.updatedAt !== null && order.currentStep > 1);
  }, [paths.get, show]);

  useEffect(() => {
    void load().catch(() => undefined);
    void api<{ owners: typeof owners }>(paths.owners).then((answer) => setOwners(answer.owners)).catch(() => undefined);
    void api<{ rows: Partner[] }>(paths.consignees).then((answer) => setConsignees(answer.rows)).catch(() => undefined);
    void api<{ rows: Partner[] }>(paths.couriers).then((answer) => setCouriers(answer.rows)).catch(() => undefined);
    void api<{ rows: Vas[] }>(paths.vas).then((answer) => setVas(answer.rows)).catch(() => undefined);
  }, [paths, load]);

  const step = temp?.currentStep ?? 1;
  const data = useMemo(() => temp?.data ?? {}, [temp]);
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(data);
  }, [form, data, step]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      // The shell shows the server's message with the fields it names.
    } finally {
      setBusy(false);
    }
  };

  const saveStep = (values: WizardData) =>
    run(async () => {
      const body = step === 2 ? { lines } : values;
      const clean = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, typeof value === 'string' ? trimmed(value) : (value ?? null)]));
      if (step === 3) clean.vasInstructions = (values.vasInstructions ?? []) as never;
      if (step === 1 && clean.ownerId === null) delete clean.ownerId;
      show(await api<TempOrder>(paths.save, { body: { step, data: clean } }));
      setResumed(false);
    });
  const goTo = (target: number) => run(async () => show(await api<TempOrder>(paths.step, { body: { step: target } })));
  const reset = async () => {
    if (!(await showConfirm({ id: 'wizard-reset', content: t('ui.wizard.resetConfirm'), okType: 'danger' }))) return;
    await run(async () => {
      await api(paths.reset, { method: 'POST' });
      setFound([]);
      setSubmitted(null);
      await load();
    });
  };
  const submit = () =>
    run(async () => {
      const answer = await api<{ orderNo: string }>(paths.submit, { method: 'POST' });
      setSubmitted(answer.orderNo);
      await load();
    });

  const search = (text: string) =>
    data.ownerId !== undefined &&
    void api<{ rows: Item[] }>(paths.items, { query: { ownerId: data.ownerId, text } })
      .then((answer) => {
        setFound(answer.rows);
        setKnown((before) => new Map([...before, ...answer.rows.map((item) => [item.id, item] as const)]));
      })
      .catch(() => undefined);
  const addItem = (item: Item) => setLines((before) => (before.some((line) => line.skuId === item.id) ? before : [...before, { skuId: item.id, qty: '1' }]));
  const setQty = (skuId: number, qty: string) => setLines((before) => before.map((line) => (line.skuId === skuId ? { ...line, qty } : line)));

  const vasText = (row: Vas) => row[`desc_${i18n.language}`] ?? row.desc_en ?? row.code;
  const fillFromConsignee = (id: number | null) => {
    const partner = consignees.find((c) => c.id === id);
    if (!partner) return;
    const address = [partner.address1, partner.address2, partner.city, partner.country].filter(Boolean).join(', ');
    const latin = /^[\x20-\x7E]*$/.test(address);
    form.setFieldsValue({ shipToName: partner.name, ...(latin ? { shipToAddressEn: address } : {}), contact: partner.contact_name, phone: partner.phone });
  };

  if (submitted) {
    return (
      <div data-testid="wizard-submitted">
      <Result
        status="success"
        title={t('ui.wizard.submitted', { orderNo: submitted })}
        extra={
          <Button type="primary" data-testid="wizard-new" onClick={() => setSubmitted(null)} autoFocus>
            {t('ui.wizard.title.' + kind)}
          </Button>
        }
      />
      </div>
    );
  }

  const lineRows = lines.map((line) => ({ ...line, item: known.get(line.skuId) }));
  const itemColumns: TableColumnsType<(typeof lineRows)[number]> = [
    { title: t('ui.wizard.field.sku'), render: (_, row) => row.item?.code ?? row.skuId },
    { title: t('ui.wizard.field.description'), render: (_, row) => row.item?.description ?? '' },
  ];
  const nextButton = (
    <Button type="primary" htmlType="submit" loading={busy} data-testid="wizard-next">
      {t('ui.wizard.action.next')}
    </Button>
  );

  return (
    <Card
      title={t(`ui.wizard.title.${kind}`)}
      data-testid={`wizard-${kind}`}
      extra={
        rights.add && (
          <Button danger onClick={() => void reset()} data-testid="wizard-reset">
            {t('ui.wizard.action.reset')}
          </Button>
        )
      }
    >
      {lookOnly && <Alert type="info" showIcon message={t('ui.wizard.viewOnly')} style={{ marginBottom: 16 }} data-testid="wizard-view-only" />}
      <Steps current={step - 1} size="small" items={STEPS.map((n) => ({ title: t(`ui.wizard.step.${n}`) }))} style={{ marginBottom: 24 }} />
      {resumed && <Alert type="info" showIcon message={t('ui.wizard.resumed', { step })} style={{ marginBottom: 16 }} data-testid="wizard-resumed" />}
      <Typography.Title level={5} data-testid="wizard-step">
        {t('ui.wizard.stepOf', { step })} · {t(`ui.wizard.step.${step}`)}
      </Typography.Title>
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => {
          if (!lookOnly) void saveStep(values);
        }}
        style={{ maxWidth: 900 }}
        disabled={busy}
      >
        {step === 1 && (
          <>
            <Form.Item name="ownerId" label={t('ui.wizard.field.owner')} rules={[{ required: true }]}>
              <Select showSearch optionFilterProp="label" data-testid="wizard-owner" options={owners.map((o) => ({ value: o.id, label: `${o.code} · ${o.name}` }))} />
            </Form.Item>
            <Form.Item name="consigneeId" label={t('ui.wizard.field.consignee')}>
              <Select allowClear showSearch optionFilterProp="label" onChange={fillFromConsignee} options={consignees.map((c) => ({ value: c.id, label: `${c.code} · ${c.name}` }))} />
            </Form.Item>
            <Form.Item name="customerOrderNo" label={t('ui.wizard.field.customerOrderNo')}>
              <Input maxLength={50} />
            </Form.Item>
            <Form.Item name="shipToName" label={t('ui.wizard.field.shipToName')} rules={[{ required: true }]}>
              <Input maxLength={200} data-testid="wizard-ship-to-name" />
            </Form.Item>
            <Form.Item name="shipToAddressEn" label={t('ui.wizard.field.shipToAddressEn')}>
              <Input maxLength={500} data-testid="wizard-address-en" />
            </Form.Item>
            <Form.Item name="shipToAddressCn" label={t('ui.wizard.field.shipToAddressCn')}>
              <Input maxLength={500} />
            </Form.Item>
            <Space wrap>
              <Form.Item name="contact" label={t('ui.wizard.field.contact')}>
                <Input maxLength={100} />
              </Form.Item>
              <Form.Item name="phone" label={t('ui.wizard.field.phone')}>
                <Input maxLength={50} />
              </Form.Item>
            </Space>
          </>
        )}
        {step === 2 && (
          <>
            <Input.Search
              placeholder={t('ui.wizard.field.findItem')}
              onSearch={search}
              // Enter here searches; it must not also submit the step.
              onPressEnter={(event) => event.preventDefault()}
              enterButton
              autoFocus
              data-testid="wizard-item-search"
              style={{ maxWidth: 480, marginBottom: 12 }}
            />
            {found.length > 0 && (
              <Table<Item>
                size="small"
                rowKey="id"
                pagination={false}
                dataSource={found}
                data-testid="wizard-found"
                columns={[
                  { title: t('ui.wizard.field.sku'), dataIndex: 'code' },
                  { title: t('ui.wizard.field.description'), dataIndex: 'description' },
                  { title: t('ui.wizard.field.available'), dataIndex: 'available', align: 'right' },
                  {
                    key: 'add',
                    render: (_, item) => (
                      <Button size="small" onClick={() => addItem(item)} data-testid={`wizard-add-${item.code}`}>
                        {t('ui.wizard.action.add')}
                      </Button>
                    ),
                  },
                ]}
                style={{ marginBottom: 16 }}
              />
            )}
            <Table
              size="small"
              rowKey="skuId"
              pagination={false}
              dataSource={lineRows}
              data-testid="wizard-lines"
              locale={{ emptyText: t('ui.wizard.noItems') }}
              columns={[
                ...itemColumns,
                { title: t('ui.wizard.field.available'), align: 'right', render: (_, row) => row.item?.available ?? '' },
                {
                  title: t('ui.wizard.field.qty'),
                  render: (_, row) => (
                    <Space>
                      <InputNumber
                        min="0.0001"
                        step="1"
                        stringMode
                        value={row.qty}
                        onChange={(value) => setQty(row.skuId, value ?? '')}
                        data-testid={`wizard-qty-${row.item?.code ?? row.skuId}`}
                      />
                      {row.item && Number(row.qty) > Number(row.item.available) && <Tag color="warning">{t('ui.wizard.overAvailable', { available: row.item.available })}</Tag>}
                    </Space>
                  ),
                },
                {
                  key: 'remove',
                  render: (_, row) => (
                    <Button size="small" danger onClick={() => setLines((before) => before.filter((line) => line.skuId !== row.skuId))}>
                      {t('ui.wizard.action.remove')}
                    </Button>
                  ),
                },
              ]}
            />
          </>
        )}
        {step === 3 && (
          <>
            <Form.Item name="carrierCode" label={t('ui.wizard.field.courier')} rules={[{ required: true }]}>
              <Select showSearch optionFilterProp="label" data-testid="wizard-courier" options={couriers.map((c) => ({ value: c.code, label: `${c.code} · ${c.name}` }))} />
            </Form.Item>
            <Form.Item name="vasInstructions" label={t('ui.wizard.field.vasInstructions')}>
              <Checkbox.Group options={vas.map((row) => ({ value: row.code, label: vasText(row) }))} data-testid="wizard-vas" />
            </Form.Item>
            <NoteItem name="instructionText" label={t('ui.wizard.field.instructionText')} />
          </>
        )}
        {step === 4 && (
          <>
            <Form.Item name="requiredShipDate" label={t('ui.wizard.field.requiredShipDate')} rules={[{ required: true }]}>
              <Input type="date" data-testid="wizard-ship-date" style={{ maxWidth: 220 }} />
            </Form.Item>
            <NoteItem name="remark" label={t('ui.wizard.field.remark')} />
          </>
        )}
        {step === 5 && (
          <>
            <Descriptions bordered size="small" column={1} data-testid="wizard-review">
              <Descriptions.Item label={t('ui.wizard.field.owner')}>{owners.find((o) => o.id === data.ownerId)?.name ?? data.ownerId}</Descriptions.Item>
              <Descriptions.Item label={t('ui.wizard.field.shipToName')}>{data.shipToName}</Descriptions.Item>
              <Descriptions.Item label={t('ui.wizard.field.shipToAddressEn')}>{data.shipToAddressEn ?? data.shipToAddressCn}</Descriptions.Item>
              <Descriptions.Item label={t('ui.wizard.field.courier')}>{data.carrierCode}</Descriptions.Item>
              <Descriptions.Item label={t('ui.wizard.field.vasInstructions')}>{(data.vasInstructions ?? []).join(', ')}</Descriptions.Item>
              <Descriptions.Item label={t('ui.wizard.field.requiredShipDate')}>{data.requiredShipDate}</Descriptions.Item>
              <Descriptions.Item label={t('ui.wizard.field.remark')}>{data.remark}</Descriptions.Item>
            </Descriptions>
            <Table
              size="small"
              rowKey="skuId"
              pagination={false}
              dataSource={lineRows}
              style={{ marginTop: 16 }}
              columns={[...itemColumns, { title: t('ui.wizard.field.qty'), dataIndex: 'qty', align: 'right' }]}
            />
          </>
        )}
        {rights.add && (
          <Space style={{ marginTop: 24 }}>
            {step > 1 && (
              <Button onClick={() => void goTo(step - 1)} data-testid="wizard-back">
                {t('ui.wizard.action.back')}
              </Button>
            )}
            {step < 5 ? (
              nextButton
            ) : (
              <Button type="primary" onClick={() => void submit()} loading={busy} data-testid="wizard-submit">
                {t('ui.wizard.action.submit')}
              </Button>
            )}
          </Space>
        )}
      </Form>
    </Card>
  );
}
