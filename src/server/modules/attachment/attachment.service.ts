import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely, Transaction } from 'kysely';
import { parseRowKey } from '../../../../engine/server/index.js';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { streamInSlices } from '../../files/stored-file.js';
import { engine, engineSession, openPage, rowByKey, type GenericContext } from '../generic/index.js';
import {
  deleteAttachment,
  findAttachment,
  insertAttachment,
  listAttachments,
  lockedTotalBytes,
  readContentSlice,
  totalBytes,
  updateAttachment,
  type AttachmentInfo,
  type RecordRef,
} from './attachment.repository.js';
import { detectFileType } from './file-type.js';
import { refuseOverLimit, type UploadedFile } from './attachment.upload.js';

/*
 * Attachments of the records of any page definition: the caller needs the
 * page's view right to list and download and its edit right to upload, update and delete, the page
 * must declare `attachments`, and the record must be one the caller can read (the engine's scope:
 * a record of another project is not found). Every record's attachments total at most the cap.
 */

export interface AttachmentContext extends GenericContext {
  limitBytes: number;
}

export interface RecordRequest {
  moduleCode: string;
  functionCode: string;
  recordKey: string | number;
}

/** The record the caller names, checked: page right, the page's `attachments` flag, the record in scope. */
async function openRecord(ctx: AttachmentContext, request: RecordRequest, action: 'view' | 'edit'): Promise<RecordRef> {
  const { prepared } = await openPage(ctx, request, action);
  if (prepared.page.attachments !== true) throw new AppError('ATTACHMENTS_NOT_ENABLED');
  const key = parseRowKey(prepared, request.recordKey);
  if (key === undefined) throw new AppError('NO_RECORD');
  const row = await engine(() => rowByKey(ctx.db, prepared, engineSession(ctx), key));
  return { moduleCode: request.moduleCode, functionCode: request.functionCode, recordKey: String(row._key), projectId: ctx.user.projectId };
}

/** An attachment of the caller's project whose record the caller may reach with this right. */
async function openAttachment(ctx: AttachmentContext, id: number, action: 'view' | 'edit'): Promise<{ info: AttachmentInfo; record: RecordRef }> {
  const info = await findAttachment(ctx.db, id, ctx.user.projectId);
  if (!info) throw new AppError('NO_RECORD');
  const record = await openRecord(ctx, { moduleCode: info.moduleCode, functionCode: info.functionCode, recordKey: info.recordKey }, action);
  return { info, record };
}

/** A user's file name as a label only: no folders, no control characters, at most 255 characters. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // oxlint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return clean || 'file';
}

export interface AttachmentListing {
  attachments: AttachmentInfo[];
  totalBytes: number;
  limitBytes: number;
}

export async function listOfRecord(ctx: AttachmentContext, request: RecordRequest): Promise<AttachmentListing> {
  const record = await openRecord(ctx, request, 'view');
  const attachments = await listAttachments(ctx.db, record);
  return { attachments, totalBytes: await totalBytes(ctx.db, record), limitBytes: ctx.limitBytes };
}

function sha256Of(data: Buffer): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

/**
 * Stores files as attachments of a record within the cap: the files together, and then with what
 * the record holds already (counted under a lock, so two uploads cannot both pass it), at most
 * `limitBytes`. The type is the one the bytes show, never the one the browser claims.
 */
export async function attachFiles(
  trx: Transaction<DB>,
  record: RecordRef,
  files: UploadedFile[],
  options: { remark: string | null; by: string; limitBytes: number },
): Promise<void> {
  const added = files.reduce((sum, file) => sum + file.data.length, 0);
  if (added > options.limitBytes) refuseOverLimit(options.limitBytes);
  if ((await lockedTotalBytes(trx, record)) + added > options.limitBytes) refuseOverLimit(options.limitBytes);
  for (const file of files) {
    await insertAttachment(
      trx,
      record,
      { fileName: cleanFileName(file.fileName), remark: options.remark, contentType: detectFileType(file.data).contentType, sha256: sha256Of(file.data), content: file.data },
      options.by,
    );
  }
}

export async function uploadToRecord(ctx: AttachmentContext, request: RecordRequest & { remark?: string }, files: UploadedFile[]): Promise<AttachmentListing> {
  const record = await openRecord(ctx, request, 'edit');
  if (files.length === 0) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'file', code: 'FIELD_REQUIRED' }]);
  const remark = request.remark?.trim() ? request.remark.trim() : null;
  await inTransaction(ctx.db, (trx) => attachFiles(trx, record, files, { remark, by: ctx.user.loginAccount, limitBytes: ctx.limitBytes }));
  return listOfRecord(ctx, request);
}

export interface AttachmentUpdate {
  id: number;
  fileName?: string;
  remark?: string;
}

/** Renames, changes the remark, or replaces the file (the cap counts the new size instead of the old). */
export async function updateOne(ctx: AttachmentContext, request: AttachmentUpdate, file: UploadedFile | undefined): Promise<AttachmentInfo> {
  const { info, record } = await openAttachment(ctx, request.id, 'edit');
  if (file && file.data.length > ctx.limitBytes) refuseOverLimit(ctx.limitBytes);
  return inTransaction(ctx.db, async (trx) => {
    if (file && (await lockedTotalBytes(trx, record)) - info.sizeBytes + file.data.length > ctx.limitBytes) refuseOverLimit(ctx.limitBytes);
    return updateAttachment(
      trx,
      info.id,
      {
        ...(request.fileName !== undefined ? { fileName: cleanFileName(request.fileName) } : file ? { fileName: cleanFileName(file.fileName) } : {}),
        ...(request.remark !== undefined ? { remark: request.remark.trim() || null } : {}),
        ...(file
          ? { content: { data: file.data, contentType: detectFileType(file.data).contentType, sha256: sha256Of(file.data) } }
          : {}),
      },
      ctx.user.loginAccount,
    );
  });
}

export async function deleteOne(ctx: AttachmentContext, id: number): Promise<number> {
  const { info } = await openAttachment(ctx, id, 'edit');
  return inTransaction(ctx.db, (trx) => deleteAttachment(trx, info.id));
}

/** The bytes of an attachment of `size` bytes, read from the database a slice at a time while they are sent. */
export function attachmentStream(db: Kysely<DB>, id: number, size: number): Readable {
  return streamInSlices(size, (offset, length) => readContentSlice(db, id, offset, length));
}

/** The file, read from the database a slice at a time while it is sent. */
export async function openDownload(ctx: AttachmentContext, id: number): Promise<{ info: AttachmentInfo; stream: Readable }> {
  const { info } = await openAttachment(ctx, id, 'view');
  return { info, stream: attachmentStream(ctx.db, info.id, info.sizeBytes) };
}
