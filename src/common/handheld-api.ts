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
  // Putaway: the task of a scanned LPN, pallet or carton, to its suggested (or a scanned) location.
  { name: 'putaway.findTask', fn: 'putaway', targets: ['lpn'], kind: 'search' },
  { name: 'putaway.scanLpn', fn: 'putaway', targets: ['lpn'], kind: 'step' },
  { name: 'putaway.scanLocation', fn: 'putaway', targets: ['locationCode'], kind: 'step' },
  { name: 'putaway.confirmQty', fn: 'putaway', targets: ['qty'], kind: 'step' },
  { name: 'putaway.reason', fn: 'putaway', targets: ['reason'], kind: 'step' },
  // Receive: scan-in of an ASN's container (or one of its cartons), or an ASN line found by ASN number, SKU or GS1-128 label, received at a location.
  { name: 'receive.findContainer', fn: 'receive', targets: ['containerId', 'code'], kind: 'search' },
  { name: 'receive.chooseLine', fn: 'receive', targets: ['asnLineId'], kind: 'step' },
  { name: 'receive.scanCarton', fn: 'receive', targets: ['cartonId'], kind: 'step' },
  { name: 'receive.scanEpc', fn: 'receive', targets: ['epc'], kind: 'step' },
  { name: 'receive.scanCartonType', fn: 'receive', targets: ['cartonType'], kind: 'step' },
  { name: 'receive.scanAntiCounterfeit', fn: 'receive', targets: ['antiCounterfeitCode'], kind: 'step' },
  { name: 'receive.scanLocation', fn: 'receive', targets: ['locationCode'], kind: 'step' },
  { name: 'receive.enterQty', fn: 'receive', targets: ['qty'], kind: 'step' },
  { name: 'receive.scanLpn', fn: 'receive', targets: ['lpn'], kind: 'step' },
  // Move: from a scanned location, a SKU or LPN there, a quantity, to another location.
  { name: 'move.scanFrom', fn: 'move', targets: ['fromLocation'], kind: 'search' },
  { name: 'move.scanItem', fn: 'move', targets: ['sku', 'lpn'], kind: 'step' },
  { name: 'move.enterQty', fn: 'move', targets: ['qty'], kind: 'step' },
  { name: 'move.scanTo', fn: 'move', targets: ['toLocation'], kind: 'step' },
  { name: 'move.reason', fn: 'move', targets: ['reason'], kind: 'step' },
  // Pack: an order's picked items scanned into a carton of a carton type, closed with its weights.
  { name: 'pack.findOrder', fn: 'pack', targets: ['orderNo'], kind: 'search' },
  { name: 'pack.scanCartonType', fn: 'pack', targets: ['cartonType'], kind: 'step' },
  { name: 'pack.scanItem', fn: 'pack', targets: ['sku'], kind: 'step' },
  { name: 'pack.enterQty', fn: 'pack', targets: ['qty'], kind: 'step' },
  // Load: closed cartons and pallets (number or SSCC) scanned onto an open load.
  { name: 'load.findLoad', fn: 'load', targets: ['loadNo'], kind: 'search' },
  { name: 'load.scanWave', fn: 'load', targets: ['waveNo'], kind: 'step' },
  { name: 'load.scanCarton', fn: 'load', targets: ['code'], kind: 'step' },
  // Count: a count ticket, blind: the location, the SKU or LPN, the quantity counted.
  { name: 'count.findTicket', fn: 'count', targets: ['ticketNo'], kind: 'search' },
  { name: 'count.scanLocation', fn: 'count', targets: ['locationCode'], kind: 'step' },
  { name: 'count.scanItem', fn: 'count', targets: ['sku', 'lpn'], kind: 'step' },
  { name: 'count.enterQty', fn: 'count', targets: ['qty'], kind: 'step' },
  // Pick: the open pick tasks of a task, order or wave: the location, the SKU, the quantity, the tote, a short pick's reason and where its rest goes.
  { name: 'pick.findTask', fn: 'pick', targets: ['code'], kind: 'search' },
  { name: 'pick.scanLocation', fn: 'pick', targets: ['locationCode'], kind: 'step' },
  { name: 'pick.scanItem', fn: 'pick', targets: ['sku'], kind: 'step' },
  { name: 'pick.confirmQty', fn: 'pick', targets: ['qty'], kind: 'step' },
  { name: 'pick.scanTote', fn: 'pick', targets: ['toLpn'], kind: 'step' },
  { name: 'pick.shortReason', fn: 'pick', targets: ['reason'], kind: 'step' },
  { name: 'pick.shortRest', fn: 'pick', targets: ['rest'], kind: 'step' },
];

/**
 * Where the rest of a short pick goes (the step `pick.shortRest`, or the question after the
 * reason): looked for elsewhere (allocated again from other stock, a new task; the default) or
 * given back (unallocated).
 */
export const PICK_REST_CHOICES = ['elsewhere', 'giveBack'] as const;
export type PickRest = (typeof PICK_REST_CHOICES)[number];

/** The functions the runtime runs (it holds the actions of each); the others are configured only. */
export const RUNTIME_FUNCTIONS = ['receive', 'putaway', 'move', 'count', 'pick', 'pack', 'load'] as const satisfies readonly HandheldFunction[];
export type RuntimeFunction = (typeof RUNTIME_FUNCTIONS)[number];
export const isRuntimeFunction = (fn: string): fn is RuntimeFunction => (RUNTIME_FUNCTIONS as readonly string[]).includes(fn);

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

/** A scan of a shipped flow, with no prompt of its own (the action's text is shown). */
function scan(scanName: string, action: string, targetField: string, optional?: true): ScanStep {
  return optional ? { scanName, prompt: '', action, targetField, optional } : { scanName, prompt: '', action, targetField };
}

/**
 * A shipped flow: its order search and steps, whether it starts over after the last step, and the
 * rules of the suggested location; it shows no dialog.
 */
function shippedFlow(restartAfterConfirm: boolean, orderSearch: ScanStep | null, steps: ScanStep[], locationLogic: LocationRule[] = []): HandheldDefinition {
  return { flow: { restartAfterConfirm }, orderSearch, steps, dialogs: NO_DIALOG, locationLogic };
}

/** The shipped putaway flow: today's putaway steps (scan the LPN, the location, the quantity). */
export const SHIPPED_PUTAWAY = shippedFlow(true, scan('lpn', 'putaway.findTask', 'lpn'), [
  scan('location', 'putaway.scanLocation', 'locationCode'),
  scan('qty', 'putaway.confirmQty', 'qty', true),
], ['storage', 'sameSku', 'nextEmpty']);

/**
 * The shipped receive flow, one configuration for both ways of receiving: a container's carton
 * scanned in (EPC, carton type, anti-counterfeit code) or an ASN line (chosen when several match
 * the ASN number, SKU or GS1-128 label scanned; its quantity, skipped: the label's count), received
 * at a location with an optional LPN. Each way passes over the steps of the other.
 */
export const SHIPPED_RECEIVE = shippedFlow(false, scan('container', 'receive.findContainer', 'containerId'), [
  scan('line', 'receive.chooseLine', 'asnLineId'),
  scan('carton', 'receive.scanCarton', 'cartonId'),
  scan('epc', 'receive.scanEpc', 'epc'),
  scan('cartonType', 'receive.scanCartonType', 'cartonType'),
  scan('antiCounterfeit', 'receive.scanAntiCounterfeit', 'antiCounterfeitCode', true),
  scan('location', 'receive.scanLocation', 'locationCode'),
  scan('qty', 'receive.enterQty', 'qty', true),
  scan('lpn', 'receive.scanLpn', 'lpn', true),
]);

/** The shipped move flow: the from-location, the SKU, the quantity (skip: all that is free), the to-location. */
export const SHIPPED_MOVE = shippedFlow(true, scan('from', 'move.scanFrom', 'fromLocation'), [
  scan('sku', 'move.scanItem', 'sku'),
  scan('qty', 'move.enterQty', 'qty', true),
  scan('to', 'move.scanTo', 'toLocation'),
]);

/** The shipped count flow: the ticket, then per line the location, the SKU and the quantity counted, blind. */
export const SHIPPED_COUNT = shippedFlow(false, scan('ticket', 'count.findTicket', 'ticketNo'), [
  scan('location', 'count.scanLocation', 'locationCode'),
  scan('sku', 'count.scanItem', 'sku'),
  scan('qty', 'count.enterQty', 'qty'),
]);

/**
 * The shipped pick flow: a task, order or wave, then per task the location, the SKU, the quantity
 * picked (skip: all of the task; less asks for the reason) and the tote; it stays on the order or
 * wave while tasks are left.
 */
export const SHIPPED_PICK: HandheldDefinition = {
  flow: { restartAfterConfirm: false },
  orderSearch: { scanName: 'order', prompt: '', action: 'pick.findTask', targetField: 'code' },
  steps: [
    { scanName: 'location', prompt: '', action: 'pick.scanLocation', targetField: 'locationCode' },
    { scanName: 'sku', prompt: '', action: 'pick.scanItem', targetField: 'sku' },
    { scanName: 'qty', prompt: '', action: 'pick.confirmQty', targetField: 'qty', optional: true },
    { scanName: 'tote', prompt: '', action: 'pick.scanTote', targetField: 'toLpn', optional: true },
  ],
  dialogs: NO_DIALOG,
  locationLogic: [],
};

/**
 * The shipped pack flow: the order, then per carton the carton type (passed over while a carton is
 * open), the items with their quantities (each packed as it is confirmed), and a skipped item closes
 * the carton with its gross and net weight and dimensions; the order is checked complete once all
 * that is picked is packed.
 */
export const SHIPPED_PACK: HandheldDefinition = {
  flow: { restartAfterConfirm: false },
  orderSearch: { scanName: 'order', prompt: '', action: 'pack.findOrder', targetField: 'orderNo' },
  steps: [
    { scanName: 'cartonType', prompt: '', action: 'pack.scanCartonType', targetField: 'cartonType', optional: true },
    { scanName: 'item', prompt: '', action: 'pack.scanItem', targetField: 'sku', optional: true },
    { scanName: 'qty', prompt: '', action: 'pack.enterQty', targetField: 'qty', optional: true },
  ],
  dialogs: {
    dimension: { show: true, mandatory: false },
    volume: { show: false, mandatory: false },
    grossWeight: { show: true, mandatory: true },
    netWeight: { show: true, mandatory: true },
  },
  locationLogic: [],
};

/** The shipped load flow: the load, then its cartons and pallets one scan each, staying on the load. */
export const SHIPPED_LOAD: HandheldDefinition = {
  flow: { restartAfterConfirm: false },
  orderSearch: { scanName: 'load', prompt: '', action: 'load.findLoad', targetField: 'loadNo' },
  steps: [{ scanName: 'carton', prompt: '', action: 'load.scanCarton', targetField: 'code' }],
  dialogs: NO_DIALOG,
  locationLogic: [],
};

const SHIPPED: Partial<Record<HandheldFunction, HandheldDefinition>> = {
  receive: SHIPPED_RECEIVE,
  putaway: SHIPPED_PUTAWAY,
  move: SHIPPED_MOVE,
  count: SHIPPED_COUNT,
  pick: SHIPPED_PICK,
  pack: SHIPPED_PACK,
  load: SHIPPED_LOAD,
};

/** The shipped configuration of a function; a function whose actions are not built yet starts empty. */
export function shippedDefinition(fn: HandheldFunction): HandheldDefinition {
  const shipped = SHIPPED[fn];
  if (shipped) return structuredClone(shipped);
  return structuredClone(shippedFlow(true, null, []));
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

const DECIMAL = String.raw`\d{1,12}(?:[.,]\d{1,4})?`;
/** A dimension dialog value: one measure, or length × width × height (`x`, `×` or `*` between). */
export const DIMENSION_PATTERN = `^\\s*${DECIMAL}(?:\\s*[xX×*]\\s*${DECIMAL}\\s*[xX×*]\\s*${DECIMAL})?\\s*$`;

/** The measures of a dimension value (one, or length, width and height), as decimal texts; null when it is none or one is not above 0. */
export function parseDimension(text: string): string[] | null {
  if (!new RegExp(DIMENSION_PATTERN).test(text)) return null;
  const measures = text.trim().split(/\s*[xX×*]\s*/).map((m) => m.replace(',', '.'));
  return measures.every((m) => Number(m) > 0) ? measures : null;
}

/** A value entered in a dialog: a number above 0; the dimension also as length × width × height. */
export function dialogValueValid(field: DialogField, text: string): boolean {
  if (field === 'dimension') return parseDimension(text) !== null;
  return Number(text.trim()) > 0;
}

/** The values of a flow's dialogs entered on the handheld (decimal texts; a dialog not asked or left empty is absent). */
export type DialogValues = Partial<Record<DialogField, string>>;

/** A row of `/handheld/scanValue/list`: the dialog values stored with a confirmation, by its idempotency key. */
export interface ScanValueRow {
  id: number;
  scanKey: string;
  fn: HandheldFunction;
  /** What the flow confirmed (the confirmation's request) and the server's answer to it. */
  subject: Record<string, unknown>;
  answer: unknown;
  values: DialogValues;
  login: string;
  createdAt: string;
}
