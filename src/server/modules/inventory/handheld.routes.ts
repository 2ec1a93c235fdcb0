import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { CountTicketsAnswer, HandheldMoveAnswer } from '../../../common/inventory-api.js';
import { withIdempotency } from '../../area-kit/idempotency.js';
import { inTransaction } from '../../db/transaction.js';
import { requireUser } from '../../http/access-plugin.js';
import { Quantity } from '../../http/quantity-schema.js';
import { route } from './inventory.schemas.js';
import { confirmVerb } from './document.service.js';
import { handheldCountTicket, handheldCountTickets, handheldMove, handheldStock } from './handheld.service.js';

const Code = (max: number) => Type.String({ minLength: 1, maxLength: max });
const Optional = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));

/**
 * The handheld move and count calls (the Move and Count tabs of the handheld /putaway screen):
 * the stock at a scanned location, a move made and confirmed at once, and a count ticket read
 * blind. Count entries use `/inventory/cycleCount/count`.
 */
export const handheldRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  const MOVE = { right: confirmVerb('move'), scope: 'warehouse' } as const;
  const COUNT = { right: 'inventory.cycleCount:edit', scope: 'warehouse' } as const;

  app.post(
    '/inventory/handheld/stock',
    route({ right: 'inventory.lnvnMove:view', scope: 'warehouse' }, 'The stock at a scanned location (of a scanned SKU, lot or LPN), with what is free to move', {
      body: Type.Object({ location: Code(40), sku: Optional(60), lotNo: Optional(60), lpn: Optional(60) }, { additionalProperties: false }),
    }),
    async (request) => handheldStock(db, { user: requireUser(request) }, request.body),
  );

  app.post(
    '/inventory/handheld/move',
    route(
      MOVE,
      'A move from a location to another, made and confirmed at once as a move document',
      {
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
      },
      Type.Object({ ok: Type.Literal(true), docNo: Type.String(), documentId: Type.Integer(), ledgerRows: Type.Integer() }),
    ),
    async (request): Promise<HandheldMoveAnswer> => ({ ok: true as const, ...(await inTransaction(db, (trx) => withIdempotency(request, trx, () => handheldMove(trx, { user: requireUser(request) }, request.body)))) }),
  );

  app.get('/inventory/handheld/countTickets', route(COUNT, 'Count tickets that take counts (open, counted or in recount)'), async (request): Promise<CountTicketsAnswer> => ({
    tickets: await handheldCountTickets(db, { user: requireUser(request) }),
  }));

  app.post(
    '/inventory/handheld/countTicket',
    route(COUNT, 'A count ticket by id or scanned number, its lines blind (no system qty)', {
      body: Type.Union([
        Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) }, { additionalProperties: false }),
        Type.Object({ ticketNo: Code(40) }, { additionalProperties: false }),
      ]),
    }),
    async (request) => handheldCountTicket(db, { user: requireUser(request) }, request.body),
  );
};
