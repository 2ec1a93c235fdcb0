import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { requireProject, requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import { ediMessageContent } from './edi.service.js';

const route = routeOptions(['edi'], { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema });

const LOG_VIEW = { right: 'edi.ediLogSummary:view', scope: 'warehouse' } as const;

function scopeOf(request: FastifyRequest) {
  const user = requireUser(request);
  return { projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId, by: user.loginAccount };
}

/**
 * The EDI log of the session's project and warehouse (listed by its engine page): one message's
 * raw content to read and the same bytes as a file (resend is the page's behaviour `edi.message.resend`).
 */
export const ediRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.get('/edi/message/content', route(LOG_VIEW, 'The raw content of an EDI message as text', { querystring: StrictObject({ id: IdSchema }) }), async (request) => {
    const message = await ediMessageContent(db, scopeOf(request), request.query.id);
    return { id: message.id, kind: message.kind, reference: message.reference, fileName: message.fileName, content: message.content.toString('utf8') };
  });

  app.get(
    '/edi/message/raw',
    { config: { access: LOG_VIEW }, schema: { tags: ['edi'], summary: 'An EDI message byte for byte, as a file', querystring: StrictObject({ id: IdSchema }) } },
    async (request, reply) => {
      const message = await ediMessageContent(db, scopeOf(request), request.query.id);
      return reply.header('content-type', 'application/octet-stream').header('content-disposition', `attachment; filename="${message.fileName}"`).send(message.content);
    },
  );
};
