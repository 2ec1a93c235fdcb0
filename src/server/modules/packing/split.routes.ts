import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requireProject, requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { Quantity } from '../../http/quantity-schema.js';
import { routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import type { StockScope } from '../inventory/index.js';
import { splitScan, splitSource } from './split.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const route = routeOptions(['packing'], errors);

/** Splitting cartons is packing: the pack page's edit right, in the session's warehouse. */
const PACK_EDIT = { right: 'packing.pack:edit', scope: 'warehouse' } as const;

/**
 * The split scan calls: the source carton by its scanned number, and each item scan moving stock
 * into the new carton (one transaction per scan). The new carton is closed by `/pack/scan/close`.
 */
export const splitRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const scopeOf = (request: Parameters<typeof requireUser>[0]): StockScope => {
    const user = requireUser(request);
    return { projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId, operator: user.loginAccount };
  };

  app.post(
    '/pack/split/source',
    route(PACK_EDIT, 'The packed carton of a scanned carton number, open or closed, with its order and what it holds', {
      body: StrictObject({ cartonNo: Type.String({ minLength: 1, maxLength: 60 }) }),
    }),
    (request) => splitSource(db, scopeOf(request), request.body.cartonNo),
  );

  app.post(
    '/pack/split/scan',
    route(PACK_EDIT, 'Moves a scanned item out of the source carton into the target carton of the same order, opening the target on the first scan', {
      body: StrictObject({
        sourceCartonId: IdSchema,
        targetCartonId: Type.Optional(Type.Union([IdSchema, Type.Null()])),
        barcode: Type.String({ minLength: 1, maxLength: 200 }),
        qty: Type.Optional(Quantity()),
      }),
    }),
    (request) => {
      const scope = scopeOf(request);
      return inTransaction(db, (trx) => splitScan(trx, scope, request.body));
    },
  );
};
