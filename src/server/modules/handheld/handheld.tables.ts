import type { ColumnType, Generated } from 'kysely';
import type { HandheldDefinition } from '../../../common/handheld-api.js';
import type { Audit, Id, Timestamp } from '../../db/schema.js';

declare module '../../db/schema.js' {
  interface DB {
    handheld_config: HandheldConfigTable;
    handheld_config_version: HandheldConfigVersionTable;
    handheld_device_session: HandheldDeviceSessionTable;
    handheld_scan_value: HandheldScanValueTable;
  }
}

type Json<T> = ColumnType<T, string, string>;

/** A handheld configuration of a project and warehouse, with its draft (migrations/0381_handheld.ts). */
export interface HandheldConfigTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  code: string;
  name: string;
  fn: string;
  status: Generated<string>;
  draft: Json<HandheldDefinition>;
  published_version: number | null;
}

/** A published version of a configuration: what the runtime runs. */
export interface HandheldConfigVersionTable extends Audit {
  id: Id;
  config_id: number;
  version: number;
  definition: Json<HandheldDefinition>;
}

/** A handheld signed in by a user for a shift, with the flow it runs and its last scan. */
export interface HandheldDeviceSessionTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  user_id: number;
  device_id: string;
  flow: string | null;
  signed_in_at: Generated<Date>;
  last_scan_at: Timestamp | null;
  ended_at: Timestamp | null;
  /** `supervisor`: ended on /rfDevices (migrations/0386_handheld_session_end.ts). */
  ended_reason: string | null;
}

/** The dialog values entered with a handheld confirmation, by its idempotency key (migrations/0383_handheld_scan_value.ts). */
export interface HandheldScanValueTable extends Audit {
  id: Id;
  project_id: number;
  warehouse_id: number;
  user_id: number;
  scan_key: string;
  fn: string;
  subject: Json<Record<string, unknown>>;
  answer: Json<unknown>;
  dimension: string | null;
  volume: string | null;
  gross_weight: string | null;
  net_weight: string | null;
}
