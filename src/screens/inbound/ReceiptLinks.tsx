import { Alert, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ReceiveResult } from '../../common/inbound-api';
import { openRoute } from '../../app/public';

/**
 * What a receipt made, as links: each receipt opens the goods receipts filtered to it, and its ASN
 * opens the ASN list filtered to that ASN (where its lines, cartons and receipts are).
 */
export function ReceiptLinks(props: { receipts: ReceiveResult[] }) {
  const { t } = useTranslation();
  if (props.receipts.length === 0) return null;
  return (
    <Alert
      type="success"
      showIcon
      data-testid="receipt-links"
      message={t('inb.ui.batchReceived', { receipts: props.receipts.map((r) => r.receiptNo).join(', ') })}
      description={
        <Space wrap>
          {props.receipts.map((r) => (
            <Space key={r.receiptNo}>
              <Typography.Link data-testid={`open-receipt-${r.receiptNo}`} onClick={() => openRoute('inbGr', { receipt_no: r.receiptNo })}>
                {t('inb.ui.openReceipt', { receiptNo: r.receiptNo })}
              </Typography.Link>
              <Typography.Link data-testid={`open-asn-${r.asnNo}`} onClick={() => openRoute('asn', { asn_no: r.asnNo })}>
                {t('inb.ui.openAsn', { asnNo: r.asnNo })}
              </Typography.Link>
            </Space>
          ))}
        </Space>
      }
    />
  );
}
