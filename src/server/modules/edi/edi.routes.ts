import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requireProject, requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import { listenForShipNotices } from './edi.events.js';
import { ediMessageContent } from './edi.service.js';
import { queueOrderNotice } from './order-notice.js';

const route = routeOptions(['edi'], { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema });

const LOG_VIEW = { right: 'edi.ediLogSummary:view', scope: 'warehouse' } as const;
/** Sending an order's notice from the scan-pack screen is packing's work. */
const PACK_EDIT = { right: 'packing.pack:edit', scope: 'warehouse' } as const;
const OptText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));

function scopeOf(request: FastifyRequest) {
  const user = requireUser(request);
  return { projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId, by: user.loginAccount };
}

/**
 * The EDI log of the session's project and warehouse (listed by its engine page): one message's
 * raw content to read and the same bytes as a file (resend is the page's behaviour `edi.message.resend`);
 * the ship notice of an order queued now; and the ship notices made on their own at check-complete
 * and ship (edi.events.ts).
 */
export const ediRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  listenForShipNotices(app);

  app.post(
    '/packHeader/extender/scanPackSendEdi',
    route(PACK_EDIT, "Queues the ship notice of an order now (whatever the owner's send_on says), with the load it left on when known; sent after the commit", {
      body: StrictObject({
        soId: IdSchema,
        load: Type.Optional(StrictObject({ loadNo: OptText(35), containerNo: OptText(35), sealNo: OptText(35), vessel: OptText(35), voyage: OptText(17), mbl: OptText(35), hbl: OptText(35) })),
      }),
    }),
    async (request) => {
      const scope = scopeOf(request);
      const messageId = await inTransaction(db, (trx) => queueOrderNotice(trx, scope, request.body.soId, { load: request.body.load ?? null, sendWith: db }));
      return { messageId, queued: messageId !== null };
    },
  );

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
