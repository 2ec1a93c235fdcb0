import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ExportRequestSchema } from '../../../../engine/schema/api.js';
import { isErrorCode } from '../../../common/errors.js';
import type { RouteAccess } from '../../http/access.js';
import { sendStoredFile } from '../../http/file-reply.js';
import { translate } from '../../http/i18n.js';
import { routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import { requestContext } from '../generic/index.js';
import type { DownloadInfo } from './download.repository.js';
import { deleteOwnDownload, inProcessRunner, listOwnDownloads, openOwnDownload, startBackgroundExport, type DownloadContext } from './download.service.js';

/** Every call works on the caller's own files; the export checks the page's view right itself. */
const SESSION: RouteAccess = { session: true };

const IdBody = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }, { additionalProperties: false });
const FileSchema = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  title: Type.String(),
  fileName: Type.String(),
  status: Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
  rowsWritten: Type.Integer(),
  rowsTotal: Type.Union([Type.Integer(), Type.Null()]),
  size: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
  expiresAt: Type.String(),
});
const FileAnswer = Type.Unknown({ description: 'The finished file, streamed' });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
/** The options of a download center route: who may call it, its summary, request and answer, or an error body. */
const route = routeOptions(['download'], errors);

/** The download center's calls. */
export const downloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const runner = inProcessRunner(app.log);
  const context = (request: FastifyRequest): DownloadContext => ({ ...requestContext(app, request), downloadDays: app.config.downloadDays, runner });
  const answerOf = (request: FastifyRequest, file: DownloadInfo) => ({
    id: file.id,
    kind: file.kind,
    title: file.title,
    fileName: file.fileName,
    status: file.status,
    rowsWritten: file.rowsWritten,
    rowsTotal: file.rowsTotal,
    size: file.sizeBytes,
    error: file.errorCode ? translate(request.language, `errors.${isErrorCode(file.errorCode) ? file.errorCode : 'INTERNAL'}`) : null,
    createdAt: file.createdAt.toISOString(),
    finishedAt: file.finishedAt ? file.finishedAt.toISOString() : null,
    expiresAt: file.expiresAt.toISOString(),
  });

  app.post('/download/export', route(SESSION, "A page's export written in the background into the download center", { body: ExportRequestSchema }, Type.Object({ id: Type.Integer() })), async (request) =>
    startBackgroundExport(context(request), request.body),
  );

  app.get('/download/list', route(SESSION, "The caller's files that have not expired", {}, Type.Object({ files: Type.Array(FileSchema) })), async (request) => ({
    files: (await listOwnDownloads(context(request))).map((file) => answerOf(request, file)),
  }));

  app.post('/download/file', { ...route(SESSION, 'A finished file of the caller, streamed', { body: IdBody }, FileAnswer), compress: false }, async (request, reply) => {
    const { info, stream } = await openOwnDownload(context(request), request.body.id);
    return sendStoredFile(reply, info, stream);
  });

  app.post('/download/delete', route(SESSION, 'Delete a file of the caller', { body: IdBody }, Type.Object({ deleted: Type.Integer() })), async (request) => ({
    deleted: await deleteOwnDownload(context(request), request.body.id),
  }));
};
