import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { bufferOf } from '../../files/stored-file.js';
import './attachment.tables.js';

/** The record attachments belong to: page, record key and project. */
export interface RecordRef {
  moduleCode: string;
  functionCode: string;
  recordKey: string;
  projectId: number | null;
}

/** An attachment without its bytes. */
export interface AttachmentInfo {
  id: number;
  projectId: number | null;
  moduleCode: string;
  functionCode: string;
  recordKey: string;
  fileName: string;
  remark: string | null;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  createdAt: Date;
  createdBy: string | null;
  updatedAt: Date;
  updatedBy: string | null;
}

const INFO_COLUMNS = [
  'id',
  'project_id as projectId',
  'module_code as moduleCode',
  'function_code as functionCode',
  'record_key as recordKey',
  'file_name as fileName',
  'remark',
  'content_type as contentType',
  'size_bytes as sizeBytes',
  'sha256',
  'created_at as createdAt',
  'created_by as createdBy',
  'updated_at as updatedAt',
  'updated_by as updatedBy',
] as const;

function toInfo(row: Omit<AttachmentInfo, 'id' | 'sizeBytes' | 'projectId'> & { id: unknown; sizeBytes: unknown; projectId: unknown }): AttachmentInfo {
  return { ...row, id: Number(row.id), sizeBytes: Number(row.sizeBytes), projectId: row.projectId === null ? null : Number(row.projectId) };
}

function ofRecord(ref: RecordRef) {
  return sql<boolean>`module_code = ${ref.moduleCode} and function_code = ${ref.functionCode} and record_key = ${ref.recordKey} and project_id is not distinct from ${ref.projectId}`;
}

export async function listAttachments(db: Kysely<DB>, ref: RecordRef): Promise<AttachmentInfo[]> {
  const rows = await db.selectFrom('attachment').select(INFO_COLUMNS).where(ofRecord(ref)).orderBy('id').execute();
  return rows.map(toInfo);
}

/**
 * Bytes already attached to the record. Inside a write it first takes the record's lock, so that
 * two uploads at once cannot both pass the cap.
 */
export async function lockedTotalBytes(trx: Transaction<DB>, ref: RecordRef): Promise<number> {
  const lockKey = `attachment/${ref.moduleCode}/${ref.functionCode}/${ref.projectId ?? ''}/${ref.recordKey}`;
  await sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`.execute(trx);
  return totalBytes(trx, ref);
}

export async function totalBytes(db: Kysely<DB>, ref: RecordRef): Promise<number> {
  const row = await db
    .selectFrom('attachment')
    .select(sql<string>`coalesce(sum(size_bytes), 0)::bigint`.as('total'))
    .where(ofRecord(ref))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export interface NewAttachment {
  fileName: string;
  remark: string | null;
  contentType: string;
  sha256: string;
  content: Buffer;
}

export async function insertAttachment(trx: Transaction<DB>, ref: RecordRef, file: NewAttachment, by: string): Promise<AttachmentInfo> {
  const row = await trx
    .insertInto('attachment')
    .values({
      project_id: ref.projectId,
      module_code: ref.moduleCode,
      function_code: ref.functionCode,
      record_key: ref.recordKey,
      file_name: file.fileName,
      remark: file.remark,
      content_type: file.contentType,
      size_bytes: file.content.length,
      sha256: file.sha256,
      content: file.content,
      created_by: by,
      updated_by: by,
    })
    .returning(INFO_COLUMNS)
    .executeTakeFirstOrThrow();
  return toInfo(row);
}

/** One attachment of the project (null: of no project), without its bytes. */
export async function findAttachment(db: Kysely<DB>, id: number, projectId: number | null): Promise<AttachmentInfo | undefined> {
  const row = await db
    .selectFrom('attachment')
    .select(INFO_COLUMNS)
    .where('id', '=', id)
    .where(sql<boolean>`project_id is not distinct from ${projectId}`)
    .executeTakeFirst();
  return row ? toInfo(row) : undefined;
}

export interface AttachmentChange {
  fileName?: string;
  remark?: string | null;
  content?: { contentType: string; sha256: string; data: Buffer };
}

export async function updateAttachment(trx: Transaction<DB>, id: number, change: AttachmentChange, by: string): Promise<AttachmentInfo> {
  const row = await trx
    .updateTable('attachment')
    .set({
      ...(change.fileName !== undefined ? { file_name: change.fileName } : {}),
      ...(change.remark !== undefined ? { remark: change.remark } : {}),
      ...(change.content
        ? { content: change.content.data, content_type: change.content.contentType, sha256: change.content.sha256, size_bytes: change.content.data.length }
        : {}),
      updated_by: by,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .returning(INFO_COLUMNS)
    .executeTakeFirstOrThrow();
  return toInfo(row);
}

export async function deleteAttachment(trx: Transaction<DB>, id: number): Promise<number> {
  const result = await trx.deleteFrom('attachment').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A slice of the bytes (`offset` from 0), for streaming a download without holding the whole file. */
export async function readContentSlice(db: Kysely<DB>, id: number, offset: number, length: number): Promise<Buffer> {
  const row = await db
    .selectFrom('attachment')
    .select(sql<Uint8Array>`substring(content from ${offset + 1} for ${length})`.as('slice'))
    .where('id', '=', id)
    .executeTakeFirst();
  return bufferOf(row?.slice);
}
