import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import RfFlow from '../handheld/RfFlow';
import HandheldMove from '../inventory/HandheldMove';
import PutawayScreen from './PutawayScreen';

const TABS = ['putaway', 'move', 'count'] as const;
type TabKey = (typeof TABS)[number];

/**
 * /putaway, the handheld's screen (360x640, keyboard-wedge scanner): putaway, move and cycle
 * count, one tab each. `?tab=move` or `?tab=count` opens a tab directly (a bookmark on the device);
 * the tabs also switch with the arrow keys.
 */
export default function HandheldScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: TabKey = TABS.find((k) => k === asked) ?? 'putaway';
  return (
    <Tabs
      data-testid="handheld-tabs"
      activeKey={tab}
      onChange={(key) => setParams(key === 'putaway' ? {} : { tab: key }, { replace: true })}
      destroyInactiveTabPane
      size="large"
      items={[
        { key: 'putaway', label: t('inb.ui.putawayTitle'), children: <PutawayScreen /> },
        { key: 'move', label: t('inv.handheld.moveTab'), children: <HandheldMove /> },
        { key: 'count', label: t('inv.handheld.countTab'), children: <RfFlow only="count" /> },
      ]}
    />
  );
}
