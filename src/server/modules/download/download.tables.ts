import type { ColumnType } from 'kysely';
import type { Audit, Id } from '../../db/schema.js';

/** The tables of the download center; its migration 0085 creates them. */
declare module '../../db/schema.js' {
  interface DB {
    download_file: DownloadFileTable;
  }
}

export type DownloadStatus = 'running' | 'done' | 'failed';

/**
 * A file of a user's download center: a large export written in the background, its progress
 * while it runs, its bytes once done, kept until `expires_at`.
 */
export interface DownloadFileTable extends Audit {
  id: Id;
  user_id: number;
  project_id: number | null;
  kind: string;
  title: string;
  file_name: string;
  status: DownloadStatus;
  rows_written: ColumnType<number, number | undefined, number>;
  rows_total: number | null;
  content_type: string;
  size_bytes: number | null;
  content: Buffer | null;
  error_code: string | null;
  finished_at: Date | null;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}
