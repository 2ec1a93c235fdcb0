import type { ColumnType, Generated } from 'kysely';
import type { Audit, Id } from '../../db/schema.js';

/** The carrier area's tables; migration 0351 creates them. */
declare module '../../db/schema.js' {
  interface DB {
    carrier_account: CarrierAccountTable;
    carrier_credential: CarrierCredentialTable;
    carrier_shipment: CarrierShipmentTable;
    carrier_parcel: CarrierParcelTable;
  }
}

/** A parcel carrier of a project: the base URL of its HTTP JSON API and how long a call may take. */
export interface CarrierAccountTable extends Audit {
  id: Id;
  project_id: number;
  code: string;
  name: string | null;
  base_url: string;
  timeout_ms: Generated<number>;
  active: Generated<boolean>;
}

/** The credential (API key) of a carrier account: sent to the carrier, never answered to a browser. */
export interface CarrierCredentialTable extends Audit {
  id: Id;
  carrier_account_id: number;
  secret: string;
}

/** `open`: not yet known to the carrier; `booked`: the carrier gave it its id; `cancelled`: cancelled at the carrier. */
export type CarrierShipmentStatus = 'open' | 'booked' | 'cancelled';

type RequiredDate = ColumnType<string, string, string>;

/** A parcel shipment booked with a carrier for orders of the warehouse. */
export interface CarrierShipmentTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  shipment_no: string;
  carrier_account_id: number;
  shipment_reference: string;
  expected_delivery_date: RequiredDate;
  gateway: string;
  service: string;
  service_provider: string;
  battery: string;
  /** The carrier's id of the shipment, once booked. */
  carrier_shipment_id: string | null;
  status: Generated<CarrierShipmentStatus>;
  remark: string | null;
}

/** A closed carton of an order registered as a parcel on a carrier shipment, with the carrier's parcel id and tracking number. */
export interface CarrierParcelTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  shipment_id: number;
  so_id: number;
  carton_id: number;
  carton_no: string;
  parcel_id: string | null;
  tracking_no: string | null;
}
