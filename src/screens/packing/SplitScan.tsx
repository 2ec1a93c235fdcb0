import { useEffect, useState } from 'react';
import { Button, Card, Form, InputNumber, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/public';
import { beep, FeedbackLine, HandheldFrame, ScanField, useFeedback } from '../inbound/handheld';

/** What the split calls answer (`/pack/split/*`). */
interface SplitCarton {
  id: number;
  cartonNo: string;
  status: string;
  lines: Array<{ skuId: number; skuCode: string; lotNo: string; qty: string }>;
  total: string;
}
interface SplitAnswer {
  order: { id: number; orderNo: string; status: string };
  source: SplitCarton;
  target: SplitCarton | null;
}
interface CloseValues {
  grossWeight: number;
  netWeight: number;
  weightUom: string;
}

/**
 * Split scan (handheld, 360x640): scan a packed carton (open or closed), then scan the items to take
 * out of it; the first item opens a new carton of the same order and each scan moves its qty there.
 * The new carton is closed with its weights. Enter submits each scan; Escape steps back to the
 * carton scan.
 */
export default function SplitScan() {
  const { t } = useTranslation();
  const { feedback, setFeedback, tell, fail } = useFeedback();
  const [state, setState] = useState<SplitAnswer | null>(null);
  const [qty, setQty] = useState<number>(1);
  const [closing, setClosing] = useState(false);
  const [uoms, setUoms] = useState<Array<{ code: string; description: string }>>([]);
  const [form] = Form.useForm<CloseValues>();

  useEffect(() => {
    if (!closing || uoms.length > 0) return;
    void api<{ rows: Array<{ code: string; description: string }> }>('/pack/scan/wgtUom', { quiet: true })
      .then((answer) => {
        setUoms(answer.rows);
        if (answer.rows[0]) form.setFieldValue('weightUom', answer.rows[0].code);
      })
      .catch((error: unknown) => fail(error));
  }, [closing, uoms.length, form, fail]);

  const startOver = () => {
    setState(null);
    setClosing(false);
    setQty(1);
    setFeedback(null);
  };

  const scanSource = async (scanned: string) => {
    try {
      const answer = await api<SplitAnswer>('/pack/split/source', { body: { cartonNo: scanned.trim() }, quiet: true });
      setFeedback(null);
      beep('success');
      setState(answer);
    } catch (error) {
      fail(error);
    }
  };

  const scanItem = async (scanned: string) => {
    if (!state) return;
    try {
      const answer = await api<SplitAnswer>('/pack/split/scan', {
        body: { sourceCartonId: state.source.id, targetCartonId: state.target?.id ?? null, barcode: scanned.trim(), qty: String(qty) },
        quiet: true,
      });
      setState(answer);
      setQty(1);
      tell('success', t('pack.split.moved', { qty, sku: scanned.trim(), cartonNo: answer.target?.cartonNo ?? '' }));
    } catch (error) {
      fail(error);
    }
  };

  const close = async (values: CloseValues) => {
    if (!state?.target) return;
    try {
      await api('/pack/scan/close', {
        body: { cartonId: state.target.id, grossWeight: String(values.grossWeight), netWeight: String(values.netWeight), weightUom: values.weightUom },
        quiet: true,
      });
      const cartonNo = state.target.cartonNo;
      setState({ ...state, target: { ...state.target, status: 'closed' } });
      setClosing(false);
      form.resetFields();
      tell('success', t('pack.split.closed', { cartonNo }));
    } catch (error) {
      fail(error);
    }
  };

  const cartonCard = (carton: SplitCarton, title: string, testId: string) => (
    <Card
      size="small"
      data-testid={testId}
      data-carton={carton.cartonNo}
      data-total={carton.total}
      title={
        <Space wrap>
          {title}
          <Typography.Text strong>{carton.cartonNo}</Typography.Text>
          <Tag color={carton.status === 'open' ? 'green' : undefined}>{t(`pack.split.status.${carton.status}`)}</Tag>
        </Space>
      }
    >
      <Table
        size="small"
        pagination={false}
        rowKey={(l) => `${l.skuId}/${l.lotNo}`}
        dataSource={carton.lines}
        columns={[
          { key: 'sku', title: t('pack.split.sku'), dataIndex: 'skuCode' },
          { key: 'lot', title: t('pack.split.lot'), dataIndex: 'lotNo' },
          { key: 'qty', title: t('pack.split.qty'), dataIndex: 'qty', align: 'right' },
        ]}
        summary={() => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} colSpan={2}>
              {t('pack.split.total')}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={1} align="right">
              <span data-testid={`${testId}-total`}>{carton.total}</span>
            </Table.Summary.Cell>
          </Table.Summary.Row>
        )}
      />
    </Card>
  );

  const targetOpen = state?.target?.status === 'open';
  return (
    <HandheldFrame title={t('pack.split.title')} testId="split-scan">
      {!state ? (
        <>
          <ScanField label={t('pack.split.sourceScan')} testId="split-source-scan" onScan={(text) => void scanSource(text)} />
          <FeedbackLine feedback={feedback} />
        </>
      ) : (
        <>
          <Typography.Text>
            {t('pack.split.order')}: <strong data-testid="split-order">{state.order.orderNo}</strong>
          </Typography.Text>
          {!closing && state.target?.status !== 'closed' && (
            <>
              <label>
                <div style={{ fontSize: 16, marginBottom: 4 }}>{t('pack.split.qty')}</div>
                <InputNumber data-testid="split-qty" size="large" min={1} precision={0} value={qty} onChange={(value) => setQty(value ?? 1)}
                  // Enter hands the focus back to the scan field.
                  onKeyDown={(event) => {
                    if (event.key === 'Enter') (event.target as HTMLElement).blur();
                  }}
                  style={{ width: '100%' }}
                />
              </label>
              <ScanField label={t('pack.split.itemScan')} testId="split-item-scan" onScan={(text) => void scanItem(text)} onEscape={startOver} />
            </>
          )}
          <FeedbackLine feedback={feedback} />
          {cartonCard(state.source, t('pack.split.source'), 'split-source')}
          {state.target ? cartonCard(state.target, t('pack.split.target'), 'split-target') : <Typography.Text type="secondary">{t('pack.split.noTarget')}</Typography.Text>}
          {targetOpen && !closing && (
            <Button size="large" type="primary" data-testid="split-close" onClick={() => setClosing(true)}>
              {t('pack.split.close')}
            </Button>
          )}
          {closing && (
            <Form<CloseValues>
              form={form}
              layout="vertical"
              data-testid="split-close-form"
              onFinish={(values) => void close(values)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') setClosing(false);
              }}
            >
              <Form.Item name="grossWeight" label={t('pack.split.grossWeight')} rules={[{ required: true }]}>
                <InputNumber data-testid="split-gross" size="large" min={0.0001} style={{ width: '100%' }} autoFocus />
              </Form.Item>
              <Form.Item name="netWeight" label={t('pack.split.netWeight')} rules={[{ required: true }]}>
                <InputNumber data-testid="split-net" size="large" min={0.0001} style={{ width: '100%' }} />
              </Form.Item>
              <Form.Item name="weightUom" label={t('pack.split.weightUom')} rules={[{ required: true }]}>
                <Select data-testid="split-uom" size="large" options={uoms.map((u) => ({ value: u.code, label: `${u.code} ${u.description}` }))} />
              </Form.Item>
              <Space wrap>
                <Button size="large" type="primary" htmlType="submit" data-testid="split-close-ok">
                  {t('pack.split.close')}
                </Button>
                <Button size="large" onClick={() => setClosing(false)}>
                  {t('pack.split.back')}
                </Button>
              </Space>
            </Form>
          )}
          <Button size="large" data-testid="split-another" onClick={startOver}>
            {t('pack.split.another')}
          </Button>
        </>
      )}
    </HandheldFrame>
  );
}
