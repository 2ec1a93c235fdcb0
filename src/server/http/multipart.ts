import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../common/errors.js';

/** The limits multipart parsing is registered with: bytes of one file, files and fields of one request. */
export interface MultipartLimits {
  fileSize: number;
  files: number;
  fields: number;
}

/**
 * Registers multipart parsing for a plugin's routes, unless another plugin of the application has
 * registered it already: it is then this plugin's too, with the limits it was registered with.
 */
export async function registerMultipart(app: FastifyInstance, limits: MultipartLimits): Promise<void> {
  if (!app.hasRequestDecorator('isMultipart')) await app.register(fastifyMultipart, { limits });
}

export interface MultipartUpload {
  fields: Record<string, string>;
  files: Array<{ fieldName: string; fileName: string; data: Buffer }>;
}

/**
 * Reads a whole multipart request into fields and files: a broken body (no or
 * wrong boundary, cut short, malformed headers) is the caller's mistake and answers 400, a file
 * past the upload limit 413, never a 500 from deep inside the parser.
 */
export async function readMultipart(request: FastifyRequest): Promise<MultipartUpload> {
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
  const upload: MultipartUpload = { fields: {}, files: [] };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.file.truncated) throw new AppError('UPLOAD_TOO_LARGE');
        upload.files.push({ fieldName: part.fieldname, fileName: part.filename, data });
      } else if (typeof part.value === 'string') {
        upload.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new AppError('UPLOAD_TOO_LARGE');
    }
    throw new AppError('BAD_REQUEST', { reason: 'the multipart body is malformed' });
  }
  return upload;
}
