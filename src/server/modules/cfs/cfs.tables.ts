import type { Generated } from 'kysely';
import type { Audit, Id, NullableDate, NullableTimestamp, Timestamp } from '../../db/schema.js';

/** The container freight station's orders, cartons and pallets (migration 0312, docs/cfs.md). */
declare module '../../db/schema.js' {
  interface DB {
    cfs_order: CfsOrderTable;
    cfs_carton: CfsCartonTable;
    cfs_pallet: CfsPalletTable;
  }
}

/** The CFS fields of an outbound order; a row is made the first time the order is touched here. */
export interface CfsOrderTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  so_id: number;
  reference: string | null;
  vessel: string | null;
  voyage: string | null;
  etd: NullableDate;
  /** A code of the code-master type CANCEL_REASON, once the order was cancelled here. */
  cancel_reason: string | null;
  cancel_remark: string | null;
  cancelled_at: NullableTimestamp;
  cancelled_by: string | null;
}

/** Received: scanned in; packed: on a CFS pallet; loaded: on a container. */
export type CfsCartonStatus = 'received' | 'packed' | 'loaded';

/** A shipper's carton scanned in against an order; its code (number or SSCC) once per project and warehouse. */
export interface CfsCartonTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  code: string;
  so_id: number;
  status: Generated<CfsCartonStatus>;
  pallet_id: number | null;
  load_id: number | null;
  received_at: Timestamp;
  loaded_at: NullableTimestamp;
}

/** Open: cartons go on; loaded: on a container with all its cartons. */
export type CfsPalletStatus = 'open' | 'loaded';

export interface CfsPalletTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  pallet_no: string;
  sscc: string;
  status: Generated<CfsPalletStatus>;
  load_id: number | null;
  loaded_at: NullableTimestamp;
}
