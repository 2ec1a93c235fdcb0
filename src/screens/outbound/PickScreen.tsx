import { useState } from 'react';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import HandheldPick from './HandheldPick';
import PickTasks from './PickTasks';

/** /pick: pick tasks by wave or order with the pick list PDF, and handheld picking (spec sections 2 and 4). */
export default function PickScreen() {
  const { t } = useTranslation();
  const narrow = typeof window !== 'undefined' && window.innerWidth < 600;
  const [tab, setTab] = useState(narrow ? 'handheld' : 'tasks');
  return (
    <div data-testid="pick-screen">
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyInactiveTabPane
        items={[
          { key: 'tasks', label: t('outbound.pick.tasksTab'), children: <PickTasks /> },
          { key: 'handheld', label: t('outbound.pick.handheldTab'), children: <HandheldPick /> },
        ]}
      />
    </div>
  );
}
