import type { ColumnType, Generated } from 'kysely';
import type { Audit, ContactAddress, Id, NullableNumeric } from '../../db/schema.js';

/** The tables of the masterdata area; its migrations create them. */
declare module '../../db/schema.js' {
  interface DB {
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
  }
}

/** Master data (migration 0020; part 4). */
export interface OwnerTable extends Audit, ContactAddress {
  id: Id;
  project_id: number;
  code: string;
  name: string;
  short_name: string | null;
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
  /** A gift needs no anti-counterfeit code when its cartons are scanned in. */
  gift: Generated<boolean>;
  /** Each unit carries an anti-counterfeit code, scanned as it is packed (unless it is a gift). */
  anti_counterfeit: Generated<boolean>;
  /** The barcode the item's woolen collar must carry when packed: a value, or a pattern with `*` and `?`. */
  collar_barcode: string | null;
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

export interface PartnerTable extends Audit, ContactAddress {
  id: Id;
  project_id: number;
  partner_type: PartnerType;
  code: string;
  name: string;
  address3: string | null;
  address4: string | null;
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
