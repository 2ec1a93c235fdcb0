import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';

/** `Content-Disposition` with the user's name for the browser only: an ASCII fallback and the UTF-8 form. */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** What a stored file is sent with: its detected type, its size and the name the user gave it. */
export interface StoredFileHeaders {
  contentType: string;
  sizeBytes: number | null;
  fileName: string;
}

/**
 * Answers with a stored file (an attachment, a download center file): its type, length and name,
 * and never kept by a cache, since what one user may download another may not.
 */
export function sendStoredFile(reply: FastifyReply, file: StoredFileHeaders, stream: Readable, kind: 'attachment' | 'inline' = 'attachment'): FastifyReply {
  return reply
    .header('content-type', file.contentType)
    .header('content-length', String(file.sizeBytes))
    .header('content-disposition', contentDisposition(kind, file.fileName))
    .header('cache-control', 'no-store')
    .send(stream);
}
