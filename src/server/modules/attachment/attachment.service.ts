import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { parseRowKey } from '../../../../engine/server/index.js';
import { AppError } from '../../../common/errors.js';
import { inTransaction } from '../../db/transaction.js';
import { engine, engineSession, openPage, rowByKey, type GenericContext } from '../generic/generic.context.js';
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
import type { UploadedFile } from './attachment.upload.js';

/*
 * Attachments of the records of any page definition (spec sections 5 and 7): the caller needs the
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

/** The cap as the message shows it: "500 MB". */
export function formatLimit(bytes: number): string {
  return `${Math.floor(bytes / (1024 * 1024))} MB`;
}

function refuseOverLimit(limitBytes: number): never {
  throw new AppError('ATTACHMENT_TOTAL_TOO_LARGE', { limit: formatLimit(limitBytes) });
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
  // eslint-disable-next-line no-control-regex
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

export async function uploadToRecord(ctx: AttachmentContext, request: RecordRequest & { remark?: string }, files: UploadedFile[]): Promise<AttachmentListing> {
  const record = await openRecord(ctx, request, 'edit');
  if (files.length === 0) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'file', code: 'FIELD_REQUIRED' }]);
  const added = files.reduce((sum, file) => sum + file.data.length, 0);
  if (added > ctx.limitBytes) refuseOverLimit(ctx.limitBytes);
  await inTransaction(ctx.db, async (trx) => {
    if ((await lockedTotalBytes(trx, record)) + added > ctx.limitBytes) refuseOverLimit(ctx.limitBytes);
    for (const file of files) {
      await insertAttachment(
        trx,
        record,
        {
          fileName: cleanFileName(file.fileName),
          remark: request.remark?.trim() ? request.remark.trim() : null,
          contentType: detectFileType(file.data).contentType,
          sha256: crypto.createHash('sha256').update(file.data).digest('hex'),
          content: file.data,
        },
        ctx.user.loginAccount,
      );
    }
  });
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
          ? { content: { data: file.data, contentType: detectFileType(file.data).contentType, sha256: crypto.createHash('sha256').update(file.data).digest('hex') } }
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

const SLICE_BYTES = 1024 * 1024;

/** The file, read from the database a slice at a time while it is sent. */
export async function openDownload(ctx: AttachmentContext, id: number): Promise<{ info: AttachmentInfo; stream: Readable }> {
  const { info } = await openAttachment(ctx, id, 'view');
  const db = ctx.db;
  async function* slices() {
    for (let offset = 0; offset < info.sizeBytes; offset += SLICE_BYTES) {
      const slice = await readContentSlice(db, info.id, offset, SLICE_BYTES);
      if (slice.length === 0) return;
      yield slice;
    }
  }
  return { info, stream: Readable.from(slices()) };
}

/** `Content-Disposition` with the user's name for the browser only: an ASCII fallback and the UTF-8 form. */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
