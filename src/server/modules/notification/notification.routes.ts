import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { RightName } from '../../../common/rights.js';
import { bearerToken, requireUser } from '../../http/access-plugin.js';
import { resolveSessionUser } from '../identity/index.js';
import { ErrorBodySchema, IdSchema } from '../../http/schemas.js';
import { inTransaction } from '../../db/transaction.js';
import { latestNotifications, listNotifications, raiseNotification, readAllNotifications, readNotification } from './notification.service.js';
import { NotificationStreams } from './notification.streams.js';

const NotificationSchema = Type.Object({
  id: Type.Integer(),
  category: Type.String(),
  title: Type.String(),
  body: Type.Union([Type.String(), Type.Null()]),
  link: Type.Union([Type.String(), Type.Null()]),
  read: Type.Boolean(),
  createdAt: Type.String(),
});

const LatestQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })) }, { additionalProperties: false });
const LatestAnswer = Type.Object({ unread: Type.Integer(), items: Type.Array(NotificationSchema) });

const ListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    unreadOnly: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
const ListAnswer = Type.Object({ total: Type.Integer(), unread: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer(), items: Type.Array(NotificationSchema) });

const ReadBody = Type.Object({ id: IdSchema }, { additionalProperties: false });
const ReadAnswer = Type.Object({ unread: Type.Integer() });
const ReadAllAnswer = Type.Object({ marked: Type.Integer(), unread: Type.Integer() });

const SendBody = Type.Object(
  {
    userIds: Type.Optional(Type.Array(IdSchema, { minItems: 1, maxItems: 1000 })),
    right: Type.Optional(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)?:[a-z][A-Za-z0-9]*$', maxLength: 130 })),
    projectId: Type.Optional(IdSchema),
    title: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }),
    body: Type.Optional(Type.String({ minLength: 1, maxLength: 4000 })),
    link: Type.Optional(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}([?#][^\\s]{0,400})?$', maxLength: 465 })),
  },
  { additionalProperties: false },
);
const SendAnswer = Type.Object({ recipients: Type.Integer() });

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/**
 * The session user's notifications: the bell's latest N with the unread count, the paged list,
 * marking read, the live stream to the open browser, and the administrator's message to users.
 */
export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const streams = new NotificationStreams(app.log);
  app.events.on('notification.raised', ({ userIds }) => streams.push(userIds, 'notification', { kind: 'raised' }));
  app.events.on('notification.read', ({ userId }) => streams.push([userId], 'notification', { kind: 'read' }));
  // Notifications may have been missed (the listener reconnected): every browser reloads its bell.
  app.events.on('events.resync', () => streams.pushAll('notification', { kind: 'resync' }));
  // Open streams would hold the server open: end them first, the browsers reconnect elsewhere.
  app.addHook('preClose', async () => streams.closeAll());

  app.get(
    '/notification/latest',
    {
      config: { access: { session: true } },
      schema: { tags: ['notification'], summary: 'The latest notifications of the session user and the unread count (the bell)', querystring: LatestQuery, response: { 200: LatestAnswer, ...errors } },
    },
    (request) => latestNotifications(db, requireUser(request), request.language, request.query.limit ?? 10),
  );

  app.get(
    '/notification/list',
    {
      config: { access: { session: true } },
      schema: { tags: ['notification'], summary: "One page of the session user's notifications (view more)", querystring: ListQuery, response: { 200: ListAnswer, ...errors } },
    },
    (request) =>
      listNotifications(db, requireUser(request), request.language, {
        page: request.query.page ?? 1,
        pageSize: request.query.pageSize ?? 20,
        unreadOnly: request.query.unreadOnly ?? false,
      }),
  );

  app.post(
    '/notification/read',
    {
      config: { access: { session: true } },
      schema: { tags: ['notification'], summary: 'Marks one of the session user’s notifications read', body: ReadBody, response: { 200: ReadAnswer, ...errors } },
    },
    (request) => readNotification(db, app.events, requireUser(request), request.body.id),
  );

  app.post(
    '/notification/readAll',
    {
      config: { access: { session: true } },
      schema: { tags: ['notification'], summary: "Marks all the session user's notifications read", response: { 200: ReadAllAnswer, ...errors } },
    },
    (request) => readAllNotifications(db, app.events, requireUser(request)),
  );

  app.post(
    '/notification/send',
    {
      config: { access: { admin: true } },
      schema: {
        tags: ['notification'],
        summary: 'An administrator’s message to users by id, or to every holder of a right in a project',
        body: SendBody,
        response: { 200: SendAnswer, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { userIds, right, projectId, title, body, link } = request.body;
      const target = right ? { right: right as RightName, projectId: projectId ?? user.projectId ?? 0 } : undefined;
      const raised = await inTransaction(db, (trx) =>
        raiseNotification(trx, app.events, {
          userIds,
          right: target,
          category: 'message',
          title: { text: title },
          body: body === undefined ? undefined : { text: body },
          link,
          projectId: target?.projectId ?? projectId ?? null,
          by: user.loginAccount,
          refuseUnknownUsers: true,
        }),
      );
      return { recipients: raised.userIds.length };
    },
  );

  app.get(
    '/notification/stream',
    {
      config: { access: { session: true } },
      schema: {
        tags: ['notification'],
        summary: "Server-sent events: `notification` whenever the session user's notifications change (token in the Authorization header)",
      },
    },
    (request, reply) => {
      const user = requireUser(request);
      const token = bearerToken(request) ?? '';
      reply.hijack();
      const response = reply.raw;
      // The security headers the hooks have set so far, then the stream's own.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) response.setHeader(name, value);
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      response.write('retry: 3000\n\nevent: ready\ndata: {}\n\n');
      const forget = streams.add(user.userId, response, async () => (await resolveSessionUser(db, token))?.sessionId === user.sessionId);
      response.on('close', forget);
    },
  );
};
