import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requireUser } from '../../http/access-plugin.js';
import { Quantity } from '../../http/quantity-schema.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import { confirmVerb } from './document.service.js';
import { handheldCountTicket, handheldCountTickets, handheldMove, handheldStock } from './handheld.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const tags = ['inventory'];
const Code = (max: number) => Type.String({ minLength: 1, maxLength: max });
const Optional = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));

/**
 * The handheld move and count calls (the Move and Count tabs of the handheld /putaway screen):
 * the stock at a scanned location, a move made and confirmed at once, and a count ticket read
 * blind. Count entries use `/inventory/cycleCount/count`.
 */
export const handheldRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.post(
    '/inventory/handheld/stock',
    {
      config: { access: { right: 'inventory.lnvnMove:view', scope: 'warehouse' } },
      schema: {
        tags,
        summary: 'The stock at a scanned location (of a scanned SKU, lot or LPN), with what is free to move',
        body: Type.Object({ location: Code(40), sku: Optional(60), lotNo: Optional(60), lpn: Optional(60) }, { additionalProperties: false }),
        response: { 200: Type.Any(), ...errors },
      },
    },
    async (request) => handheldStock(db, { user: requireUser(request) }, request.body),
  );

  app.post(
    '/inventory/handheld/move',
    {
      config: { access: { right: confirmVerb('move'), scope: 'warehouse' } },
      schema: {
        tags,
        summary: 'A move from a location to another, made and confirmed at once as a move document',
        body: Type.Object(
          {
            fromLocation: Code(40),
            sku: Code(60),
            lotNo: Optional(60),
            lpn: Optional(60),
            qty: Quantity(),
            toLocation: Code(40),
            toLpn: Optional(60),
            reason: Optional(40),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ ok: Type.Literal(true), docNo: Type.String(), documentId: Type.Integer(), ledgerRows: Type.Integer() }), ...errors },
      },
    },
    async (request) => ({ ok: true as const, ...(await inTransaction(db, (trx) => handheldMove(trx, { user: requireUser(request) }, request.body))) }),
  );

  app.get(
    '/inventory/handheld/countTickets',
    {
      config: { access: { right: 'inventory.cycleCount:edit', scope: 'warehouse' } },
      schema: { tags, summary: 'Count tickets that take counts (open, counted or in recount)', response: { 200: Type.Any(), ...errors } },
    },
    async (request) => ({ tickets: await handheldCountTickets(db, { user: requireUser(request) }) }),
  );

  app.post(
    '/inventory/handheld/countTicket',
    {
      config: { access: { right: 'inventory.cycleCount:edit', scope: 'warehouse' } },
      schema: {
        tags,
        summary: 'A count ticket by id or scanned number, its lines blind (no system qty)',
        body: Type.Union([
          Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) }, { additionalProperties: false }),
          Type.Object({ ticketNo: Code(40) }, { additionalProperties: false }),
        ]),
        response: { 200: Type.Any(), ...errors },
      },
    },
    async (request) => handheldCountTicket(db, { user: requireUser(request) }, request.body),
  );
};
