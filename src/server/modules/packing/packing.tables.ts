import type { Generated } from 'kysely';
import type { Audit, Id, Numeric, NullableNumeric, NullableTimestamp } from '../../db/schema.js';

/** The cartons orders are packed into, and what each holds. */
declare module '../../db/schema.js' {
  interface DB {
    carton: CartonTable;
    carton_line: CartonLineTable;
    pallet: PalletTable;
  }
}

export type CartonStatus = 'open' | 'closed';

export interface CartonTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  so_id: number;
  /** Unique in the warehouse; also the licence plate the packed stock stands on. */
  carton_no: string;
  /** A code of the code-master type CARTON_TYPE. */
  carton_type: string | null;
  status: Generated<CartonStatus>;
  gross_weight: NullableNumeric;
  net_weight: NullableNumeric;
  weight_uom: string | null;
  length: NullableNumeric;
  width: NullableNumeric;
  height: NullableNumeric;
  closed_at: NullableTimestamp;
  closed_by: string | null;
  /** Given when the carton is closed; unique and never given again. */
  sscc: string | null;
  /** The carrier's tracking number, once a carrier has one. */
  tracking_no: string | null;
  /** The pallet the carton stands on. */
  pallet_id: number | null;
  /** The RFID card the carton carries; no two open cartons of a warehouse carry one card. */
  card_id: string | null;
}

export type PalletStatus = 'open' | 'closed';

/** A pallet of closed cartons of one order, with its own SSCC, at a location of the warehouse. */
export interface PalletTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  /** From the PALLET numbering rule; unique in the warehouse. */
  pallet_no: string;
  sscc: string;
  pallet_type: string | null;
  location_id: number;
  /** The order the pallet's cartons belong to; null while it is empty. */
  so_id: number | null;
  status: Generated<PalletStatus>;
  length: NullableNumeric;
  width: NullableNumeric;
  height: NullableNumeric;
  gross_weight: NullableNumeric;
  weight_uom: string | null;
  closed_at: NullableTimestamp;
  closed_by: string | null;
}

/** What went into a carton for one order line, of one lot, from one place the picked stock stood. */
export interface CartonLineTable extends Audit {
  id: Id;
  carton_id: number;
  so_line_id: number;
  owner_id: number;
  sku_id: number;
  lot_id: number;
  from_location_id: number;
  from_lpn: Generated<string>;
  qty: Numeric;
  /** The anti-counterfeit code of the item the line holds; packed once in a warehouse. */
  anti_counterfeit_code: string | null;
}
