import { useState } from 'react';
import { Empty, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRights } from '../../app/public';
import { ResPlanPlans } from './ResPlanPlans';
import { ResPlanRates, ResPlanShifts } from './ResPlanSetup';

/**
 * /resPlan: resource planning of the session's warehouse (docs/resplan.md). The plans (list, one
 * plan with its lines per activity and a chart of required against available hours, calculate,
 * confirm, delete a draft), the shifts with their people and equipment per activity, and the rates
 * of each activity, as tabs; only the open tab is mounted.
 */
export default function ResPlanScreen() {
  const { t } = useTranslation();
  const rights = useRights('resplan.resPlan');
  const [tab, setTab] = useState('plans');
  if (!rights.view) return <Empty description={t('resplan.msg.noRight')} />;
  const items = [
    { key: 'plans', label: t('resplan.tab.plans'), children: <ResPlanPlans rights={rights} /> },
    { key: 'shifts', label: t('resplan.tab.shifts'), children: <ResPlanShifts rights={rights} /> },
    { key: 'rates', label: t('resplan.tab.rates'), children: <ResPlanRates rights={rights} /> },
  ];
  return (
    <div data-testid="resplan-screen" style={{ padding: 12 }}>
      <Tabs activeKey={tab} onChange={setTab} destroyInactiveTabPane items={items} />
    </div>
  );
}
