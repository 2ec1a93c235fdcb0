import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CfsCarton, CfsContainer, CfsOrderStatus, CfsPallet, CfsScanInAnswer, CfsScanLoadAnswer, CfsScanPackAnswer } from '../../common/cfs-api';
import { api, useRights } from '../../app/public';
import { BIG, FeedbackLine, HandheldFrame, useScanCalls, type Feedback } from '../inbound/handheld';
import { PackScanField } from '../packing/PackScanField';

/** A big target that wraps its caption instead of growing past the handheld's width. */
const TARGET = { ...BIG, height: 'auto', whiteSpace: 'normal', overflowWrap: 'anywhere' } as const;
/** The handheld's key for a new pallet, as on the pallet screen. */
const KEY_NEW = 'F4';

function CartonList({ cartons, testId }: { cartons: CfsCarton[]; testId: string }) {
  const { t } = useTranslation();
  return (
    <div data-testid={testId}>
      <Typography.Text strong>{t('cfs.scan.cartons', { count: cartons.length })}</Typography.Text>
      {cartons.map((c) => (
        <div key={c.id} data-testid={`cfs-carton-${c.code}`} data-status={c.status} style={{ fontSize: 16, padding: '6px 0', borderBottom: '1px solid #eee' }}>
          <strong>{c.code}</strong> <Tag>{t(`cfs.cartonStatus.${c.status}`)}</Tag> <span style={{ fontSize: 12, color: '#666' }}>{c.orderNo}</span>
        </div>
      ))}
    </div>
  );
}

/** Back to the first scan of a tab, as Esc in the scan field. */
function BackButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button style={TARGET} data-testid="cfs-back" onClick={onClick}>
      {t('cfs.scan.back')} [Esc]
    </Button>
  );
}

/**
 * The foot of a scan tab: the feedback line, then, once the first scan found what the tab works
 * on, the back button (beside the tab's own `buttons` where it has them) and the cartons.
 */
function ScanFoot({ feedback, found, onBack, buttons, cartons }: { feedback: Feedback | null; found: boolean; onBack: () => void; buttons?: ReactNode; cartons: CfsCarton[] }) {
  const back = found && <BackButton onClick={onBack} />;
  return (
    <>
      <FeedbackLine feedback={feedback} />
      {buttons === undefined ? (
        back
      ) : (
        <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: 8 }}>
          {buttons}
          {back}
        </div>
      )}
      {found && <CartonList cartons={cartons} testId="cfs-cartons" />}
    </>
  );
}

function OrderLine({ order }: { order: CfsOrderStatus }) {
  const { t } = useTranslation();
  return (
    <div data-testid="cfs-order" data-status={order.status} style={{ fontSize: 18 }}>
      <strong>{order.orderNo}</strong> <Tag>{order.status}</Tag>
      <div style={{ fontSize: 14, color: '#555' }}>{t('cfs.scan.orderCounts', order.cartons)}</div>
    </div>
  );
}

/**
 * What every scan tab starts with: the texts, the rights of the CFS page and the handheld's scan
 * calls, which post quietly (the feedback line tells what went wrong); what the tab works on once
 * its first scan found it (`subject`: an order, a pallet, a container) with the cartons scanned
 * since; and `back`, which starts the tab again.
 */
function useCfsScan<Subject>() {
  const { t } = useTranslation();
  const rights = useRights('cfs.cfs');
  const calls = useScanCalls();
  const [subject, setSubject] = useState<Subject | null>(null);
  const [cartons, setCartons] = useState<CfsCarton[]>([]);
  const post = <T,>(path: string, body: object) => calls.run(() => api<T>(path, { body, quiet: true }));
  const back = () => {
    calls.setFeedback(null);
    setSubject(null);
    setCartons([]);
  };
  return { t, rights, ...calls, post, subject, setSubject, cartons, setCartons, back };
}

/** Scan-in: scan an order number, then the shippers' cartons (number or SSCC) received against it. */
export function ScanIn() {
  const { t, rights, feedback, busy, tell, post, subject: order, setSubject: setOrder, cartons, setCartons, back } = useCfsScan<CfsOrderStatus>();

  const scanOrder = async (text: string) => {
    const answer = await post<{ order: CfsOrderStatus; cartons: CfsCarton[] }>('/cfs/scanIn/order', { orderNo: text.trim() });
    if (!answer) return;
    setOrder(answer.order);
    setCartons(answer.cartons);
    tell(answer.order.status === 'cancelled' ? 'warning' : 'success', t('cfs.scanIn.orderFound', { orderNo: answer.order.orderNo }));
  };
  const scanCarton = async (text: string) => {
    if (!order) return;
    const answer = await post<CfsScanInAnswer>('/cfs/scanIn/scan', { orderNo: order.orderNo, code: text.trim() });
    if (!answer) return;
    setOrder(answer.order);
    setCartons((was) => [...was, answer.carton]);
    tell('success', t('cfs.scanIn.received', { code: answer.carton.code, orderNo: answer.order.orderNo }));
  };

  return (
    <HandheldFrame title={t('cfs.tab.scanIn')} testId="cfs-scan-in">
      {!order ? (
        <PackScanField key="order" testId="cfs-scan" label={t('cfs.scanIn.scanOrder')} disabled={busy} onEscape={back} onScan={(text) => void scanOrder(text)} />
      ) : (
        <>
          <OrderLine order={order} />
          <PackScanField key="carton" testId="cfs-scan" label={t('cfs.scanIn.scanCarton')} disabled={busy || !rights.edit} onEscape={back} onScan={(text) => void scanCarton(text)} />
        </>
      )}
      <ScanFoot feedback={feedback} found={order !== null} onBack={back} cartons={cartons} />
    </HandheldFrame>
  );
}

/** Scan-pack: scan a CFS pallet (or make one, F4), then the scanned-in cartons that go onto it. */
export function ScanPack() {
  const { t, rights, feedback, busy, tell, post, subject: pallet, setSubject: setPallet, back } = useCfsScan<CfsPallet>();

  const scanPallet = async (text: string) => {
    const answer = await post<CfsPallet>('/cfs/scanPack/pallet', { code: text.trim() });
    if (!answer) return;
    setPallet(answer);
    if (answer.status === 'open') tell('success', t('cfs.scanPack.found', { palletNo: answer.palletNo, count: answer.cartons.length }));
    else tell('warning', t('cfs.scanPack.foundLoaded', { palletNo: answer.palletNo, loadNo: answer.loadNo ?? '' }));
  };
  const newPallet = async () => {
    if (!rights.edit || busy) return;
    const answer = await post<CfsPallet>('/cfs/add/pallet', {});
    if (!answer) return;
    setPallet(answer);
    tell('success', t('cfs.scanPack.created', { palletNo: answer.palletNo, sscc: answer.sscc }));
  };
  const scanCarton = async (text: string) => {
    if (!pallet) return;
    const answer = await post<CfsScanPackAnswer>('/cfs/scanPack/scan', { palletId: pallet.id, code: text.trim() });
    if (!answer) return;
    setPallet(answer.pallet);
    tell('success', t('cfs.scanPack.packed', { code: answer.carton.code, palletNo: answer.pallet.palletNo }));
  };

  const keys = useRef<(event: KeyboardEvent) => void>(() => undefined);
  keys.current = (event) => {
    if (event.key !== KEY_NEW || document.querySelector('.ant-modal-wrap')) return;
    event.preventDefault();
    void newPallet();
  };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keys.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  return (
    <HandheldFrame title={t('cfs.tab.scanPack')} testId="cfs-scan-pack">
      {!pallet ? (
        <PackScanField key="pallet" testId="cfs-scan" label={t('cfs.scanPack.scanPallet')} disabled={busy} onEscape={back} onScan={(text) => void scanPallet(text)} />
      ) : (
        <>
          <div data-testid="cfs-pallet" data-status={pallet.status} style={{ fontSize: 18 }}>
            <strong>{pallet.palletNo}</strong> <Tag color={pallet.status === 'open' ? 'green' : 'default'}>{t(`cfs.palletStatus.${pallet.status}`)}</Tag>
            <div data-testid="cfs-pallet-sscc" style={{ fontSize: 14, color: '#555' }}>
              SSCC {pallet.sscc}
            </div>
          </div>
          <PackScanField key="carton" testId="cfs-scan" label={t('cfs.scanPack.scanCarton')} disabled={busy || !rights.edit || pallet.status !== 'open'} onEscape={back} onScan={(text) => void scanCarton(text)} />
        </>
      )}
      <ScanFoot
        feedback={feedback}
        found={pallet !== null}
        onBack={back}
        buttons={
          rights.edit && (
            <Button style={TARGET} data-testid="cfs-new-pallet" disabled={busy} onClick={() => void newPallet()}>
              {t('cfs.scanPack.newPallet')} [{KEY_NEW}]
            </Button>
          )
        }
        cartons={pallet?.cartons ?? []}
      />
    </HandheldFrame>
  );
}

/** Scan-load: scan a container (load or container number), then the pallets or cartons that go onto it. */
export function ScanLoad() {
  const { t, rights, feedback, busy, tell, post, subject: container, setSubject: setContainer, cartons: loaded, setCartons: setLoaded, back } = useCfsScan<CfsContainer>();

  const scanContainer = async (text: string) => {
    const answer = await post<CfsContainer>('/cfs/scanLoad/container', { code: text.trim() });
    if (!answer) return;
    setContainer(answer);
    setLoaded([]);
    if (answer.status === 'open') tell('success', t('cfs.scanLoad.found', { loadNo: answer.loadNo, containerNo: answer.containerNo ?? '-' }));
    else tell('warning', t('cfs.scanLoad.foundClosed', { loadNo: answer.loadNo }));
  };
  const scanUnit = async (text: string) => {
    if (!container) return;
    const answer = await post<CfsScanLoadAnswer>('/cfs/scanLoad/scan', { loadId: container.id, code: text.trim() });
    if (!answer) return;
    setContainer(answer.container);
    setLoaded((was) => [...was, ...answer.loaded]);
    tell('success', t(answer.palletNo ? 'cfs.scanLoad.palletLoaded' : 'cfs.scanLoad.cartonLoaded', { palletNo: answer.palletNo ?? '', code: answer.loaded[0]?.code ?? '', count: answer.loaded.length, loadNo: answer.container.loadNo }));
  };

  return (
    <HandheldFrame title={t('cfs.tab.scanLoad')} testId="cfs-scan-load">
      {!container ? (
        <PackScanField key="container" testId="cfs-scan" label={t('cfs.scanLoad.scanContainer')} disabled={busy} onEscape={back} onScan={(text) => void scanContainer(text)} />
      ) : (
        <>
          <div data-testid="cfs-container" data-status={container.status} style={{ fontSize: 18 }}>
            <strong>{container.loadNo}</strong> {container.containerNo} <Tag>{container.status}</Tag>
            <div style={{ fontSize: 14, color: '#555' }}>{t('cfs.scanLoad.counts', { cartons: container.cartons, pallets: container.pallets })}</div>
          </div>
          <PackScanField key="unit" testId="cfs-scan" label={t('cfs.scanLoad.scanUnit')} disabled={busy || !rights.edit} onEscape={back} onScan={(text) => void scanUnit(text)} />
        </>
      )}
      <ScanFoot feedback={feedback} found={container !== null} onBack={back} cartons={loaded} />
    </HandheldFrame>
  );
}
