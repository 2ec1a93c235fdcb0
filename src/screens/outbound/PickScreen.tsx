import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRights } from '../../app/public';
import { HandheldTabs, type ScreenTab } from '../inbound/handheld';
import RfFlow from '../handheld/RfFlow';
import PickTasks from './PickTasks';

/**
 * Handheld picking is the one handheld runtime's pick function (docs/handheld.md, "The runtime").
 * Its calls need the runtime's right; without it the tab says so rather than make a call the
 * server refuses (a refused call ends the session in this client).
 */
function HandheldPick() {
  const { t } = useTranslation();
  const rights = useRights('handheld.rfFlow');
  if (!rights.view) return <Typography.Text type="secondary" data-testid="pick-handheld-no-right">{t('outbound.pick.handheldNoRight')}</Typography.Text>;
  return <RfFlow only="pick" />;
}

const TABS: ScreenTab[] = [
  { key: 'tasks', labelKey: 'outbound.pick.tasksTab', Content: PickTasks },
  { key: 'handheld', labelKey: 'outbound.pick.handheldTab', Content: HandheldPick },
];

/** /pick: pick tasks by wave or order with the pick list PDF, and handheld picking through the runtime /rfFlow. */
export default function PickScreen() {
  return <HandheldTabs testId="pick-screen" tabs={TABS} />;
}
