import BatchReceive from './BatchReceive';
import { HandheldTabs, type ScreenTab } from './handheld';
import HandheldReceive from './HandheldReceive';
import ScanIn from './ScanIn';

const TABS: ScreenTab[] = [
  { key: 'batch', labelKey: 'inb.ui.batchReceive', Content: BatchReceive },
  { key: 'scanIn', labelKey: 'inb.ui.scanIn', Content: ScanIn },
  { key: 'handheld', labelKey: 'inb.ui.handheldReceive', Content: HandheldReceive },
];

/** /receive: batch receive, scan-in and the handheld receiving flow. */
export default function ReceiveScreen() {
  return <HandheldTabs testId="receive-screen" tabs={TABS} />;
}
