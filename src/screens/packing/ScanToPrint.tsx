import { useEffect, useRef, useState } from 'react';
import { Select, Typography, type RefSelectProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/public';
import { FeedbackLine, HandheldFrame, ScanField, useFeedback } from '../inbound/handheld';

interface LabelPrinter {
  id: number;
  name: string;
  type: string;
  autoLabels: boolean;
}
interface Printed {
  jobId: number;
  kind: 'carton' | 'pallet';
  palletNo: string | null;
  sscc: string;
  cartonNo: number;
  cartonCount: number;
  orderNo: string;
  printerName: string;
}

/** Where the last chosen printer is kept on this device. */
const LAST_PRINTER = 'wms.scanToPrint.printerId';

function lastPrinter(): number | null {
  const value = Number(window.localStorage.getItem(LAST_PRINTER));
  return Number.isInteger(value) && value > 0 ? value : null;
}

/**
 * Scan to print (handheld, 360x640): scan a closed carton's or pallet's number or SSCC and its label prints on
 * the chosen printer of the warehouse (the last choice is kept on the device; without one, the
 * printer for automatic labels). Enter prints; each outcome is shown and beeped; Escape clears the
 * message. The scan field keeps the focus after every scan, print and refusal (a scanner alone
 * drives it).
 */
export default function ScanToPrint() {
  const { t } = useTranslation();
  const { feedback, setFeedback, tell, fail } = useFeedback();
  const [printers, setPrinters] = useState<LabelPrinter[]>([]);
  const [printerId, setPrinterId] = useState<number | null>(lastPrinter);
  const select = useRef<RefSelectProps>(null);

  useEffect(() => {
    void api<{ rows: LabelPrinter[] }>('/pack/label/printer', { quiet: true })
      .then((answer) => {
        setPrinters(answer.rows);
        // A remembered printer that is gone (or of another warehouse) falls back to the automatic one.
        setPrinterId((chosen) => (chosen !== null && answer.rows.some((p) => p.id === chosen) ? chosen : (answer.rows.find((p) => p.autoLabels)?.id ?? answer.rows[0]?.id ?? null)));
      })
      .catch((error: unknown) => fail(error));
  }, [fail]);

  /** A printer chosen, the focus goes back to the scan field: the next scan prints on it. */
  const choose = (id: number) => {
    setPrinterId(id);
    window.localStorage.setItem(LAST_PRINTER, String(id));
  };

  /**
   * The list closed (a printer chosen, or Escape, or a click elsewhere): the scan field takes the focus
   * back once the list has given it back to the select, which it does after closing.
   */
  const closed = (open: boolean) => {
    if (open) return;
    window.setTimeout(() => {
      select.current?.blur();
      document.querySelector<HTMLInputElement>('input[data-testid="scan-print-scan"]')?.focus();
    }, 50);
  };

  const print = async (scanned: string) => {
    try {
      const answer = await api<Printed>('/pack/label/print', { body: { code: scanned.trim(), printerId }, quiet: true });
      const params = { sscc: answer.sscc, printer: answer.printerName, cartonNo: answer.cartonNo, cartonCount: answer.cartonCount, orderNo: answer.orderNo, palletNo: answer.palletNo ?? '' };
      tell('success', t(answer.kind === 'pallet' ? 'pack.scanPrint.palletPrinted' : 'pack.scanPrint.printed', params));
    } catch (error) {
      fail(error);
    }
  };

  return (
    <HandheldFrame title={t('pack.scanPrint.title')} testId="scan-print">
      <div>
        <div style={{ fontSize: 16, marginBottom: 4 }}>{t('pack.scanPrint.printer')}</div>
        <Select
          ref={select}
          data-testid="scan-print-printer"
          size="large"
          style={{ width: '100%' }}
          value={printerId ?? undefined}
          placeholder={t('pack.scanPrint.noPrinter')}
          onChange={(value: number) => choose(value)}
          onOpenChange={closed}
          options={printers.map((p) => ({ value: p.id, label: p.name }))}
        />
      </div>
      <ScanField label={t('pack.scanPrint.scan')} testId="scan-print-scan" onScan={(text) => void print(text)} onEscape={() => setFeedback(null)} />
      <FeedbackLine feedback={feedback} />
      {printers.length === 0 && <Typography.Text type="secondary">{t('pack.scanPrint.noPrinter')}</Typography.Text>}
    </HandheldFrame>
  );
}
