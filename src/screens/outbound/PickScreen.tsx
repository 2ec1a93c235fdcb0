import { HandheldTabs, type ScreenTab } from '../inbound/handheld';
import HandheldPick from './HandheldPick';
import PickTasks from './PickTasks';

const TABS: ScreenTab[] = [
  { key: 'tasks', labelKey: 'outbound.pick.tasksTab', Content: PickTasks },
  { key: 'handheld', labelKey: 'outbound.pick.handheldTab', Content: HandheldPick },
];

/** /pick: pick tasks by wave or order with the pick list PDF, and handheld picking. */
export default function PickScreen() {
  return <HandheldTabs testId="pick-screen" tabs={TABS} />;
}
