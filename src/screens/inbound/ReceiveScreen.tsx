import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRights } from '../../app/public';
import RfFlow from '../handheld/RfFlow';
import BatchReceive from './BatchReceive';
import { HandheldTabs, type ScreenTab } from './handheld';
import ScanIn from './ScanIn';

/**
 * Handheld receiving is the one handheld runtime's receive function (docs/handheld.md, "The
 * runtime"): a container scanned in, or an ASN line found by ASN number, SKU or GS1-128 label. Its
 * calls need the runtime's right; without it the tab says so rather than make a call the server
 * refuses.
 */
function HandheldReceive() {
  const { t } = useTranslation();
  const rights = useRights('handheld.rfFlow');
  if (!rights.view) return <Typography.Text type="secondary" data-testid="receive-handheld-no-right">{t('inb.ui.handheldNoRight')}</Typography.Text>;
  return <RfFlow only="receive" />;
}

const TABS: ScreenTab[] = [
  { key: 'batch', labelKey: 'inb.ui.batchReceive', Content: BatchReceive },
  { key: 'scanIn', labelKey: 'inb.ui.scanIn', Content: ScanIn },
  { key: 'handheld', labelKey: 'inb.ui.handheldReceive', Content: HandheldReceive },
];

/** /receive: batch receive, scan-in and the handheld receiving flow. */
export default function ReceiveScreen() {
  return <HandheldTabs testId="receive-screen" tabs={TABS} />;
}
