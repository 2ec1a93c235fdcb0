import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { routeOptions } from '../../http/route-options.js';
import { hasRight } from '../identity/index.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import { listPrintJobs } from './printing.repository.js';
import { printJobDocument, reprintPrintJobs, retryPrintJobs, type SendOutcome } from './printing.service.js';

const route = routeOptions(['printing'], { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema });

const JOBS_VIEW = { right: 'printing.printJob:view', scope: 'warehouse' } as const;
const JOBS_PRINT = { right: 'printing.printJob:print', scope: 'warehouse' } as const;

/** A selection of print jobs: at most 100. */
const Ids = Type.Array(IdSchema, { minItems: 1, maxItems: 100 });

function callerOf(request: FastifyRequest) {
  const user = requireUser(request);
  return { warehouseId: requireWarehouse(user).warehouseId, by: user.loginAccount };
}

/**
 * The print queue of the session's warehouse: its jobs (newest first), sending queued or failed
 * jobs again now, and printing sent jobs again as new jobs. A job that could not be sent answers
 * the error PRINTER_UNAVAILABLE in the caller's language and stays queued.
 */
export const printingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const withText = (request: FastifyRequest, outcomes: SendOutcome[]) =>
    outcomes.map((o) => ('error' in o && o.error ? { ...o, message: request.server.errorTexts(request.language, `errors.${o.error}`) } : o));

  app.get(
    '/print/job',
    route(JOBS_VIEW, 'Print jobs of the warehouse, newest first (at most 500)', {
      querystring: StrictObject({
        status: Type.Optional(Type.Union([Type.Literal('queued'), Type.Literal('sent'), Type.Literal('failed')])),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
      }),
    }),
    async (request) => {
      const { warehouseId } = callerOf(request);
      const rows = await listPrintJobs(db, warehouseId, { status: request.query.status, limit: request.query.limit ?? 100 });
      return rows.map((r) => ({
        id: Number(r.id),
        printerId: Number(r.printer_id),
        printerName: r.printer_name,
        documentKind: r.document_kind,
        reference: r.reference,
        status: r.status,
        attempts: r.attempts,
        errorCode: r.last_error_code,
        error: r.last_error_code ? request.server.errorTexts(request.language, `errors.${r.last_error_code}`) : null,
        errorDetail: r.last_error,
        createdAt: r.created_at,
        createdBy: r.created_by,
        sentAt: r.sent_at,
        sentBy: r.sent_by,
        copyOf: r.copy_of === null ? null : Number(r.copy_of),
      }));
    },
  );

  app.get(
    '/print/job/access',
    route(JOBS_VIEW, 'Whether the caller may send, retry and reprint print jobs', {}, Type.Object({ print: Type.Boolean() })),
    async (request) => ({ print: await hasRight(db, requireUser(request), JOBS_PRINT.right) }),
  );

  app.get(
    '/print/job/:id/document',
    route(JOBS_VIEW, "A print job's document as sent to the printer: a PDF, or ZPL as text", { params: StrictObject({ id: IdSchema }) }),
    async (request, reply) => {
      const { warehouseId } = callerOf(request);
      const document = await printJobDocument(db, warehouseId, request.params.id);
      return reply.header('content-type', document.contentType).header('content-disposition', `inline; filename="${document.fileName}"`).send(document.body);
    },
  );

  app.post('/print/job/retry', route(JOBS_PRINT, 'Sends queued or failed print jobs of the warehouse again now', { body: StrictObject({ ids: Ids }) }), async (request) => {
    const { warehouseId, by } = callerOf(request);
    return { outcomes: withText(request, await retryPrintJobs(db, warehouseId, request.body.ids, by)) };
  });

  app.post('/print/job/reprint', route(JOBS_PRINT, 'Prints sent print jobs of the warehouse again, each as a new job', { body: StrictObject({ ids: Ids }) }), async (request) => {
    const { warehouseId, by } = callerOf(request);
    return { outcomes: withText(request, await reprintPrintJobs(db, warehouseId, request.body.ids, by)) };
  });
};
