import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useRights } from '../../app/public';
import type { RuntimeFunction } from '../../common/handheld-api';
import RfFlow from '../handheld/RfFlow';

const TABS = ['putaway', 'move', 'count'] as const;
type TabKey = (typeof TABS)[number];

/**
 * Putaway, move and count are the one handheld runtime's functions (docs/handheld.md, "The runtime"). Its
 * calls need the runtime's right; without it the tab says so rather than make a call the server
 * refuses.
 */
function RuntimeTab({ fn }: { fn: RuntimeFunction }) {
  const { t } = useTranslation();
  const rights = useRights('handheld.rfFlow');
  if (!rights.view) return <Typography.Text type="secondary" data-testid="handheld-no-right">{t('inb.ui.handheldNoRight', { fn: t(`hh.fn.${fn}`) })}</Typography.Text>;
  return <RfFlow only={fn} />;
}

/**
 * /putaway, the handheld's screen (360x640, keyboard-wedge scanner): putaway, move and cycle
 * count, one tab each, all three on the handheld runtime. `?tab=move` or `?tab=count`
 * opens a tab directly (a bookmark on the device); the tabs also switch with the arrow keys.
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
        { key: 'putaway', label: t('inb.ui.putawayTitle'), children: <RuntimeTab fn="putaway" /> },
        { key: 'move', label: t('inv.handheld.moveTab'), children: <RuntimeTab fn="move" /> },
        { key: 'count', label: t('inv.handheld.countTab'), children: <RuntimeTab fn="count" /> },
      ]}
    />
  );
}
