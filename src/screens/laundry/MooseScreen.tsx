import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Col, Input, List, Modal, Row, Segmented, Space, Spin, Statistic, Tag, Typography, type InputRef } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { GarmentStatus, LaundryBatch, LaundryCounts, LaundryCustomerInfo, LaundryDeviceSelf, LaundryScanAnswer } from '../../common/laundry-api';
import { KEY_REFUSALS, MooseError, mooseCall, storeDeviceKey, storedDeviceKey } from './moose-client';

/** The four public laundry screens (docs/laundry.md), phone-sized first. */
export type MooseView = 'home' | 'customerInfo' | 'washing' | 'scan';

const STATUS_COLORS: Record<GarmentStatus, string> = { received: 'blue', washing: 'orange', cleaned: 'green', returned: 'default' };

type Outcome = { type: 'success' | 'error'; text: string } | null;

function useMoose() {
  const { t, i18n } = useTranslation();
  const call = useCallback(<T,>(path: string, body: Record<string, unknown> = {}) => mooseCall<T>(path, body, i18n.language), [i18n.language]);
  return { t, call };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function StatusTag({ status }: { status: GarmentStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLORS[status]} data-status={status}>
      {t(`laundry.status.${status}`)}
    </Tag>
  );
}

function OutcomeLine({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return <Alert data-testid={`laundry-${outcome.type}`} type={outcome.type} message={outcome.text} showIcon />;
}

/**
 * A scanner-friendly input: Enter sends, the field empties at once and keeps the focus for the next
 * scan. A scan that arrives while the previous one is still being answered waits in a queue and is
 * sent after it, in order, so a fast scanner never loses a tag.
 */
function ScanInput(props: { testId: string; placeholder: string; onScan: (value: string) => Promise<void>; disabled?: boolean; keep?: boolean }) {
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const ref = useRef<InputRef>(null);
  const queue = useRef<string[]>([]);
  const running = useRef(false);
  const onScan = useRef(props.onScan);
  onScan.current = props.onScan;
  const drain = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      for (let next = queue.current.shift(); next !== undefined; next = queue.current.shift()) {
        await onScan.current(next);
      }
    } finally {
      running.current = false;
      setBusy(false);
      ref.current?.focus();
    }
  };
  const send = () => {
    const text = value.trim();
    if (!text) return;
    if (!props.keep) setValue('');
    queue.current.push(text);
    void drain();
  };
  return (
    <Input.Search
      ref={ref}
      size="large"
      data-testid={props.testId}
      placeholder={props.placeholder}
      value={value}
      disabled={props.disabled}
      // Not antd's `loading`: a Search that is loading ignores Enter, which would drop a scan.
      suffix={busy ? <Spin size="small" /> : <span />}
      autoFocus
      enterButton
      onChange={(event) => setValue(event.target.value)}
      onSearch={send}
    />
  );
}

function HomeView() {
  const { t, call } = useMoose();
  const [counts, setCounts] = useState<LaundryCounts | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  useEffect(() => {
    call<LaundryCounts>('/moose/counts').then(setCounts, (error: unknown) => setOutcome({ type: 'error', text: errorText(error) }));
  }, [call]);
  const items: Array<[keyof LaundryCounts, string]> = [
    ['received', 'laundry.phone.countReceived'],
    ['washing', 'laundry.phone.countWashing'],
    ['cleaned', 'laundry.phone.countCleaned'],
    ['returned', 'laundry.phone.countReturned'],
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <OutcomeLine outcome={outcome} />
      <Row gutter={[8, 8]}>
        {items.map(([key, label]) => (
          <Col span={12} key={key}>
            <Card size="small">
              <Statistic title={t(label)} value={counts?.[key] ?? '-'} valueRender={(node) => <span data-testid={`laundry-count-${key}`}>{node}</span>} />
            </Card>
          </Col>
        ))}
      </Row>
      {(['scan', 'washing', 'customerInfo'] as const).map((view) => (
        <Link key={view} to={`/moose/${view}`}>
          <Button block size="large" data-testid={`laundry-go-${view}`}>
            {t(`laundry.phone.${view}`)}
          </Button>
        </Link>
      ))}
    </Space>
  );
}

function CustomerInfoView() {
  const { t, call } = useMoose();
  const [info, setInfo] = useState<LaundryCustomerInfo | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const show = async (customerCode: string) => {
    try {
      setInfo(await call<LaundryCustomerInfo>('/moose/query', { customerCode }));
      setOutcome(null);
    } catch (error) {
      setInfo(null);
      setOutcome({ type: 'error', text: errorText(error) });
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <ScanInput testId="laundry-customer-code" placeholder={t('laundry.phone.customerCode')} onScan={show} keep />
      <OutcomeLine outcome={outcome} />
      {info && (
        <Card size="small" title={<span data-testid="laundry-customer-name">{info.name}</span>} extra={info.code}>
          <List
            data-testid="laundry-garments"
            locale={{ emptyText: t('laundry.phone.noGarments') }}
            dataSource={info.garments}
            renderItem={(garment) => (
              <List.Item data-testid="laundry-garment" data-tag={garment.tag} extra={<StatusTag status={garment.status} />}>
                {garment.tag}
              </List.Item>
            )}
          />
        </Card>
      )}
    </Space>
  );
}

function WashingView() {
  const { t, call } = useMoose();
  const [batches, setBatches] = useState<LaundryBatch[]>([]);
  const [current, setCurrent] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [confirming, setConfirming] = useState(false);
  const load = useCallback(async () => {
    try {
      const { rows } = await call<{ rows: LaundryBatch[] }>('/moose/batches');
      setBatches(rows);
      setCurrent((id) => (id !== null && rows.some((b) => b.id === id) ? id : (rows[rows.length - 1]?.id ?? null)));
    } catch (error) {
      setOutcome({ type: 'error', text: errorText(error) });
    }
  }, [call]);
  useEffect(() => void load(), [load]);
  const batch = batches.find((b) => b.id === current);
  const start = async () => {
    try {
      const started = await call<LaundryBatch>('/moose/batch/start');
      setBatches((rows) => [...rows, started]);
      setCurrent(started.id);
      setOutcome(null);
    } catch (error) {
      setOutcome({ type: 'error', text: errorText(error) });
    }
  };
  const add = async (tag: string) => {
    if (!batch) return;
    try {
      await call<LaundryScanAnswer>('/moose/batch/add', { batchId: batch.id, tag });
      setOutcome({ type: 'success', text: t('laundry.phone.added', { tag, id: batch.id }) });
      await load();
    } catch (error) {
      setOutcome({ type: 'error', text: errorText(error) });
    }
  };
  const finish = async () => {
    if (!batch) return;
    setConfirming(false);
    try {
      const done = await call<{ batchId: number; cleaned: number }>('/moose/clean', { batchId: batch.id });
      setOutcome({ type: 'success', text: t('laundry.phone.finished', { id: done.batchId, count: done.cleaned }) });
      await load();
    } catch (error) {
      setOutcome({ type: 'error', text: errorText(error) });
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Button block size="large" data-testid="laundry-start-batch" onClick={() => void start()}>
        {t('laundry.phone.startBatch')}
      </Button>
      {batches.length === 0 ? (
        <Typography.Text type="secondary">{t('laundry.phone.noBatch')}</Typography.Text>
      ) : (
        <Segmented
          block
          data-testid="laundry-batches"
          value={current ?? undefined}
          options={batches.map((b) => ({ value: b.id, label: t('laundry.phone.batch', { id: b.id }) }))}
          onChange={(value) => setCurrent(Number(value))}
        />
      )}
      {batch && (
        <Card size="small" title={<span data-testid="laundry-batch-title">{t('laundry.phone.batch', { id: batch.id })}</span>} extra={t('laundry.phone.batchCount', { count: batch.tags.length })}>
          <Space direction="vertical" style={{ width: '100%' }}>
            <ScanInput testId="laundry-batch-tag" placeholder={t('laundry.phone.tag')} onScan={add} />
            <div data-testid="laundry-batch-tags">
              {batch.tags.map((tag) => (
                <Tag key={tag}>{tag}</Tag>
              ))}
            </div>
            <Button block size="large" type="primary" data-testid="laundry-finish" disabled={batch.tags.length === 0} onClick={() => setConfirming(true)}>
              {t('laundry.phone.finish')}
            </Button>
          </Space>
        </Card>
      )}
      <OutcomeLine outcome={outcome} />
      <Modal
        open={confirming && Boolean(batch)}
        onOk={() => void finish()}
        onCancel={() => setConfirming(false)}
        okText={t('laundry.phone.ok')}
        cancelText={t('laundry.phone.cancel')}
        okButtonProps={{ id: 'laundry-finish-ok' }}
      >
        {batch && t('laundry.phone.finishConfirm', { id: batch.id, count: batch.tags.length })}
      </Modal>
    </Space>
  );
}

function ScanView() {
  const { t, call } = useMoose();
  const [mode, setMode] = useState<'receive' | 'return'>('receive');
  const [customerCode, setCustomerCode] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [done, setDone] = useState<LaundryScanAnswer[]>([]);
  const scan = async (tag: string) => {
    try {
      const answer = await call<LaundryScanAnswer>(mode === 'receive' ? '/moose/receive' : '/moose/return', { customerCode: customerCode.trim(), tag });
      setOutcome({ type: 'success', text: t(mode === 'receive' ? 'laundry.phone.received' : 'laundry.phone.returned', { tag, name: answer.customerName }) });
      setDone((rows) => [answer, ...rows].slice(0, 50));
    } catch (error) {
      setOutcome({ type: 'error', text: errorText(error) });
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Segmented
        block
        size="large"
        data-testid="laundry-scan-mode"
        value={mode}
        options={[
          { value: 'receive', label: t('laundry.phone.receive') },
          { value: 'return', label: t('laundry.phone.return') },
        ]}
        onChange={(value) => setMode(value as 'receive' | 'return')}
      />
      <Input size="large" data-testid="laundry-scan-customer" placeholder={t('laundry.phone.customerCode')} value={customerCode} onChange={(event) => setCustomerCode(event.target.value)} />
      <ScanInput testId="laundry-scan-tag" placeholder={t('laundry.phone.tag')} onScan={scan} disabled={customerCode.trim() === ''} />
      <OutcomeLine outcome={outcome} />
      <List
        size="small"
        dataSource={done}
        renderItem={(row) => (
          <List.Item data-testid="laundry-scanned" data-tag={row.tag} extra={<StatusTag status={row.status} />}>
            {row.tag} · {row.customerName}
          </List.Item>
        )}
      />
    </Space>
  );
}

/** First use of a device: the key the administrator issued is typed or scanned once, checked, and kept. */
function KeyEntry({ problem, onKey }: { problem: string | null; onKey: (key: string, name: string) => void }) {
  const { t, i18n } = useTranslation();
  const [error, setError] = useState<string | null>(problem);
  const check = async (key: string) => {
    try {
      const self = await mooseCall<LaundryDeviceSelf>('/moose/device', {}, i18n.language, key);
      storeDeviceKey(key);
      onKey(key, self.name);
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="laundry-key-entry">
      <Typography.Text>{t('laundry.phone.keyPrompt')}</Typography.Text>
      <ScanInput testId="laundry-key" placeholder="lnd_…" onScan={check} />
      {error && <Alert type="error" data-testid="laundry-key-error" message={error} showIcon />}
    </Space>
  );
}

function Frame({ children, deviceName, onForget }: { children: ReactNode; deviceName: string | null; onForget?: () => void }) {
  const { t } = useTranslation();
  return (
    <div style={{ maxWidth: 520, margin: '0 auto', padding: 12 }} data-testid="laundry-phone">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          <Link to="/moose/home">{t('laundry.phone.title')}</Link>
        </Typography.Title>
        {deviceName && (
          <Space size={4}>
            <Typography.Text type="secondary" data-testid="laundry-device-name">
              {t('laundry.phone.device', { name: deviceName })}
            </Typography.Text>
            {onForget && (
              <Button size="small" type="link" data-testid="laundry-forget-key" onClick={onForget}>
                {t('laundry.phone.forgetKey')}
              </Button>
            )}
          </Space>
        )}
      </Space>
      {children}
    </div>
  );
}

/** A public laundry screen: without a kept key, the key entry; with one, the screen for this device. */
export function MooseScreen({ view }: { view: MooseView }) {
  const { t, call } = useMoose();
  const navigate = useNavigate();
  const [key, setKey] = useState<string | null>(storedDeviceKey);
  const [deviceName, setDeviceName] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!key || deviceName) return;
    call<LaundryDeviceSelf>('/moose/device').then(
      (self) => setDeviceName(self.name),
      (error: unknown) => {
        // A revoked or unknown key is forgotten: the device asks for a new one.
        if (error instanceof MooseError && KEY_REFUSALS.includes(error.code)) {
          storeDeviceKey(null);
          setKey(null);
        }
        setProblem(errorText(error));
      },
    );
  }, [key, deviceName, call]);
  if (!key) {
    return (
      <Frame deviceName={null}>
        <KeyEntry
          problem={problem}
          onKey={(newKey, name) => {
            setProblem(null);
            setDeviceName(name);
            setKey(newKey);
          }}
        />
      </Frame>
    );
  }
  const forget = () =>
    Modal.confirm({
      content: t('laundry.phone.forgetConfirm'),
      okText: t('laundry.phone.ok'),
      cancelText: t('laundry.phone.cancel'),
      onOk: () => {
        storeDeviceKey(null);
        setDeviceName(null);
        setKey(null);
        void navigate('/moose/home');
      },
    });
  return (
    <Frame deviceName={deviceName} onForget={forget}>
      {problem && <Alert type="error" message={problem} showIcon />}
      {view !== 'home' && (
        <Link to="/moose/home">
          <Button type="link" style={{ paddingLeft: 0 }} data-testid="laundry-go-home">
            ← {t('laundry.phone.home')}
          </Button>
        </Link>
      )}
      <Typography.Title level={5} style={{ marginTop: 0 }} data-testid={`laundry-view-${view}`}>
        {t(`laundry.phone.${view}`)}
      </Typography.Title>
      {view === 'home' && <HomeView />}
      {view === 'customerInfo' && <CustomerInfoView />}
      {view === 'washing' && <WashingView />}
      {view === 'scan' && <ScanView />}
    </Frame>
  );
}

export default MooseScreen;
