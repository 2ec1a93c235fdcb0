import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { Type } from 'typebox';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { requireProject, requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { Quantity } from '../../http/quantity-schema.js';
import { routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import type { Actor } from './inbound.common.js';

/** What the inbound routes share: their options, the body parts, the rights and the caller's scope. */

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
/** The options of an inbound route: its right, summary and request; it answers JSON or an error body. */
export const route = routeOptions(['inbound'], errors);

/** A quantity above 0 (the one rule of every route: http/quantity-schema.ts). */
export const Qty = Quantity();
export const Text = (max = 100) => Type.String({ maxLength: max });
export const OptText = (max = 100) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
export const DateText = Type.Optional(Type.Union([Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), Type.Null()]));
export const Code = Type.String({ minLength: 1, maxLength: 100 });

export const LotFields = {
  lotNo: OptText(),
  manufactureDate: DateText,
  expiryDate: DateText,
  shelfDate: DateText,
  udf1: OptText(),
  udf2: OptText(),
  udf3: OptText(),
};

export const ASN_VIEW = { right: 'inbound.asn:view', scope: 'warehouse' } as const;
export const ASN_ADD = { right: 'inbound.asn:add', scope: 'warehouse' } as const;
export const ASN_EDIT = { right: 'inbound.asn:edit', scope: 'warehouse' } as const;
export const ASN_DELETE = { right: 'inbound.asn:delete', scope: 'warehouse' } as const;
export const ASN_CANCEL = { right: 'inbound.asn:cancel', scope: 'warehouse' } as const;
export const ASN_CLOSE = { right: 'inbound.asn:close', scope: 'warehouse' } as const;
export const RECEIVE = { right: 'inbound.asn:receive', scope: 'warehouse' } as const;
export const PUTAWAY_VIEW = { right: 'inbound.putaway:view', scope: 'warehouse' } as const;
export const PUTAWAY_CONFIRM = { right: 'inbound.putaway:confirm', scope: 'warehouse' } as const;

/** The caller's project, warehouse and login; every inbound call is limited to them. */
export function actorOf(request: FastifyRequest): Actor {
  const user = requireUser(request);
  return { projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId, login: user.loginAccount };
}

/** Runs a route's work in one transaction, as the caller, with the application's event bus. */
export function writerOf(app: FastifyInstance) {
  return <T>(request: FastifyRequest, work: (trx: Transaction<DB>, actor: Actor) => Promise<T>): Promise<T> => {
    const actor = { ...actorOf(request), events: app.events };
    return inTransaction(app.database.db, (trx) => work(trx, actor));
  };
}
