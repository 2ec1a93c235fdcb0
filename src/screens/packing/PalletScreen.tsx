import { useState } from 'react';
import { Button, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, showConfirm, useRights } from '../../app/public';
import { BIG, FeedbackLine, useScanCalls } from '../inbound/handheld';
import { PackScanField } from './PackScanField';
import { useWindowKeys } from '../shared/screen-hooks';

/** What the pallet calls answer (`/pallet/*`). */
interface Pallet {
  id: number;
  palletNo: string;
  sscc: string;
  status: string;
  soId: number | null;
  grossWeight: string | null;
  weightUom: string | null;
  cartons: Array<{ id: number; cartonNo: string; sscc: string | null }>;
}

/** The steps: scan a pallet (or the location of a new one), then scan cartons onto it. Escape steps back. */
type Step = 'pallet' | 'location' | 'carton';

/** A handheld's function keys, as on the scan-pack screen: F2 closes, F4 makes a new one. */
const KEY_CLOSE = 'F2';
const KEY_NEW = 'F4';
/** Prints a closed pallet's label again. */
const KEY_REPRINT = 'F9';

/** A big target that wraps its caption instead of growing past the handheld's width. */
const TARGET = { ...BIG, height: 'auto', whiteSpace: 'normal', overflowWrap: 'anywhere' } as const;

/**
 * /palletScan: pallets on a handheld (360x640). Scan a pallet's number or SSCC, or make a new one
 * (F4, then scan the location it stands at), then scan closed cartons (number or SSCC) onto it;
 * `-` switches to taking a scanned carton off. F2 closes the pallet after a confirmation: its
 * label, with its own SSCC and its gross weight (entered on the desk, else its cartons' plus the
 * pallet tare), prints on the warehouse's printer for automatic labels; a closed pallet scanned
 * shows its gross weight and F9 prints its label again (through the print queue). The scan field
 * keeps the focus, Enter submits, Escape steps back, and every outcome beeps.
 */
export default function PalletScreen() {
  const { t } = useTranslation();
  const rights = useRights('packing.pallet');
  const [step, setStep] = useState<Step>('pallet');
  const [pallet, setPallet] = useState<Pallet | null>(null);
  const [removing, setRemoving] = useState(false);
  // A scanner that sends twice before the first answer: one call at a time.
  const { feedback, setFeedback, busy, tell, run } = useScanCalls();

  /** Calls for a pallet and, when one is answered, opens it for its cartons. */
  const openFrom = async (path: string, body: Record<string, string>) => {
    const answer = await run(() => api<Pallet>(path, { body, quiet: true }));
    if (answer) {
      setPallet(answer);
      setRemoving(false);
      setStep('carton');
    }
    return answer;
  };

  const scanPallet = async (scanned: string) => {
    const answer = await openFrom('/pallet/find', { code: scanned.trim() });
    if (!answer) return;
    if (answer.status === 'open') tell('success', t('packing.palletScan.found', { palletNo: answer.palletNo, count: answer.cartons.length }));
    else tell('warning', t('packing.palletScan.foundClosed', { palletNo: answer.palletNo }));
  };

  const newPallet = () => {
    if (!rights.edit || busy) return;
    setPallet(null);
    setFeedback(null);
    setStep('location');
  };

  const createAt = async (scanned: string) => {
    const answer = await openFrom('/pallet/create', { locationCode: scanned.trim() });
    if (!answer) return;
    tell('success', t('packing.pallet.created', { palletNo: answer.palletNo, sscc: answer.sscc }));
  };

  const scanCarton = async (scanned: string) => {
    if (!pallet) return;
    const carton = scanned.trim();
    const url = removing ? '/pallet/removeCarton' : '/pallet/addCarton';
    const answer = await run(() => api<Pallet>(url, { body: { palletId: pallet.id, carton }, quiet: true }));
    if (!answer) {
      // A refusal may come from a change made elsewhere (the pallet closed on the desk): show the pallet as it is now.
      const now = await api<Pallet>('/pallet/detail', { body: { palletId: pallet.id }, quiet: true }).catch(() => undefined);
      if (now) setPallet(now);
      return;
    }
    setPallet(answer);
    tell('success', t(removing ? 'packing.pallet.cartonRemoved' : 'packing.pallet.cartonAdded', { carton, palletNo: answer.palletNo }));
  };

  const close = async () => {
    if (!pallet || !rights.edit || busy || pallet.status !== 'open') return;
    const ok = await showConfirm({ id: 'pallet-close-confirm', content: t('packing.pallet.closeConfirm'), okText: t('packing.pallet.close'), cancelText: t('ui.engine.cancel') });
    if (!ok) return;
    const answer = await run(() => api<Pallet & { label: { printerName: string } | null }>('/pallet/close', { body: { palletId: pallet.id }, quiet: true }));
    if (!answer) return;
    setPallet(answer);
    setRemoving(false);
    const weighed = answer.grossWeight === null ? '' : ` ${t('packing.palletScan.grossWeight', { weight: answer.grossWeight, uom: answer.weightUom ?? '' })}.`;
    const closed = t('packing.palletScan.closed', { palletNo: answer.palletNo, sscc: answer.sscc }) + weighed;
    tell('success', answer.label ? `${closed} ${t('packing.screen.labelSent', { printer: answer.label.printerName })}` : closed);
    setStep('pallet');
  };

  /** A closed pallet's label again, on the printer for automatic labels, through the print queue. */
  const reprint = async () => {
    if (!pallet || !rights.edit || busy || pallet.status !== 'closed') return;
    const answer = await run(() => api<{ printerName: string }>('/pack/label/print', { body: { code: pallet.sscc }, quiet: true }));
    if (!answer) return;
    tell('success', t('packing.palletScan.reprinted', { palletNo: pallet.palletNo, printer: answer.printerName }));
  };

  /** Escape: taking off ends first, then back to scanning a pallet. */
  const back = () => {
    setFeedback(null);
    if (step === 'carton' && removing) return setRemoving(false);
    setStep('pallet');
    if (step === 'location') return;
    setPallet(null);
  };

  // The function keys work whatever has the focus, except in a popup.
  useWindowKeys((event) => {
    if (document.querySelector('.ant-modal-wrap') || !rights.edit) return;
    if (event.key === KEY_NEW && step !== 'location') newPallet();
    else if (event.key === KEY_CLOSE && step === 'carton') void close();
    else if (event.key === KEY_REPRINT && step === 'carton') void reprint();
    else return;
    event.preventDefault();
  });

  const scanKeys = (key: string): boolean => {
    if (key !== '-' || step !== 'carton' || !rights.edit || pallet?.status !== 'open') return false;
    setRemoving((was) => !was);
    return true;
  };

  const editable = rights.edit && pallet?.status === 'open';
  return (
    <div data-testid="pallet-screen" data-step={step} style={{ maxWidth: 360, width: '100%', display: 'flex', flexDirection: 'column', gap: 12 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('packing.palletScan.title')}
      </Typography.Title>
      {step === 'pallet' && <PackScanField key="pallet" testId="pallet-scan" label={t('packing.palletScan.scanPallet')} disabled={busy} onEscape={back} onScan={(text) => void scanPallet(text)} />}
      {step === 'location' && <PackScanField key="location" testId="pallet-scan" label={t('packing.palletScan.scanLocation')} disabled={busy} onEscape={back} onScan={(text) => void createAt(text)} />}
      {step === 'carton' && pallet && (
        <>
          <div data-testid="pallet-current" data-status={pallet.status} style={{ fontSize: 18 }}>
            <strong>{pallet.palletNo}</strong> <Tag color={pallet.status === 'open' ? 'green' : 'default'}>{t(`packing.status.${pallet.status}`)}</Tag>
            <div data-testid="pallet-sscc" style={{ fontSize: 14, color: '#555' }}>
              SSCC {pallet.sscc}
            </div>
            {pallet.grossWeight !== null && (
              <div data-testid="pallet-weight" style={{ fontSize: 14, color: '#555' }}>
                {t('packing.palletScan.grossWeight', { weight: pallet.grossWeight, uom: pallet.weightUom ?? '' })}
              </div>
            )}
          </div>
          {removing && (
            <Tag color="red" data-testid="pallet-removing" style={{ fontSize: 16, padding: 4 }}>
              {t('packing.palletScan.removing')}
            </Tag>
          )}
          <PackScanField
            key="carton"
            testId="pallet-scan"
            label={t(removing ? 'packing.palletScan.scanRemove' : 'packing.palletScan.scanCarton')}
            disabled={busy || !rights.edit}
            onEscape={back}
            onKey={scanKeys}
            onScan={(text) => void scanCarton(text)}
          />
        </>
      )}
      <FeedbackLine feedback={feedback} />
      {rights.edit && (
        <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: 8 }}>
          {step === 'carton' && (
            <>
              <Button style={TARGET} data-testid="pallet-remove-mode" danger={removing} disabled={!editable} onClick={() => setRemoving((was) => !was)}>
                {t('packing.palletScan.removeButton')} [-]
              </Button>
              <Button style={TARGET} type="primary" data-testid="pallet-close" disabled={!editable || !pallet || pallet.cartons.length === 0} onClick={() => void close()}>
                {t('packing.pallet.close')} [{KEY_CLOSE}]
              </Button>
            </>
          )}
          {step === 'carton' && pallet?.status === 'closed' && (
            <Button style={TARGET} data-testid="pallet-reprint" disabled={busy} onClick={() => void reprint()}>
              {t('packing.palletScan.reprint')} [{KEY_REPRINT}]
            </Button>
          )}
          {step !== 'location' && (
            <Button style={TARGET} data-testid="pallet-new" onClick={newPallet}>
              {t('packing.pallet.create')} [{KEY_NEW}]
            </Button>
          )}
          {step !== 'pallet' && (
            <Button style={TARGET} data-testid="pallet-back" onClick={back}>
              {t('packing.screen.back')} [Esc]
            </Button>
          )}
        </div>
      )}
      {pallet && step === 'carton' && (
        <div data-testid="pallet-cartons">
          <Typography.Text strong>{t('packing.screen.cartons', { count: pallet.cartons.length })}</Typography.Text>
          {pallet.cartons.length === 0 && <div style={{ color: '#888' }}>{t('packing.screen.noCartons')}</div>}
          {pallet.cartons.map((carton) => (
            <div key={carton.id} data-testid={`pallet-carton-${carton.cartonNo}`} style={{ fontSize: 16, padding: '6px 0', borderBottom: '1px solid #eee' }}>
              <strong>{carton.cartonNo}</strong> <span style={{ fontSize: 12, color: '#666' }}>{carton.sscc}</span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
