import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../common/errors.js';

export interface UploadedFile {
  fileName: string;
  data: Buffer;
}

export interface AttachmentUpload {
  fields: Record<string, string>;
  files: UploadedFile[];
  /** The files together passed `maxTotalBytes`: none of them was kept. */
  overLimit: boolean;
}

/** Most files of one upload. */
export const MAX_FILES_PER_UPLOAD = 20;

/** The cap as the message shows it: "500 MB". */
export function formatLimit(bytes: number): string {
  return `${Math.floor(bytes / (1024 * 1024))} MB`;
}

/** Refuses files that would pass the attachment cap of a record (or of one upload). */
export function refuseOverLimit(limitBytes: number): never {
  throw new AppError('ATTACHMENT_TOTAL_TOO_LARGE', { limit: formatLimit(limitBytes) });
}

/** Multipart parsing for routes that take attachments: one file may be as large as the cap (one byte more is seen as too large). */
export function attachmentMultipartLimits(limitBytes: number) {
  return { fileSize: limitBytes + 1, files: MAX_FILES_PER_UPLOAD, fields: 10 };
}

/**
 * Reads a multipart upload of several files, counting their bytes as they arrive: once the total
 * passes `maxTotalBytes` nothing more is kept (the rest of the body is read and dropped, so the
 * caller still gets an answer), and the caller refuses the upload with the cap's message. A
 * malformed body is the caller's mistake (400), never a 500.
 */
export async function readAttachmentUpload(request: FastifyRequest, maxTotalBytes: number): Promise<AttachmentUpload> {
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
  const upload: AttachmentUpload = { fields: {}, files: [], overLimit: false };
  let total = 0;
  try {
    const parts = request.parts({ limits: { fileSize: maxTotalBytes + 1, files: MAX_FILES_PER_UPLOAD, fields: 10, fieldSize: 4096 } });
    for await (const part of parts) {
      if (part.type === 'file') {
        const chunks: Buffer[] = [];
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          total += chunk.length;
          if (total > maxTotalBytes) upload.overLimit = true;
          else chunks.push(chunk);
        }
        if (part.file.truncated) upload.overLimit = true;
        if (!upload.overLimit) upload.files.push({ fileName: part.filename, data: Buffer.concat(chunks) });
      } else if (typeof part.value === 'string') {
        upload.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') return { ...upload, files: [], overLimit: true };
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw new AppError('UPLOAD_TOO_LARGE');
    throw new AppError('BAD_REQUEST', { reason: 'the multipart body is malformed' });
  }
  if (upload.overLimit) upload.files = [];
  return upload;
}

/** An upload within the cap: the files together past `limitBytes` refuse it (ATTACHMENT_TOTAL_TOO_LARGE). */
export async function readUploadWithinLimit(request: FastifyRequest, limitBytes: number): Promise<Omit<AttachmentUpload, 'overLimit'>> {
  const upload = await readAttachmentUpload(request, limitBytes);
  if (upload.overLimit) refuseOverLimit(limitBytes);
  return { fields: upload.fields, files: upload.files };
}

/** What a route requires of an upload: id fields (digits, at most 15) and, with `file`, a file. */
export interface RequiredUploadParts<K extends string, F extends boolean> {
  ids?: readonly K[];
  file?: F;
}

/**
 * A route's upload: the caller's place (`placeOf`, read first, so a caller out of scope is refused
 * before the body is read), the upload within the cap, its required id fields as numbers and its
 * first file. Every required part missing (or an id that is not a number) is named in one refusal
 * (VALIDATION_FAILED, FIELD_REQUIRED).
 */
export async function readPlacedUpload<Place, K extends string = never, F extends boolean = false>(
  request: FastifyRequest,
  limitBytes: number,
  placeOf: (request: FastifyRequest) => Place,
  required: RequiredUploadParts<K, F> = {},
): Promise<{ place: Place; upload: Omit<AttachmentUpload, 'overLimit'>; ids: Record<K, number>; file: F extends true ? UploadedFile : UploadedFile | undefined }> {
  const place = placeOf(request);
  const upload = await readUploadWithinLimit(request, limitBytes);
  const ids = {} as Record<K, number>;
  const missing: string[] = [];
  for (const name of required.ids ?? []) {
    const text = upload.fields[name] ?? '';
    if (/^\d{1,15}$/.test(text)) ids[name] = Number(text);
    else missing.push(name);
  }
  const file: UploadedFile | undefined = upload.files[0];
  if (required.file && !file) missing.push('file');
  if (missing.length) throw new AppError('VALIDATION_FAILED', {}, missing.map((field) => ({ field, code: 'FIELD_REQUIRED' })));
  return { place, upload, ids, file };
}
