import type { Generated } from 'kysely';
import type { Audit, Id, NullableTimestamp, Timestamp } from '../../db/schema.js';
import type { GarmentStatus } from '../../../common/laundry-api.js';

/**
 * The laundry run beside the warehouse (docs/laundry.md): the devices its public screens run on,
 * its customers, the garments they hand in, the washing batches and the history of every garment.
 */
declare module '../../db/schema.js' {
  interface DB {
    laundry_device: LaundryDeviceTable;
    laundry_customer: LaundryCustomerTable;
    laundry_batch: LaundryBatchTable;
    laundry_garment: LaundryGarmentTable;
    laundry_garment_event: LaundryGarmentEventTable;
  }
}

/** A phone or desk the public screens run on: known by the SHA-256 of its key, bound to one project and warehouse. */
export interface LaundryDeviceTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  name: string;
  /** Hex SHA-256 of the device key; the key itself is shown once when issued and never stored. */
  key_hash: string;
  /** The first characters of the key, so an administrator can tell devices apart. */
  key_hint: string;
  revoked_at: NullableTimestamp;
  revoked_by: string | null;
  last_used_at: NullableTimestamp;
}

/** A customer of the laundry, with the code the administrator issued to them. */
export interface LaundryCustomerTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  code: string;
  name: string;
  phone: string | null;
  active: Generated<boolean>;
}

export type LaundryBatchStatus = 'washing' | 'finished';

/** A washing batch: garments go in while it is washing; finishing it cleans them all. */
export interface LaundryBatchTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  status: Generated<LaundryBatchStatus>;
  started_by_device: number;
  finished_at: NullableTimestamp;
  finished_by_device: number | null;
}

/** A garment by its tag; a tag is in process once at a time (unique while not returned). */
export interface LaundryGarmentTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  customer_id: number;
  tag: string;
  status: GarmentStatus;
  batch_id: number | null;
  received_at: Timestamp;
  washing_at: NullableTimestamp;
  cleaned_at: NullableTimestamp;
  returned_at: NullableTimestamp;
}

/** Every change of a garment's status: which device, when, from and to. */
export interface LaundryGarmentEventTable {
  id: Id;
  garment_id: number;
  from_status: GarmentStatus | null;
  to_status: GarmentStatus;
  batch_id: number | null;
  device_id: number;
  at: Generated<Date>;
}
