import { useState } from 'react';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import BatchReceive from './BatchReceive';
import HandheldReceive from './HandheldReceive';
import ScanIn from './ScanIn';

/** /receive: batch receive, scan-in and the handheld receiving flow (spec sections 2, 3 and 5). */
export default function ReceiveScreen() {
  const { t } = useTranslation();
  const narrow = typeof window !== 'undefined' && window.innerWidth < 600;
  const [tab, setTab] = useState(narrow ? 'handheld' : 'batch');
  return (
    <div data-testid="receive-screen">
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyInactiveTabPane
        items={[
          { key: 'batch', label: t('inb.ui.batchReceive'), children: <BatchReceive /> },
          { key: 'scanIn', label: t('inb.ui.scanIn'), children: <ScanIn /> },
          { key: 'handheld', label: t('inb.ui.handheldReceive'), children: <HandheldReceive /> },
        ]}
      />
    </div>
  );
}
