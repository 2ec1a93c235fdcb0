import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Segmented, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, ApiError, showConfirm, useRights } from '../../app/public';
import { BIG, FeedbackLine, ScanField, useScanCalls } from '../inbound/handheld';
import { sendScan } from '../inbound/offline-queue';
import { OfflineQueueView, useScanQueue } from '../inbound/OfflineQueue';
import { DeliverDialog } from './DeliverDialog';
import { LoadHeaderForm } from './LoadHeaderForm';
import type { HeaderValues, LoadHeader, LoadTable, ScanAnswer, WaveCarton } from '../../common/loading-api';
import { useNarrow } from '../shared/screen-hooks';
import { ScanScreenLayout } from '../shared/ScanScreenLayout';

/** Where the flow is: choosing a load, editing its header, scanning the wave (by wave), scanning cartons. Escape steps back. */
type Step = 'load' | 'header' | 'wave' | 'scan';
type Mode = 'carton' | 'wave';

const STATUS_COLORS: Record<string, string> = { open: 'green', loaded: 'blue', shipped: 'default' };

/**
 * /loading: loading and shipping. Choose a load (scan its number or tap it) or create one with its
 * header (container, seal, vessel, ...); scan carton numbers, carton SSCCs or pallet SSCCs onto it,
 * or, by wave, scan the wave id first and then only its cartons; import a file of SSCCs (every
 * failing row is listed, nothing is loaded then); take an order off the load; ship the load; mark
 * shipped orders delivered with the receiver's name and a photo. The scan field keeps the focus,
 * Enter submits, Escape steps back, and each outcome beeps. Below 600 px the screen is one column.
 * A carton scan goes through the offline queue (docs/handheld.md): without a connection it waits
 * with its idempotency key, listed as waiting under the scan field, and the operator keeps
 * scanning; the load's table is read again when the waiting scans apply.
 */
export default function LoadingScreen() {
  const { t } = useTranslation();
  const rights = useRights('loading.load');
  const narrow = useNarrow();
  const [step, setStep] = useState<Step>('load');
  const [mode, setMode] = useState<Mode>('carton');
  const [waveNo, setWaveNo] = useState<string | null>(null);
  const [loads, setLoads] = useState<LoadHeader[]>([]);
  const [table, setTable] = useState<LoadTable | null>(null);
  const [waveCartons, setWaveCartons] = useState<WaveCarton[]>([]);
  const [importErrors, setImportErrors] = useState<Array<{ field: string; message: string }>>([]);
  const [delivering, setDelivering] = useState<{ soId: number; orderNo: string } | null>(null);
  const { feedback, setFeedback, busy, tell, run } = useScanCalls();
  const fileInput = useRef<HTMLInputElement>(null);
  const load = table?.load ?? null;
  // What a replay of waiting scans refreshes: the load and wave on screen now.
  const shown = useRef<{ loadId: number | null; waveNo: string | null }>({ loadId: null, waveNo: null });
  shown.current = { loadId: load?.id ?? null, waveNo: mode === 'wave' ? waveNo : null };
  const queue = useScanQueue(
    useCallback(async () => {
      const { loadId, waveNo: wave } = shown.current;
      try {
        if (loadId !== null) setTable(await api<LoadTable>('/loading/table', { body: { loadId }, quiet: true }));
        if (wave) setWaveCartons((await api<{ rows: WaveCarton[] }>('/loading/searchWaveCarton', { body: { waveNo: wave }, quiet: true })).rows);
      } catch {
        // The connection went again: the next replay reads them.
      }
    }, []),
  );

  const refreshLoads = useCallback(async () => {
    const answer = await api<{ rows: LoadHeader[] }>('/loading/list', { body: {}, quiet: true }).catch(() => undefined);
    if (answer) setLoads(answer.rows);
  }, []);

  useEffect(() => {
    if (rights.view) void refreshLoads();
  }, [rights.view, refreshLoads]);

  const refreshTable = async (loadId: number) => {
    const answer = await api<LoadTable>('/loading/table', { body: { loadId }, quiet: true });
    setTable(answer);
    return answer;
  };

  const refreshWave = async (wave: string) => {
    const answer = await api<{ rows: WaveCarton[] }>('/loading/searchWaveCarton', { body: { waveNo: wave }, quiet: true });
    setWaveCartons(answer.rows);
  };

  const choose = async (which: { loadId: number } | { loadNo: string }) => {
    const found = await run(async () => {
      const header = await api<LoadHeader>('/loading/getLoadByUid', { body: which, quiet: true });
      return refreshTable(header.id);
    });
    if (!found) return;
    setImportErrors([]);
    setStep(mode === 'wave' && !waveNo ? 'wave' : 'scan');
    tell('success', `${t('loading.screen.load')} ${found.load.loadNo}`);
  };

  const saveHeader = async (values: HeaderValues) => {
    const saved = await run(() => (load ? api<LoadHeader>('/loading/save', { body: { loadId: load.id, ...values }, quiet: true }) : api<LoadHeader>('/loading/create', { body: values, quiet: true })));
    if (!saved) return;
    await refreshTable(saved.id);
    void refreshLoads();
    tell('success', t(load ? 'loading.screen.saved' : 'loading.screen.created', { loadNo: saved.loadNo }));
    setStep(mode === 'wave' && !waveNo ? 'wave' : 'scan');
  };

  const scan = async (text: string) => {
    if (!load) return;
    const code = text.trim();
    const body = mode === 'wave' && waveNo ? { loadId: load.id, waveNo, code } : { loadId: load.id, code };
    const outcome = await run(() =>
      sendScan<ScanAnswer>({ flow: 'load', label: `${load.loadNo} · ${code}`, path: mode === 'wave' && waveNo ? '/loading/scanByWave' : '/loading/scan', body }),
    );
    if (!outcome) return;
    if (outcome.queued) return tell('warning', t('inb.offline.stored'));
    const answer = outcome.answer;
    await refreshTable(load.id);
    if (mode === 'wave' && waveNo) await refreshWave(waveNo);
    const statuses = answer.orders.map((o) => `${o.orderNo}: ${t(`outbound.status.${o.status}`)}`).join(', ');
    tell('success', `${t('loading.screen.loadedCartons', { count: answer.loaded.length, cartons: answer.loaded.map((c) => c.cartonNo).join(', ') })} (${statuses})`);
  };

  const scanWave = async (text: string) => {
    const wave = text.trim();
    const ok = await run(() => refreshWave(wave).then(() => true));
    if (!ok) return;
    setWaveNo(wave);
    setStep('scan');
    tell('success', t('loading.screen.wave', { waveNo: wave }));
  };

  const back = () => {
    setFeedback(null);
    if (step === 'scan' && mode === 'wave') {
      setWaveNo(null);
      setWaveCartons([]);
      setStep('wave');
    } else if (step === 'header' && load) setStep(mode === 'wave' && !waveNo ? 'wave' : 'scan');
    else {
      setTable(null);
      setImportErrors([]);
      setStep('load');
      void refreshLoads();
    }
  };

  const removeOrder = async (soId: number, orderNo: string, cartons: number) => {
    if (!load) return;
    const ok = await showConfirm({ id: 'loading-remove-confirm', content: t('loading.screen.removeAsk', { orderNo, loadNo: load.loadNo, count: cartons }), okText: t('loading.screen.remove'), okType: 'danger' });
    if (!ok) return;
    const answer = await run(() => api<ScanAnswer>('/loading/removeOrder', { body: { loadId: load.id, soId }, quiet: true }));
    if (!answer) return;
    await refreshTable(load.id);
    tell('warning', t('loading.screen.removed', { orderNo, status: t(`outbound.status.${answer.orders[0]?.status ?? ''}`) }));
  };

  const shipConfirm = async () => {
    if (!load) return;
    const ok = await showConfirm({ id: 'loading-ship-confirm', content: t('loading.screen.shipAsk', { loadNo: load.loadNo, count: load.loadedCartonQty }), okText: t('loading.screen.ship') });
    if (!ok) return;
    const answer = await run(() => api<{ load: LoadHeader }>('/loading/shipConfirm', { body: { loadId: load.id }, quiet: true }));
    if (!answer) return;
    await refreshTable(load.id);
    void refreshLoads();
    tell('success', t('loading.screen.shipped', { loadNo: load.loadNo }));
  };

  const setOpen = async (open: boolean) => {
    if (!load) return;
    const answer = await run(() => api<LoadHeader>(open ? '/loading/reopen' : '/loading/close', { body: { loadId: load.id }, quiet: true }));
    if (!answer) return;
    await refreshTable(load.id);
    tell('success', `${answer.loadNo}: ${t(`loading.screen.loadStatus.${answer.status}`)}`);
  };

  const importFile = async (file: File) => {
    if (!load) return;
    const form = new FormData();
    form.append('loadId', String(load.id));
    form.append('file', file);
    setImportErrors([]);
    await run(
      async () => {
        const answer = await api<ScanAnswer & { rows: number }>('/loading/importSscc', { body: form, quiet: true });
        await refreshTable(load.id);
        tell('success', t('loading.screen.imported', { rows: answer.rows }));
      },
      (error) => {
        if (error instanceof ApiError && error.body.details) setImportErrors(error.body.details.map((d) => ({ field: d.field, message: d.message ?? d.code })));
      },
    );
    if (fileInput.current) fileInput.current.value = '';
  };

  const deliver = async (values: { deliveredAt: string; receiverName: string; photo: File | null }) => {
    if (!delivering || !load) return;
    const done = await run(async () => {
      await api('/loading/deliver', { body: { soId: delivering.soId, deliveredAt: values.deliveredAt, receiverName: values.receiverName }, quiet: true });
      if (values.photo) {
        const form = new FormData();
        form.append('soId', String(delivering.soId));
        form.append('photo', values.photo);
        await api('/loading/deliver/photo', { body: form, quiet: true });
      }
      return true;
    });
    if (!done) return;
    tell('success', t('loading.screen.delivered', { orderNo: delivering.orderNo }));
    setDelivering(null);
    await refreshTable(load.id);
  };

  // Escape steps back from anywhere but a text field (the scan field steps back itself) and an open dialog.
  const backRef = useRef(back);
  backRef.current = back;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || document.querySelector('.ant-modal-wrap')) return;
      const target = event.target;
      if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
      backRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const editable = rights.edit && load !== null && load.status !== 'shipped';
  const flow = (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      {!rights.edit && rights.view && <Alert type="info" showIcon message={t('loading.screen.viewOnly')} />}
      <Segmented
        data-testid="loading-mode"
        block
        value={mode}
        options={[
          { value: 'carton', label: t('loading.screen.byCarton') },
          { value: 'wave', label: t('loading.screen.byWave') },
        ]}
        onChange={(value) => {
          setMode(value as Mode);
          setWaveNo(null);
          setWaveCartons([]);
          if (load && step !== 'header') setStep(value === 'wave' ? 'wave' : 'scan');
        }}
      />
      {step === 'load' && (
        <>
          <ScanField key="load" testId="loading-scan-load" label={t('loading.screen.scanLoad')} disabled={busy} onEscape={back} onScan={(text) => void choose({ loadNo: text.trim() })} />
          {rights.edit && (
            <Button style={BIG} type="primary" data-testid="loading-new" onClick={() => setStep('header')}>
              {t('loading.screen.newLoad')}
            </Button>
          )}
          <div data-testid="loading-load-list" style={{ display: 'grid', gridTemplateColumns: narrow ? '1fr' : '1fr 1fr', gap: 8 }}>
            {loads.map((row) => (
              <Button key={row.id} style={{ ...BIG, height: 'auto', textAlign: 'left' }} data-testid={`loading-load-${row.loadNo}`} onClick={() => void choose({ loadId: row.id })}>
                <strong>{row.loadNo}</strong> {row.containerNo ?? ''} <Tag color={STATUS_COLORS[row.status]}>{t(`loading.screen.loadStatus.${row.status}`)}</Tag> {row.loadedCartonQty}
              </Button>
            ))}
          </div>
        </>
      )}
      {step === 'header' && <LoadHeaderForm load={load} busy={busy} readOnly={!rights.edit || load?.status === 'shipped'} narrow={narrow} onSave={(values) => void saveHeader(values)} onCancel={back} />}
      {load && step !== 'header' && (
        <div data-testid="loading-current" data-status={load.status} style={{ fontSize: 18 }}>
          {t('loading.screen.load')}: <strong data-testid="loading-current-no">{load.loadNo}</strong> <Tag color={STATUS_COLORS[load.status]}>{t(`loading.screen.loadStatus.${load.status}`)}</Tag>
          <div style={{ fontSize: 14 }}>
            {[load.containerNo, load.sealNo, load.vessel, load.voyage].filter(Boolean).join(' · ')} · {t('loading.field.loadedCartonQty')}: <strong data-testid="loading-carton-qty">{load.loadedCartonQty}</strong>
          </div>
        </div>
      )}
      {step === 'wave' && <ScanField key="wave" testId="loading-scan-wave" label={t('loading.screen.scanWave')} disabled={busy} onEscape={back} onScan={(text) => void scanWave(text)} />}
      {step === 'scan' && load && (
        <>
          {mode === 'wave' && waveNo && <Typography.Text data-testid="loading-wave">{t('loading.screen.wave', { waveNo })}</Typography.Text>}
          <ScanField key={`scan-${load.id}-${waveNo ?? ''}`} testId="loading-scan" label={t('loading.screen.scanCode')} disabled={busy || !editable || load.status !== 'open'} onEscape={back} onScan={(text) => void scan(text)} />
        </>
      )}
      <FeedbackLine feedback={feedback} />
      <OfflineQueueView state={queue} showWaiting="load" />
      {importErrors.length > 0 && (
        <Alert
          type="error"
          data-testid="loading-import-errors"
          message={t('loading.screen.importErrors')}
          description={
            <ul style={{ margin: 0, paddingLeft: 16 }}>
              {importErrors.map((e) => (
                <li key={e.field}>
                  {e.field}: {e.message}
                </li>
              ))}
            </ul>
          }
        />
      )}
      {load && step !== 'header' && (
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
          <Button style={BIG} data-testid="loading-edit-header" onClick={() => setStep('header')}>
            {t('loading.screen.load')}…
          </Button>
          {editable && (
            <>
              <Button style={BIG} data-testid="loading-import" disabled={busy || load.status !== 'open'} onClick={() => fileInput.current?.click()}>
                {t('loading.screen.import')}
              </Button>
              {load.status === 'open' ? (
                <Button style={BIG} data-testid="loading-close" disabled={busy || load.loadedCartonQty === 0} onClick={() => void setOpen(false)}>
                  {t('loading.screen.closeLoad')}
                </Button>
              ) : (
                <Button style={BIG} data-testid="loading-reopen" disabled={busy} onClick={() => void setOpen(true)}>
                  {t('loading.screen.reopen')}
                </Button>
              )}
              <Button style={BIG} type="primary" data-testid="loading-ship" disabled={busy || load.loadedCartonQty === 0} onClick={() => void shipConfirm()}>
                {t('loading.screen.ship')}
              </Button>
            </>
          )}
          <Button style={BIG} data-testid="loading-back" onClick={back}>
            {t('loading.screen.back')} [Esc]
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept=".csv,.txt,.xlsx"
            data-testid="loading-import-file"
            style={{ display: 'none' }}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void importFile(file);
            }}
          />
        </div>
      )}
    </Space>
  );

  const details = table && step !== 'header' && (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('loading.screen.orders', { count: table.orders.length })}
      </Typography.Title>
      <Table
        data-testid="loading-orders"
        size="small"
        rowKey="soId"
        pagination={false}
        dataSource={table.orders}
        scroll={narrow ? { x: true } : undefined}
        columns={[
          { title: t('loading.screen.orderNo'), dataIndex: 'orderNo' },
          { title: t('loading.screen.status'), dataIndex: 'status', render: (status: string) => <span data-testid="loading-order-status">{t(`outbound.status.${status}`)}</span> },
          { title: t('loading.screen.cartonNo'), dataIndex: 'cartons' },
          { title: t('loading.screen.qty'), dataIndex: 'qty' },
          {
            title: '',
            key: 'actions',
            render: (_: unknown, row: LoadTable['orders'][number]) => (
              <Space>
                {editable && (
                  <Button size="small" danger data-testid={`loading-remove-${row.orderNo}`} onClick={() => void removeOrder(row.soId, row.orderNo, row.cartons)}>
                    {t('loading.screen.remove')}
                  </Button>
                )}
                {rights.edit && row.status === 'shipped' && (
                  <Button size="small" type="primary" data-testid={`loading-deliver-${row.orderNo}`} onClick={() => setDelivering({ soId: row.soId, orderNo: row.orderNo })}>
                    {t('loading.screen.deliver')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('loading.screen.cartons', { count: table.cartons.length })}
      </Typography.Title>
      <Table
        data-testid="loading-cartons"
        size="small"
        rowKey="cartonId"
        pagination={table.cartons.length > 50 ? { pageSize: 50 } : false}
        dataSource={table.cartons}
        locale={{ emptyText: t('loading.screen.noCartons') }}
        scroll={narrow ? { x: true } : undefined}
        columns={[
          { title: t('loading.screen.cartonNo'), dataIndex: 'cartonNo' },
          { title: t('loading.screen.sscc'), dataIndex: 'sscc' },
          { title: t('loading.screen.pallet'), dataIndex: 'palletNo' },
          { title: t('loading.screen.orderNo'), dataIndex: 'orderNo' },
          { title: t('loading.screen.qty'), dataIndex: 'qty' },
        ]}
      />
      {mode === 'wave' && waveNo && (
        <>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t('loading.screen.waveCartons', { count: waveCartons.length })}
          </Typography.Title>
          <Table
            data-testid="loading-wave-cartons"
            size="small"
            rowKey="cartonId"
            pagination={false}
            dataSource={waveCartons}
            scroll={narrow ? { x: true } : undefined}
            columns={[
              { title: t('loading.screen.cartonNo'), dataIndex: 'cartonNo' },
              { title: t('loading.screen.sscc'), dataIndex: 'sscc' },
              { title: t('loading.screen.orderNo'), dataIndex: 'orderNo' },
              { title: t('loading.screen.onLoad'), dataIndex: 'loadNo', render: (loadNo: string | null) => loadNo ?? '—' },
            ]}
          />
        </>
      )}
    </Space>
  );

  return (
    <ScanScreenLayout testId="loading-screen" title={t('loading.screen.title')} narrow={narrow} stacked={step === 'header'} flow={flow} details={details}>
      {delivering && <DeliverDialog orderNo={delivering.orderNo} busy={busy} onDeliver={(values) => void deliver(values)} onCancel={() => setDelivering(null)} />}
    </ScanScreenLayout>
  );
}
