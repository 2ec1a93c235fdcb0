import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Transaction } from 'kysely';
import { Type, type Static, type TSchema } from 'typebox';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import type { RouteAccess, SessionUser } from '../../http/access.js';
import { requireUser } from '../../http/access-plugin.js';
import { ErrorBodySchema, IdSchema } from '../../http/schemas.js';
import {
  addMessage,
  approveReopen,
  closeTicket,
  pickOrganizations,
  pickProjects,
  reopenTicket,
  saveLogNote,
  sendTicket,
  ticketDetail,
  ticketList,
  ticketLog,
  ticketByNumber,
  ticketView,
} from './support.service.js';
import type { TicketRow } from './support.repository.js';
import { TICKET_CATEGORIES, TICKET_PRIORITIES, TICKET_STATUSES } from './support.tables.js';

const Text = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });
const Option = Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const TicketSchema = Type.Object({
  id: Type.Integer(),
  number: Type.String(),
  type: Type.String(),
  organizationId: Type.Integer(),
  projectId: Type.Integer(),
  organizationCode: Nullable(Type.String()),
  projectCode: Nullable(Type.String()),
  subject: Type.String(),
  category: Type.String(),
  priority: Type.String(),
  status: Type.String(),
  requester: Type.String(),
  asnNumber: Nullable(Type.String()),
  requestStatus: Nullable(Type.String()),
  decidedBy: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const Placement = {
  organizationId: IdSchema,
  projectId: IdSchema,
  priority: Type.Optional(Type.Union(TICKET_PRIORITIES.map((p) => Type.Literal(p)))),
  message: Text(4000),
};
const SendBody = Type.Object(
  { ...Placement, subject: Text(200), category: Type.Optional(Type.Union(TICKET_CATEGORIES.map((c) => Type.Literal(c)))) },
  { additionalProperties: false },
);
const ReopenBody = Type.Object(
  { ...Placement, subject: Type.Optional(Text(200)), asnNumber: Type.String({ minLength: 1, maxLength: 50, pattern: '^[A-Za-z0-9][A-Za-z0-9._/-]*$' }) },
  { additionalProperties: false },
);
const ListBody = Type.Object(
  {
    status: Type.Optional(Type.Union(TICKET_STATUSES.map((s) => Type.Literal(s)))),
    projectId: Type.Optional(IdSchema),
    search: Type.Optional(Type.String({ maxLength: 100 })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  },
  { additionalProperties: false },
);
const TicketIdBody = Type.Object({ ticketId: IdSchema }, { additionalProperties: false });
const MessageBody = Type.Object({ ticketId: IdSchema, message: Text(4000) }, { additionalProperties: false });
const LogBody = Type.Object({ ticketId: IdSchema, note: Text(1000) }, { additionalProperties: false });
const ProjectsQuery = Type.Object({ organizationId: Type.Optional(IdSchema) }, { additionalProperties: false });

const DetailAnswer = Type.Object({
  header: TicketSchema,
  messages: Type.Array(Type.Object({ id: Type.Integer(), author: Type.String(), text: Type.String(), at: Type.String() })),
});
const LogAnswer = Type.Array(
  Type.Object({ id: Type.Integer(), at: Type.String(), by: Type.String(), action: Type.String(), details: Nullable(Type.Record(Type.String(), Type.Unknown())) }),
);

type RouteConfig = { access: RouteAccess };

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const tags = ['support'];

/**
 * Support tickets (the /support screen and the create-ticket dialog; `/generic/support/*`). Everyone with the support module files and follows his own tickets;
 * the verb `support.ticket:answer` sees and answers every ticket of the user's projects, the verb
 * `support.ticket:approve` approves reopen-ASN requests. Attachments on messages belong to the
 * attachments area (a message id is the record they hang on); this area stores none.
 */
export const supportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const view = { access: { right: 'support:view', scope: 'none' } } as const;
  const add = { access: { right: 'support:add', scope: 'none' } } as const;
  const edit = { access: { right: 'support:edit', scope: 'none' } } as const;

  app.get(
    '/generic/support/getOrgs',
    { config: view, schema: { tags, summary: 'Organizations the caller may file a ticket for', response: { 200: Type.Array(Option), ...errors } } },
    (request) => pickOrganizations(db, requireUser(request)),
  );

  app.get(
    '/generic/support/getProjects',
    {
      config: view,
      schema: {
        tags,
        summary: 'Projects (of one organization) the caller may file a ticket for',
        querystring: ProjectsQuery,
        response: { 200: Type.Array(Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String(), organizationId: Type.Integer() })), ...errors },
      },
    },
    (request) => pickProjects(db, requireUser(request), request.query.organizationId),
  );

  app.post(
    '/generic/support/getSupportHeaderList',
    { config: view, schema: { tags, summary: 'The tickets the caller may see, newest first', body: ListBody, response: { 200: Type.Object({ total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer(), rows: Type.Array(TicketSchema) }), ...errors } } },
    (request) => {
      const body = request.body;
      return ticketList(db, requireUser(request), { status: body.status, projectId: body.projectId, search: body.search?.trim() || undefined, page: body.page ?? 1, pageSize: body.pageSize ?? 20 });
    },
  );

  app.post(
    '/generic/support/getSupportDetailList',
    { config: view, schema: { tags, summary: "A ticket's header and messages", body: TicketIdBody, response: { 200: DetailAnswer, ...errors } } },
    (request) => ticketDetail(db, requireUser(request), request.body.ticketId),
  );

  /** A call that files or changes one ticket in one transaction, answered with the ticket as it is then. */
  function ticketChange<Body extends TSchema>(
    url: string,
    config: RouteConfig,
    summary: string,
    body: Body,
    change: (trx: Transaction<DB>, user: SessionUser, body: Static<Body>) => Promise<TicketRow>,
  ): void {
    app.post(url, { config, schema: { tags, summary, body, response: { 200: TicketSchema, ...errors } } }, async (request) => {
      const user = requireUser(request);
      return ticketView(await inTransaction(db, (trx) => change(trx, user, request.body as Static<Body>)));
    });
  }

  ticketChange('/generic/support/sendSupport', add, 'Files a ticket with its first message', SendBody, (trx, user, body) =>
    sendTicket(trx, app.events, user, { ...body, category: body.category ?? 'question', priority: body.priority ?? 'normal' }),
  );
  ticketChange('/generic/support/sendSupportA01ReopenASN', add, 'Files a request (A01) to reopen a closed ASN, which an approver decides', ReopenBody, (trx, user, body) => {
    const { asnNumber, subject, ...rest } = body;
    return sendTicket(trx, app.events, user, { ...rest, subject: subject ?? `Reopen ASN ${asnNumber}`, category: 'request', priority: rest.priority ?? 'normal' }, { asnNumber });
  });
  ticketChange('/generic/support/message', add, 'Adds a message to an open ticket', MessageBody, (trx, user, body) => addMessage(trx, app.events, user, body.ticketId, body.message));
  ticketChange('/generic/support/close', edit, 'Closes a ticket', TicketIdBody, (trx, user, body) => closeTicket(trx, app.events, user, body.ticketId));
  ticketChange('/generic/support/reopen', edit, 'Reopens a closed ticket', TicketIdBody, (trx, user, body) => reopenTicket(trx, app.events, user, body.ticketId));
  ticketChange(
    '/generic/support/approveA01ReopenASN',
    { access: { right: 'support.ticket:approve', scope: 'none' } },
    'Approves a reopen-ASN request: the ASN is reopened in the same transaction',
    TicketIdBody,
    (trx, user, body) => approveReopen(trx, app.events, app.areas.modules, user, body.ticketId),
  );

  app.post(
    '/generic/support/saveLog',
    { config: add, schema: { tags, summary: "Adds a note to a ticket's log", body: LogBody, response: { 200: Type.Object({ ok: Type.Boolean() }), ...errors } } },
    async (request) => {
      const user = requireUser(request);
      await inTransaction(db, (trx) => saveLogNote(trx, user, request.body.ticketId, request.body.note));
      return { ok: true };
    },
  );

  app.get(
    '/generic/support/:hash',
    {
      config: view,
      schema: {
        tags,
        summary: 'A ticket by its number (the link to a ticket): header and messages',
        params: Type.Object({ hash: Type.String({ minLength: 1, maxLength: 20, pattern: '^[A-Za-z0-9]+$' }) }),
        response: { 200: DetailAnswer, ...errors },
      },
    },
    (request) => ticketByNumber(db, requireUser(request), request.params.hash),
  );

  app.post(
    '/generic/support/getLog',
    { config: view, schema: { tags, summary: "A ticket's log: every change with who, when and what", body: TicketIdBody, response: { 200: LogAnswer, ...errors } } },
    (request) => ticketLog(db, requireUser(request), request.body.ticketId),
  );
};
