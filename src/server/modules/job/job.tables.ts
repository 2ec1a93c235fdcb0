import type { Generated } from 'kysely';
import type { Audit, Id, Timestamp } from '../../db/schema.js';

/** The tables of the job area; migration 0070 creates them. */
declare module '../../db/schema.js' {
  interface DB {
    job_handler: JobHandlerTable;
    job: JobTable;
    job_param: JobParamTable;
    job_run: JobRunTable;
  }
}

export type JobType = 'job' | 'timer';
export type JobStatus = 'active' | 'inactive';
export type JobRunTrigger = 'schedule' | 'manual';
export type JobRunStatus = 'queued' | 'running' | 'retrying' | 'succeeded' | 'failed' | 'skipped';
/** A class's jobs belong to a project, or (system) to none and to administrators only; migration 0221. */
export type JobScope = 'project' | 'system';

export interface JobHandlerTable {
  name: string;
  area: string;
  available: Generated<boolean>;
  scope: Generated<JobScope>;
}

export interface JobTable extends Audit {
  id: Id;
  name: string;
  /** The spec's "class": a registered job handler. */
  handler: string;
  remark: string | null;
  type: Generated<JobType>;
  status: Generated<JobStatus>;
  cron_expression: string;
  business_type: string;
  start_time: Timestamp | null;
  action_no: string | null;
  retry_limit: Generated<number>;
  retry_delay_seconds: Generated<number>;
  /** Migration 0221: the project and warehouse of the session that made it; null for a system job. */
  project_id: number | null;
  warehouse_id: number | null;
}

export interface JobParamTable extends Audit {
  id: Id;
  job_id: number;
  name: string;
  value: string | null;
  seq: Generated<number>;
}

export interface JobRunTable {
  id: Id;
  job_id: number;
  trigger: JobRunTrigger;
  scheduled_for: Timestamp;
  status: Generated<JobRunStatus>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Timestamp>;
  enqueued_at: Timestamp | null;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  heartbeat_at: Timestamp | null;
  node: string | null;
  log: Generated<string>;
  error: string | null;
  requested_by: string | null;
  created_at: Generated<Date>;
}
