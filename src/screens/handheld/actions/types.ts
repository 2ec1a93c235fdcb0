import type { TFunction } from 'i18next';
import type { DialogValues, HandheldDefinition, RuntimeFunction, ScanStep } from '../../../common/handheld-api';
import type { LookupKind } from '../../inventory/lookup';

/**
 * The actions of the handheld runtime (docs/handheld.md, "Configured flows"): per function, what
 * its order search and each of its step actions do with a scan, and its confirmation. /rfFlow runs
 * them in the order, with the prompts and dialogs, that the published configuration says.
 */

/** What the scans of one task filled so far: the target fields of the actions, and what the actions keep beside them. */
export type Fields = Record<string, string>;

/** A value of the confirmation's request, as stored with the dialog values. */
export type SubjectValue = string | number | boolean | null;

export interface FlowContext {
  t: TFunction;
  definition: HandheldDefinition;
}

export interface TaskContext<Task> extends FlowContext {
  task: Task;
  fields: Fields;
}

export interface StepContext<Task> extends TaskContext<Task> {
  step: ScanStep;
  index: number;
}

/** One answer of a question or step offered as a button instead of a scan (the first is the default, taken with Enter). */
export interface Choice {
  value: string;
  label: string;
}

/** A question the runtime asks after a step: typed or scanned into `field`, or one of `choices` when it has them. */
export interface Question {
  field: string;
  prompt: string;
  choices?: Choice[];
}

/**
 * What a step did with its scan: the fields it filled (none: the scan fills the step's target
 * field as scanned), the questions the runtime asks next, in order (e.g. a short pick's reason,
 * then where the rest comes from), or a refusal shown to the operator (the step is asked again).
 */
export type StepOutcome = { fields?: Fields; ask?: Question | Question[]; warning?: string } | { error: string };

/** What the confirmation did. */
export interface ConfirmOutcome<Task> {
  /** Kept in the offline queue (the server was out of reach). */
  queued: boolean;
  /** The line told to the operator. */
  message: string;
  /** The line is a warning (e.g. a short pick) rather than a success. */
  warning?: boolean;
  /** What is left of the task to work on (the runtime stays on it unless the flow starts over), or null when it is done. */
  left: { task: Task; fields: Fields } | null;
  /** The confirmation's request: stored with the dialog values. */
  subject: Record<string, SubjectValue>;
}

/**
 * The task the order search (or a task tapped in the list) found, and the fields it fills; a
 * warning told with it (e.g. its stock could not be looked up offline), and a question asked
 * before the first step (e.g. the LPN of a task tapped instead of scanned).
 */
export interface Found<Task> {
  task: Task;
  fields: Fields;
  warning?: string;
  ask?: Question;
}

/** What the runtime shows of the task: a few lines, and the suggested location when the function has one. */
export interface TaskView {
  lines: string[];
  suggested?: string | null;
}

/**
 * An open task offered under the order search, for work with nothing to scan (e.g. stock received
 * without an LPN, a count ticket on the supervisor's list): tapped, `open` gives its task as the
 * order search would.
 */
export interface ListedTask<Task> {
  key: string;
  label: string;
  open: () => Promise<Found<Task>>;
}

/** The type-ahead of a scan: the location or SKU codes that start with what is typed, offered to tap (`only`: those codes alone). */
export interface ScanLookup {
  kind: LookupKind;
  only?: readonly string[];
}

export interface FlowActions<Task> {
  fn: RuntimeFunction;
  /** The order search: the task of the scanned code, and the fields it fills. */
  search: (code: string, context: FlowContext) => Promise<Found<Task>>;
  /** The open tasks offered under the order search, read each time the search is shown (offline: the last list stays); none: no list. */
  list?: (context: FlowContext) => Promise<ListedTask<Task>[]>;
  /** The task read again when scans waiting in the offline queue were applied (e.g. the count ticket); none: it stays as the handheld knows it. */
  refresh?: (task: Task) => Promise<Task>;
  /** The type-ahead offered while the scan of an action (a step's or the order search's) is typed; none or null: none. */
  lookup?: (action: string, context: FlowContext & { task: Task | null; fields: Fields }) => ScanLookup | null;
  /** The step actions by name (`<fn>.<action>`, as in HANDHELD_ACTIONS). */
  steps: Record<string, (value: string, context: StepContext<Task>) => StepOutcome | Promise<StepOutcome>>;
  /** Before the confirmation: a field still missing sends the operator back to the step (by action) that fills it. */
  missing?: (context: TaskContext<Task>) => { action: string; error: string } | null;
  /** The confirmation, sent through the offline queue with the idempotency key `key`, with the values entered in the dialogs. */
  confirm: (context: TaskContext<Task> & { key: string; dialog: DialogValues }) => Promise<ConfirmOutcome<Task>>;
  /** A step the task does not need now is passed over (e.g. pack's carton type while a carton is open); none: every step is asked. */
  skipStep?: (step: ScanStep, context: TaskContext<Task>) => boolean;
  /** A step answered with a button rather than a scan: its choices (the first the default); none or null: the step is scanned. */
  choices?: (step: ScanStep, context: TaskContext<Task>) => Choice[] | null;
  /** Whether the dialogs are asked before this confirmation (e.g. pack's weights only when the carton is closed); none: always. */
  asksDialogs?: (context: TaskContext<Task>) => boolean;
  view: (context: TaskContext<Task>) => TaskView;
  /** The value proposed in a step's scan field, selected so that a scan replaces it (e.g. the quantity of a move's label); none or null: empty. */
  proposed?: (step: ScanStep, context: TaskContext<Task>) => string | null;
  /** The parameters of the actions' own prompts (e.g. the quantity of the task). */
  promptParams?: (context: TaskContext<Task>) => Record<string, string | number>;
}

/**
 * A confirmation the server refused because of what a step scanned (an item not on the order, more
 * than is left to pack, a carton already loaded): its message is shown and that step (by action) is
 * asked again.
 */
export class StepRefusal extends Error {
  constructor(
    message: string,
    readonly action: string,
    /** What the confirmation filled before it was refused (e.g. the carton it opened), kept for the next try. */
    readonly fields: Fields = {},
  ) {
    super(message);
  }
}

/** Erases a flow's task type, for the one table of actions. */
export const defineFlow = <Task>(flow: FlowActions<Task>): FlowActions<unknown> => flow as unknown as FlowActions<unknown>;

/** A quantity typed on the handheld: a decimal above 0 (or 0 when `zero`). */
export function isQty(value: string, zero = false): boolean {
  if (!/^\d+(\.\d{1,4})?$/.test(value.trim())) return false;
  return zero ? Number(value) >= 0 : Number(value) > 0;
}
