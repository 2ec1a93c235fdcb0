import { HandheldTabs, type ScreenTab } from '../inbound/handheld';
import RfFlow from '../handheld/RfFlow';
import PickTasks from './PickTasks';

/** Handheld picking is the one handheld runtime's pick function (docs/handheld.md, "The runtime"). */
const HandheldPick = () => <RfFlow only="pick" />;

const TABS: ScreenTab[] = [
  { key: 'tasks', labelKey: 'outbound.pick.tasksTab', Content: PickTasks },
  { key: 'handheld', labelKey: 'outbound.pick.handheldTab', Content: HandheldPick },
];

/** /pick: pick tasks by wave or order with the pick list PDF, and handheld picking through the runtime /rfFlow. */
export default function PickScreen() {
  return <HandheldTabs testId="pick-screen" tabs={TABS} />;
}
