import type { ColumnType, Generated } from 'kysely';
import type { Audit, Id, Numeric, NullableDate, NullableNumeric, NullableTimestamp } from '../../db/schema.js';

/** The billing area's tables; migrations 0360, 0362, 0365 and 0368 create them (billing_line_source is a view since 0365). */
declare module '../../db/schema.js' {
  interface DB {
    charge_code: ChargeCodeTable;
    billing_contract: BillingContractTable;
    billing_tariff: BillingTariffTable;
    billing_header: BillingHeaderTable;
    billing_line: BillingLineTable;
    billing_line_source: BillingLineSourceTable;
    billing_run_event: BillingRunEventTable;
    billing_line_excluded: BillingLineExcludedTable;
    billing_event_billed: BillingEventBilledTable;
    exchange_rate: ExchangeRateTable;
    billing_run: BillingRunTable;
  }
}

type DateOnly = ColumnType<string, string, string>;

export const CHARGE_TYPES = ['storage', 'inbound', 'outbound', 'vas', 'fixed', 'minimum'] as const;
export type ChargeType = (typeof CHARGE_TYPES)[number];
export const CHARGE_METHODS = ['per_unit', 'per_carton', 'per_pallet', 'per_order', 'per_line', 'per_cbm', 'per_kg', 'per_pallet_day', 'fixed'] as const;
export type ChargeMethod = (typeof CHARGE_METHODS)[number];
export const BILL_BASES = ['received_qty', 'shipped_qty', 'on_hand_snapshot', 'orders', 'lines', 'none'] as const;
export type BillBase = (typeof BILL_BASES)[number];
export type BillStatus = 'draft' | 'confirmed' | 'posted';
export type SourceKind = 'ledger' | 'order' | 'snapshot' | 'period';

export interface ChargeCodeTable extends Audit {
  id: Id;
  project_id: number;
  code: string;
  description: string;
  charge_type: ChargeType;
  account_code: string | null;
  active: Generated<boolean>;
}

export interface BillingContractTable extends Audit {
  id: Id;
  project_id: number;
  contract_no: string;
  owner_id: number;
  description: string | null;
  currency_code: string;
  valid_from: DateOnly;
  valid_to: NullableDate;
  active: Generated<boolean>;
}

export interface BillingTariffTable extends Audit {
  id: Id;
  project_id: number;
  contract_id: number;
  line_no: number;
  charge_code_id: number;
  description: string | null;
  charge_method: ChargeMethod;
  bill_base: BillBase;
  bill_unit: string | null;
  rate: Numeric;
  overflow_threshold: NullableNumeric;
  overflow_rate: NullableNumeric;
  min_charge: NullableNumeric;
  account_code: string | null;
  currency_code: string | null;
  valid_from: DateOnly;
  valid_to: NullableDate;
}

export interface BillingHeaderTable extends Audit {
  id: Id;
  project_id: number;
  bill_id: string;
  owner_id: number;
  contract_id: number;
  status: ColumnType<BillStatus, BillStatus | undefined, BillStatus>;
  cutoff_date: DateOnly;
  period_from: DateOnly;
  period_to: DateOnly;
  confirm_date: NullableTimestamp;
  post_date: NullableTimestamp;
  invoice_no: string | null;
  invoice_date: NullableDate;
  bill_to_name: string | null;
  address1: string | null;
  address2: string | null;
  address3: string | null;
  address4: string | null;
  city: string | null;
  province: string | null;
  country: string | null;
  zip: string | null;
  contact: string | null;
  phone: string | null;
  fax: string | null;
  email: string | null;
  currency_code: string;
  exchange_rate: ColumnType<string, string | number | undefined, string | number>;
  total_amount: ColumnType<string, string | number | undefined, string | number>;
  /** The bill currency (the contract's unless the run asked for another) and the total in it. */
  local_currency_code: string;
  local_total_amount: ColumnType<string, string | number | undefined, string | number>;
}

export interface BillingLineTable extends Audit {
  id: Id;
  project_id: number;
  header_id: number;
  line_no: number;
  tariff_id: number | null;
  charge_code_id: number;
  charge_code: string;
  description: string | null;
  charge_method: string;
  bill_base: string;
  qty: Numeric;
  unit: string | null;
  rate: Numeric;
  amount: Numeric;
  currency_code: string;
  /** The amount in the bill currency: the base amount (`amount`, contract currency) times the bill's rate, rounded to its decimals. */
  local_amount: Numeric;
  account_code: string | null;
  reference: string | null;
  /** The group of run events the line counted (`receive`, `ship`, `snapshot`, `order`, `period`); none for overflow and minimum lines. */
  event_group: string | null;
}

/** A view (migration 0365): per bill line, each event it counted with the quantity it added under the line's charge method. */
export interface BillingLineSourceTable {
  id: Id;
  project_id: number;
  header_id: number;
  line_id: number;
  source_kind: SourceKind;
  source_id: number;
  source_day: NullableDate;
  source_ref: string | null;
  qty: Numeric;
}

/** An event a run counted, once per run (migration 0365), with the figures the charge methods measure it by. */
export interface BillingRunEventTable {
  id: Generated<number>;
  project_id: number;
  header_id: number;
  event_group: string;
  source_kind: SourceKind;
  source_id: number;
  source_day: NullableDate;
  source_ref: string | null;
  units: Numeric;
  first_of_order: Generated<boolean>;
  order_lines: number | null;
  case_qty: NullableNumeric;
  pallet_qty: NullableNumeric;
  m3_per_unit: NullableNumeric;
  kg_per_unit: NullableNumeric;
  pallets: NullableNumeric;
  cbm: NullableNumeric;
  weight_kg: NullableNumeric;
}

/** An event of its group a bill line did not count: a confirmed bill had billed it under the line's charge code. */
export interface BillingLineExcludedTable {
  line_id: number;
  event_id: number;
}

export interface BillingEventBilledTable {
  project_id: number;
  charge_code_id: number;
  source_kind: SourceKind;
  source_id: number;
  header_id: number;
  billed_at: Generated<Date>;
}

/** The rate of `from_currency` into `to_currency` from `rate_date` on (until a later rate of the pair). */
export interface ExchangeRateTable extends Audit {
  id: Id;
  project_id: number;
  from_currency: string;
  to_currency: string;
  rate_date: DateOnly;
  rate: Numeric;
}

export type RunStatus = 'running' | 'done' | 'failed' | 'abandoned';

/** A billing run as every server sees it (migration 0368): who started it, its stage and percent, how it ended. */
export interface BillingRunTable extends Audit {
  id: Id;
  project_id: number;
  owner_id: number;
  bill_id: string;
  /** The server (process) running it. */
  node: string;
  status: ColumnType<RunStatus, RunStatus | undefined, RunStatus>;
  stage: ColumnType<string, string | undefined, string>;
  done: ColumnType<number, number | undefined, number>;
  total: ColumnType<number, number | undefined, number>;
  percent: ColumnType<number, number | undefined, number>;
  /** The run's transaction holds the customer's advisory lock. */
  locked: ColumnType<boolean, boolean | undefined, boolean>;
  started_at: Generated<Date>;
  /** The last word of the server running it. */
  heartbeat_at: Generated<Date>;
  finished_at: NullableTimestamp;
  header_id: number | null;
  error_code: string | null;
}
