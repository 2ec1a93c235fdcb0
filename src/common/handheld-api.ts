/**
 * Handheld configurations (docs/handheld.md, "Configured flows"): what a configurator sets for a
 * handheld flow, the actions the code offers a step, and the answers of `/api/handheld/*`. Browser
 * and server read the same action list, so publishing refuses exactly what the runtime could not run.
 */

/** The handheld functions a configuration is for. */
export const HANDHELD_FUNCTIONS = ['receive', 'putaway', 'move', 'count', 'pick', 'pack', 'load'] as const;
export type HandheldFunction = (typeof HANDHELD_FUNCTIONS)[number];

/** The location logic rules, in the order a configuration tries them. */
export const LOCATION_RULES = ['lastLocation', 'nextEmpty', 'pick', 'storage', 'sameSku', 'itemType', 'project', 'warehouse'] as const;
export type LocationRule = (typeof LOCATION_RULES)[number];

/** The dialogs a flow may show before its scans are confirmed. */
export const DIALOG_FIELDS = ['dimension', 'volume', 'grossWeight', 'netWeight'] as const;
export type DialogField = (typeof DIALOG_FIELDS)[number];

/**
 * What a step may do with a scan: the action's name, the function it belongs to and the fields
 * of the flow it may fill (its target fields). The runtime holds the code of each action; a
 * configuration only names them.
 */
export interface HandheldAction {
  name: string;
  fn: HandheldFunction;
  targets: readonly string[];
  /** An order search action (finds the task the steps work on) or a step action. */
  kind: 'search' | 'step';
}

export const HANDHELD_ACTIONS: readonly HandheldAction[] = [
  { name: 'putaway.findTask', fn: 'putaway', targets: ['lpn'], kind: 'search' },
  { name: 'putaway.scanLpn', fn: 'putaway', targets: ['lpn'], kind: 'step' },
  { name: 'putaway.scanLocation', fn: 'putaway', targets: ['locationCode'], kind: 'step' },
  { name: 'putaway.confirmQty', fn: 'putaway', targets: ['qty'], kind: 'step' },
  { name: 'putaway.reason', fn: 'putaway', targets: ['reason'], kind: 'step' },
];

export const actionNamed = (name: string): HandheldAction | undefined => HANDHELD_ACTIONS.find((a) => a.name === name);

/** A scan of the flow: its name, the prompt shown (empty: the action's own text), the action and the field it fills. */
export interface ScanStep {
  scanName: string;
  prompt: string;
  action: string;
  targetField: string;
  /** Step settings: an optional step may be skipped with an empty scan. */
  optional?: boolean;
}

export interface DialogSetting {
  show: boolean;
  mandatory: boolean;
}

/** The configuration itself (draft or a published version). */
export interface HandheldDefinition {
  /** Flow setting: after the last step, start over at the order search (true) or stay on the task. */
  flow: { restartAfterConfirm: boolean };
  orderSearch: ScanStep | null;
  steps: ScanStep[];
  dialogs: Record<DialogField, DialogSetting>;
  /** Location logic: the rules tried in order for the suggested location. */
  locationLogic: LocationRule[];
}

const NO_DIALOG: Record<DialogField, DialogSetting> = {
  dimension: { show: false, mandatory: false },
  volume: { show: false, mandatory: false },
  grossWeight: { show: false, mandatory: false },
  netWeight: { show: false, mandatory: false },
};

/** The shipped putaway flow: today's putaway steps (scan the LPN, the location, the quantity). */
export const SHIPPED_PUTAWAY: HandheldDefinition = {
  flow: { restartAfterConfirm: true },
  orderSearch: { scanName: 'lpn', prompt: '', action: 'putaway.findTask', targetField: 'lpn' },
  steps: [
    { scanName: 'location', prompt: '', action: 'putaway.scanLocation', targetField: 'locationCode' },
    { scanName: 'qty', prompt: '', action: 'putaway.confirmQty', targetField: 'qty', optional: true },
  ],
  dialogs: NO_DIALOG,
  locationLogic: ['storage', 'sameSku', 'nextEmpty'],
};

/** The shipped configuration of a function; a function whose actions are not built yet starts empty. */
export function shippedDefinition(fn: HandheldFunction): HandheldDefinition {
  if (fn === 'putaway') return structuredClone(SHIPPED_PUTAWAY);
  return { flow: { restartAfterConfirm: true }, orderSearch: null, steps: [], dialogs: structuredClone(NO_DIALOG), locationLogic: [] };
}

export type HandheldConfigStatus = 'active' | 'inactive';

/** A row of `/handheld/config/list`. */
export interface HandheldConfigRow {
  id: number;
  code: string;
  name: string;
  fn: HandheldFunction;
  status: HandheldConfigStatus;
  publishedVersion: number | null;
  updatedAt: string;
}

/** `/handheld/config/get`: the configuration with its draft and its published versions. */
export interface HandheldConfigDetail extends HandheldConfigRow {
  draft: HandheldDefinition;
  versions: Array<{ version: number; publishedAt: string; publishedBy: string | null }>;
}

/** `/handheld/flow`: what the runtime runs for a function in the session's project and warehouse. */
export interface HandheldFlowAnswer {
  configId: number | null;
  code: string | null;
  version: number | null;
  definition: HandheldDefinition;
}

/** `/handheld/suggestLocation`: the first rule of the location logic that found a location. */
export interface SuggestLocationAnswer {
  locationCode: string | null;
  rule: LocationRule | null;
}

/** A device session of `/handheld/device/*`. */
export interface DeviceSessionRow {
  id: number;
  deviceId: string;
  login: string;
  userName: string;
  flow: string | null;
  signedInAt: string;
  lastScanAt: string | null;
}
