import { useState } from 'react';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { CfsOrders } from './CfsOrders';
import { ScanIn, ScanLoad, ScanPack } from './CfsScans';

/**
 * /cfs: the container freight station (docs/cfs.md). Three handheld flows (360x640, keyboard-wedge
 * scanner: the scan field keeps the focus, Enter submits, Escape steps back, every outcome beeps)
 * and the desk's order tools, as tabs; only the open tab is mounted.
 */
export default function CfsScreen() {
  const { t } = useTranslation();
  const [tab, setTab] = useState('scanIn');
  const items = [
    { key: 'scanIn', label: t('cfs.tab.scanIn'), children: <ScanIn /> },
    { key: 'scanPack', label: t('cfs.tab.scanPack'), children: <ScanPack /> },
    { key: 'scanLoad', label: t('cfs.tab.scanLoad'), children: <ScanLoad /> },
    { key: 'orders', label: t('cfs.tab.orders'), children: <CfsOrders /> },
  ];
  return (
    <div data-testid="cfs-screen">
      <Tabs activeKey={tab} onChange={setTab} destroyInactiveTabPane items={items} />
    </div>
  );
}
