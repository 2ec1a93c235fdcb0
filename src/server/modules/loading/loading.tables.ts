import type { Generated } from 'kysely';
import type { Audit, Id, Numeric, NullableTimestamp, Timestamp } from '../../db/schema.js';

/** Loads (a container or truck being loaded), the cartons on them, and the delivery of each order. */
declare module '../../db/schema.js' {
  interface DB {
    load_header: LoadHeaderTable;
    load_carton: LoadCartonTable;
    load_delivery: LoadDeliveryTable;
  }
}

/** Open: cartons go on and come off; loaded: closed for loading, waiting to ship; shipped: gone. */
export type LoadStatus = 'open' | 'loaded' | 'shipped';

export interface LoadHeaderTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  /** From the LOAD numbering rule; unique in the warehouse. */
  load_no: string;
  container_no: string | null;
  seal_no: string | null;
  container_type: string | null;
  vessel: string | null;
  voyage: string | null;
  mbl: string | null;
  hbl: string | null;
  driver: string | null;
  etd: NullableTimestamp;
  eta: NullableTimestamp;
  port_of_loading: string | null;
  port_of_discharge: string | null;
  port_of_destination: string | null;
  load_from: string | null;
  load_to: string | null;
  remarks: string | null;
  status: Generated<LoadStatus>;
  shipped_at: NullableTimestamp;
  shipped_by: string | null;
}

/** A carton on a load; a carton is on one load only (unique carton_id). */
export interface LoadCartonTable extends Audit {
  id: Id;
  load_id: number;
  carton_id: number;
  so_id: number;
  /** The pallet SSCC the carton was loaded with, when it was loaded by its pallet. */
  pallet_sscc: string | null;
  /** What the carton holds, in base units, when it was loaded. */
  qty: Numeric;
}

/** The proof that an order was delivered: when, who took it, and an optional photo (an attachment of the record). */
export interface LoadDeliveryTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  so_id: number;
  delivered_at: Timestamp;
  receiver_name: string;
  remarks: string | null;
}
