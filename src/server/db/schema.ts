import type { ColumnType, Generated } from 'kysely';

/** Columns every business table carries (DESIGN.md section 4). */
export interface Audit {
  created_at: Generated<Date>;
  created_by: string | null;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

export type Id = Generated<number>;
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface OrganizationTable extends Audit {
  id: Id;
  code: string;
  name: string;
}

export interface ProjectTable extends Audit {
  id: Id;
  organization_id: number;
  code: string;
  name: string;
  nav_layout: Generated<'left' | 'top'>;
  /** Migration 0020. */
  description: string | null;
  active: Generated<boolean>;
}

export interface WarehouseTable extends Audit {
  id: Id;
  organization_id: number;
  code: string;
  name: string;
  nav_layout: 'left' | 'top' | null;
  time_zone: Generated<string>;
  /** Migration 0020 (the /whs page). */
  description: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  country: string | null;
  postal: string | null;
  contact_name: string | null;
  phone: string | null;
  email: string | null;
  active: Generated<boolean>;
}

export interface ProjectWarehouseTable {
  project_id: number;
  warehouse_id: number;
}

export interface AppUserTable extends Audit {
  id: Id;
  login_account: string;
  display_name: string;
  email: string | null;
  password_hash: string;
  language: Generated<string>;
  time_zone: Generated<string>;
  is_admin: Generated<boolean>;
  enabled: Generated<boolean>;
  // 0002_access: profile (spec section 3 "User"), lockout, default scope, two-step settings.
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  title: string | null;
  gender: 'male' | 'female' | null;
  company: string | null;
  department: string | null;
  position: string | null;
  telephone: string | null;
  city: string | null;
  address1: string | null;
  address2: string | null;
  address3: string | null;
  address4: string | null;
  postal: string | null;
  street: string | null;
  district: string | null;
  latitude: string | null;
  longitude: string | null;
  country: string | null;
  alias_name: string | null;
  failed_logins: Generated<number>;
  locked_until: Timestamp | null;
  default_project_id: number | null;
  default_warehouse_id: number | null;
  two_step_email: Generated<boolean>;
  two_step_sms: Generated<boolean>;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_last_counter: number | null;
  password_changed_at: Timestamp | null;
}

// --- Access model, sessions and notifications (0002_access, 0003_sys_module; issue 3) ---

export interface UserOrganizationTable {
  user_id: number;
  organization_id: number;
}

export interface UserProjectTable {
  user_id: number;
  project_id: number;
}

export interface UserWarehouseTable {
  user_id: number;
  warehouse_id: number;
}

export interface SysModuleTable extends Audit {
  id: Id;
  code: string;
  parent_code: string | null;
  title_key: string;
  route: string | null;
  /** The right whose view shows the entry; null means the entry's own code. */
  right_name: string | null;
  sequence: Generated<number>;
  enabled: Generated<boolean>;
}

export interface RoleTable extends Audit {
  id: Id;
  name: string;
  role_type: Generated<string>;
  role_level: Generated<number>;
  description: string | null;
  enabled: Generated<boolean>;
}

export interface RolePermissionTable {
  id: Id;
  role_id: number;
  module_code: string;
  sub_module_code: string | null;
  can_view: Generated<boolean>;
  can_add: Generated<boolean>;
  can_edit: Generated<boolean>;
  can_delete: Generated<boolean>;
}

export interface AccessRuleTable extends Audit {
  id: Id;
  name: string;
  rule_type: string;
  description: string | null;
}

export interface RoleRuleTable {
  role_id: number;
  rule_id: number;
}

export interface UserRoleTable {
  user_id: number;
  role_id: number;
}

export interface UserSessionTable {
  id: Id;
  token_hash: string;
  user_id: number;
  simulated_user_id: number | null;
  project_id: number | null;
  warehouse_id: number | null;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  last_seen_at: Generated<Date>;
  revoked_at: Timestamp | null;
  ip: string | null;
  user_agent: string | null;
}

export interface TwoStepChallengeTable {
  id: Id;
  challenge_hash: string;
  user_id: number;
  method: 'sms' | 'email' | 'totp' | null;
  code_hash: string | null;
  code_expires_at: Timestamp | null;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface TrustedBrowserTable {
  id: Id;
  token_hash: string;
  user_id: number;
  label: string | null;
  ip: string | null;
  created_at: Generated<Date>;
  last_used_at: Timestamp | null;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface VerificationCodeTable {
  id: Id;
  purpose: 'register' | 'reset';
  email: string;
  user_id: number | null;
  code_hash: string;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface OutboxMessageTable extends Audit {
  id: Id;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  body: string;
  status: 'stored' | 'sent' | 'failed';
  error: string | null;
}

export interface AuditLogTable {
  id: Id;
  at: Generated<Date>;
  actor_user_id: number | null;
  action: string;
  target_user_id: number | null;
  details: ColumnType<unknown, string | null, string | null> | null;
}

/** A numeric column: read as a string for decimal.js, written as a string or an integer. */
export type Numeric = ColumnType<string, string | number, string | number>;
export type NullableNumeric = ColumnType<string | null, string | number | null | undefined, string | number | null>;

/** Master data (migration 0020; issue 5, part 4). */
export interface OwnerTable extends Audit {
  id: Id;
  project_id: number;
  code: string;
  name: string;
  short_name: string | null;
  contact_name: string | null;
  phone: string | null;
  email: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  country: string | null;
  postal: string | null;
  active: Generated<boolean>;
}

export interface SkuTable extends Audit {
  id: Id;
  project_id: number;
  owner_id: number;
  code: string;
  description: string;
  description2: string | null;
  sku_group: string | null;
  base_uom: Generated<string>;
  inner_qty: NullableNumeric;
  case_qty: NullableNumeric;
  pallet_cases: NullableNumeric;
  length_cm: NullableNumeric;
  width_cm: NullableNumeric;
  height_cm: NullableNumeric;
  volume_cm3: NullableNumeric;
  gross_weight_kg: NullableNumeric;
  net_weight_kg: NullableNumeric;
  shelf_life_days: number | null;
  inbound_min_days: number | null;
  outbound_min_days: number | null;
  expiry_control: Generated<boolean>;
  lot_control: Generated<boolean>;
  serial_control: Generated<boolean>;
  unit_price: NullableNumeric;
  currency_code: string | null;
  active: Generated<boolean>;
}

export interface SkuUpcTable extends Audit {
  id: Id;
  project_id: number;
  sku_id: number;
  upc: string;
  uom: Generated<string>;
  qty: ColumnType<string, string | number | undefined, string | number>;
  is_default: Generated<boolean>;
}

export type PartnerType = 'supplier' | 'consignee' | 'carrier';

export interface PartnerTable extends Audit {
  id: Id;
  project_id: number;
  partner_type: PartnerType;
  code: string;
  name: string;
  contact_name: string | null;
  phone: string | null;
  email: string | null;
  address1: string | null;
  address2: string | null;
  address3: string | null;
  address4: string | null;
  city: string | null;
  province: string | null;
  country: string | null;
  postal: string | null;
  active: Generated<boolean>;
}

export type LocationType = 'storage' | 'pick' | 'stage' | 'dock' | 'qc' | 'damage' | 'virtual';

export interface LocationTable extends Audit {
  id: Id;
  warehouse_id: number;
  code: string;
  description: string | null;
  location_type: Generated<LocationType>;
  zone: string | null;
  aisle: string | null;
  bay: string | null;
  level: string | null;
  position: string | null;
  pick_seq: number | null;
  max_volume_cm3: NullableNumeric;
  max_weight_kg: NullableNumeric;
  max_pallets: number | null;
  mix_sku: Generated<boolean>;
  mix_lot: Generated<boolean>;
  status: Generated<'active' | 'hold' | 'inactive'>;
}

export interface SysParamTable extends Audit {
  id: Id;
  organization_id: number | null;
  param_code: string;
  param_value: string | null;
  description: string | null;
}

export interface MultTextTable extends Audit {
  id: Id;
  text_code: string;
  text_en: string | null;
  text_zh: string | null;
  text_zh_tw: string | null;
  text_kor: string | null;
  text_th: string | null;
  text_jp: string | null;
}

export interface CodeMasterTable extends Audit {
  id: Id;
  code_type: string;
  code: string;
  sort_seq: Generated<number>;
  desc_en: string | null;
  desc_zh: string | null;
  desc_zh_tw: string | null;
  desc_kor: string | null;
  desc_th: string | null;
  desc_jp: string | null;
  active: Generated<boolean>;
}

export interface CurrencyTable extends Audit {
  id: Id;
  code: string;
  description: string;
  symbol: string | null;
  decimals: Generated<number>;
  active: Generated<boolean>;
}

export type InvCodeType = 'adjust' | 'hold' | 'move' | 'transfer' | 'count' | 'status';

export interface InvCodeTable extends Audit {
  id: Id;
  code_type: InvCodeType;
  code: string;
  description: string;
  requires_approval: Generated<boolean>;
  active: Generated<boolean>;
}

export interface RfUserTable extends Audit {
  id: Id;
  warehouse_id: number;
  user_id: number;
  zone: string | null;
  task_types: string | null;
  default_location: string | null;
  active: Generated<boolean>;
}

export type IdDatePattern = '' | 'YYYY' | 'YY' | 'YYYYMM' | 'YYMM' | 'YYYYMMDD' | 'YYMMDD';
export type IdResetPeriod = 'never' | 'daily' | 'monthly' | 'yearly';
export type IdScopeLevel = 'global' | 'warehouse' | 'project';

export interface IdRuleTable extends Audit {
  id: Id;
  rule_code: string;
  description: string | null;
  prefix: Generated<string>;
  date_pattern: Generated<IdDatePattern>;
  sequence_length: Generated<number>;
  reset_period: Generated<IdResetPeriod>;
  scope_level: Generated<IdScopeLevel>;
  active: Generated<boolean>;
}

export interface IdRuleCounterTable extends Audit {
  rule_id: number;
  scope_id: Generated<number>;
  period_key: Generated<string>;
  current_value: number;
}

export interface VehicleTable extends Audit {
  id: Id;
  warehouse_id: number;
  plate_no: string;
  vehicle_type: string | null;
  carrier_code: string | null;
  capacity_weight_kg: NullableNumeric;
  capacity_volume_m3: NullableNumeric;
  active: Generated<boolean>;
}

export interface DriverTable extends Audit {
  id: Id;
  warehouse_id: number;
  code: string;
  name: string;
  phone: string | null;
  license_no: string | null;
  license_expiry: string | null;
  vehicle_id: number | null;
  active: Generated<boolean>;
}

/** How often a user opened a page (migration 0030): the home page's most used pages. */
export interface PageVisitTable extends Audit {
  user_id: number;
  route: string;
  visits: Generated<number>;
  last_visited_at: Generated<Date>;
}

/** The designer's audit trail (migration 0040; issue 6): who changed which definition, when, what. */
export interface DesignerAuditTable {
  id: Id;
  at: Generated<Date>;
  user_id: number | null;
  login_account: string;
  project_id: number | null;
  action: string;
  module_code: string | null;
  function_code: string | null;
  version: number | null;
  details: ColumnType<unknown, string | null, string | null> | null;
}

/** One stored version of a page definition (migration 0010; DESIGN.md section 6). */
export interface PageDefinitionTable extends Audit {
  id: Id;
  /** null: a shipped default synced from definitions/. */
  project_id: number | null;
  module_code: string;
  function_code: string;
  version: number;
  status: 'draft' | 'published' | 'inactive';
  /** jsonb: written as JSON text, read as the parsed document. */
  content: ColumnType<unknown, string, string>;
  content_hash: string;
}

/** Migration 0051: wrong sign-ins by address and account name (issue 9, item 7). */
export interface LoginFailureTable {
  id: Id;
  ip: string;
  login_account: string;
  at: Generated<Date>;
}

export interface DB {
  organization: OrganizationTable;
  project: ProjectTable;
  warehouse: WarehouseTable;
  project_warehouse: ProjectWarehouseTable;
  app_user: AppUserTable;
  user_organization: UserOrganizationTable;
  user_project: UserProjectTable;
  user_warehouse: UserWarehouseTable;
  sys_module: SysModuleTable;
  role: RoleTable;
  role_permission: RolePermissionTable;
  access_rule: AccessRuleTable;
  role_rule: RoleRuleTable;
  user_role: UserRoleTable;
  user_session: UserSessionTable;
  two_step_challenge: TwoStepChallengeTable;
  trusted_browser: TrustedBrowserTable;
  verification_code: VerificationCodeTable;
  outbox_message: OutboxMessageTable;
  audit_log: AuditLogTable;
  owner: OwnerTable;
  sku: SkuTable;
  sku_upc: SkuUpcTable;
  partner: PartnerTable;
  location: LocationTable;
  sys_param: SysParamTable;
  mult_text: MultTextTable;
  code_master: CodeMasterTable;
  currency: CurrencyTable;
  inv_code: InvCodeTable;
  rf_user: RfUserTable;
  id_rule: IdRuleTable;
  id_rule_counter: IdRuleCounterTable;
  vehicle: VehicleTable;
  driver: DriverTable;
  page_visit: PageVisitTable;
  designer_audit: DesignerAuditTable;
  page_definition: PageDefinitionTable;
  login_failure: LoginFailureTable;
}
