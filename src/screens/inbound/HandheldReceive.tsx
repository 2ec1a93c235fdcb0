import { useState } from 'react';
import { Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { looksLikeGs1, parseGs1, type Gs1Data } from '../../common/gs1';
import type { ReceivableLine } from '../../common/inbound-api';
import { BIG, beep, FeedbackLine, HandheldFrame, ScanField, useFeedback } from './handheld';
import * as calls from './inbound-calls';

type Step = { kind: 'find' } | { kind: 'choose'; lines: ReceivableLine[] } | { kind: 'location'; line: ReceivableLine } | { kind: 'qty'; line: ReceivableLine; locationCode: string };

/**
 * Handheld receiving (360x640, keyboard-wedge scanner): scan an ASN number, a SKU code or barcode,
 * or a GS1-128 label (its GTIN finds the line; batch, expiry, SSCC and count fill the receipt);
 * scan the receiving location; type or scan the quantity; Enter receives.
 */
export default function HandheldReceive() {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'find' });
  const [label, setLabel] = useState<Gs1Data>({});
  const { feedback, setFeedback, tell, fail } = useFeedback();

  const find = async (scanned: string) => {
    let text = scanned.trim();
    let data: Gs1Data = {};
    if (looksLikeGs1(scanned)) {
      const parsed = parseGs1(scanned);
      if (!parsed.ok) return fail(t('inb.ui.badBarcode', { reason: parsed.error }));
      data = parsed.data;
      text = data.gtin ?? data.contentGtin ?? text;
    }
    setLabel(data);
    try {
      const answer = await calls.receivableLines(text);
      if (answer.lines.length === 0) return fail(t('inb.ui.nothingToReceive'), 'warning');
      setFeedback(null);
      beep('success');
      setStep(answer.lines.length === 1 ? { kind: 'location', line: answer.lines[0] } : { kind: 'choose', lines: answer.lines });
    } catch (error) {
      fail(error);
    }
  };

  const receive = async (line: ReceivableLine, locationCode: string, qtyText: string) => {
    try {
      const answer = await calls.receiveLines([
        { asnLineId: line.id, qty: qtyText.trim(), locationCode, lotNo: label.batch ?? null, expiryDate: label.expiry ?? null, lpn: label.sscc ?? null, traceId: label.serial ?? null },
      ]);
      const receipt = answer.receipts[0];
      tell('success', t('inb.ui.received', { qty: qtyText.trim(), sku: line.sku_code, receipt: receipt.receiptNo, status: t(`inb.status.${receipt.status}`) }));
      setLabel({});
      setStep({ kind: 'find' });
    } catch (error) {
      fail(error);
    }
  };

  return (
    <HandheldFrame testId="handheld-receive" title={t('inb.ui.handheldReceive')}>
      {step.kind === 'find' && <ScanField testId="scan-field" label={t('inb.ui.scanAsnOrSku')} onScan={(text) => void find(text)} />}
      {step.kind === 'choose' && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text>{t('inb.ui.chooseLine')}</Typography.Text>
          {step.lines.map((line) => (
            <Button key={line.id} block style={BIG} data-testid={`line-${line.id}`} onClick={() => setStep({ kind: 'location', line })}>
              {line.asn_no} / {line.sku_code} ({Number(line.received_qty)}/{Number(line.expected_qty)})
            </Button>
          ))}
        </Space>
      )}
      {(step.kind === 'location' || step.kind === 'qty') && (
        <Typography.Paragraph data-testid="handheld-line" style={{ fontSize: 16, margin: 0 }}>
          {step.line.asn_no} · {step.line.sku_code} · {t('inb.ui.openQty', { qty: Number(step.line.expected_qty) - Number(step.line.received_qty) })}
          {label.batch ? ` · ${label.batch}` : ''}
          {label.expiry ? ` · ${label.expiry}` : ''}
        </Typography.Paragraph>
      )}
      {step.kind === 'location' && (
        <ScanField key="location" testId="scan-field" label={t('inb.ui.scanLocation')} onScan={(text) => setStep({ kind: 'qty', line: step.line, locationCode: text.trim() })} />
      )}
      {step.kind === 'qty' && (
        <>
          <Typography.Text>{t('inb.ui.location', { location: step.locationCode })}</Typography.Text>
          <ScanField
            key="qty"
            testId="scan-field"
            inputMode="decimal"
            label={t('inb.ui.enterQty')}
            placeholder={label.count ? String(label.count) : undefined}
            onScan={(text) => void receive(step.line, step.locationCode, text)}
          />
        </>
      )}
      <FeedbackLine feedback={feedback} />
      {step.kind !== 'find' && (
        <Button block style={BIG} data-testid="handheld-back" onClick={() => setStep({ kind: 'find' })}>
          {t('inb.ui.startOver')}
        </Button>
      )}
    </HandheldFrame>
  );
}
