import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { bufferOf } from '../../files/stored-file.js';
import type { DownloadStatus } from './download.tables.js';
import './download.tables.js';

export interface DownloadInfo {
  id: number;
  kind: string;
  title: string;
  fileName: string;
  status: DownloadStatus;
  rowsWritten: number;
  rowsTotal: number | null;
  contentType: string;
  sizeBytes: number | null;
  errorCode: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  expiresAt: Date;
}

const INFO_COLUMNS = [
  'id',
  'kind',
  'title',
  'file_name as fileName',
  'status',
  'rows_written as rowsWritten',
  'rows_total as rowsTotal',
  'content_type as contentType',
  'size_bytes as sizeBytes',
  'error_code as errorCode',
  'created_at as createdAt',
  'finished_at as finishedAt',
  'expires_at as expiresAt',
] as const;

function toInfo<R extends { id: unknown; sizeBytes: unknown }>(row: R): DownloadInfo {
  return { ...(row as unknown as DownloadInfo), id: Number(row.id), sizeBytes: row.sizeBytes === null ? null : Number(row.sizeBytes) };
}

export interface NewDownload {
  userId: number;
  projectId: number | null;
  kind: string;
  title: string;
  fileName: string;
  contentType: string;
  rowsTotal: number | null;
  days: number;
  by: string;
}

export async function insertDownload(trx: Transaction<DB>, file: NewDownload): Promise<number> {
  const row = await trx
    .insertInto('download_file')
    .values({
      user_id: file.userId,
      project_id: file.projectId,
      kind: file.kind,
      title: file.title,
      file_name: file.fileName,
      status: 'running',
      rows_total: file.rowsTotal,
      content_type: file.contentType,
      expires_at: sql<Date>`now() + make_interval(days => ${file.days})`,
      created_by: file.by,
      updated_by: file.by,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Rows written so far (one statement; the background work reports as it goes). */
export async function setProgress(trx: Transaction<DB>, id: number, rowsWritten: number): Promise<void> {
  await trx.updateTable('download_file').set({ rows_written: rowsWritten, updated_at: sql`now()` }).where('id', '=', id).where('status', '=', 'running').execute();
}

export async function finishDownload(trx: Transaction<DB>, id: number, content: Buffer, rowsWritten: number): Promise<void> {
  await trx
    .updateTable('download_file')
    .set({ status: 'done', content, size_bytes: content.length, rows_written: rowsWritten, finished_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

export async function failDownload(trx: Transaction<DB>, id: number, errorCode: string): Promise<void> {
  await trx
    .updateTable('download_file')
    .set({ status: 'failed', error_code: errorCode, finished_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** The user's files that have not expired, the newest first. */
export async function listDownloads(db: Kysely<DB>, userId: number): Promise<DownloadInfo[]> {
  const rows = await db
    .selectFrom('download_file')
    .select(INFO_COLUMNS)
    .where('user_id', '=', userId)
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toInfo);
}

/** One file of the user (another user's is not found), if it has not expired. */
export async function findDownload(db: Kysely<DB>, id: number, userId: number): Promise<DownloadInfo | undefined> {
  const row = await db
    .selectFrom('download_file')
    .select(INFO_COLUMNS)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row ? toInfo(row) : undefined;
}

export async function readDownloadSlice(db: Kysely<DB>, id: number, offset: number, length: number): Promise<Buffer> {
  const row = await db
    .selectFrom('download_file')
    .select(sql<Uint8Array | null>`substring(content from ${offset + 1} for ${length})`.as('slice'))
    .where('id', '=', id)
    .executeTakeFirst();
  return bufferOf(row?.slice);
}

export async function deleteDownload(trx: Transaction<DB>, id: number, userId: number): Promise<number> {
  const result = await trx.deleteFrom('download_file').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Removes every expired file; answers how many. */
export async function deleteExpiredDownloads(trx: Transaction<DB>): Promise<number> {
  const result = await trx.deleteFrom('download_file').where('expires_at', '<=', sql<Date>`now()`).executeTakeFirst();
  return Number(result.numDeletedRows);
}
