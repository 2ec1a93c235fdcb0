import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { Type } from 'typebox';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { requireProject, requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { Quantity } from '../../http/quantity-schema.js';
import { routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import type { StockScope } from '../inventory/index.js';
import { CARTON_TYPE, checkComplete, closeCartonOf, codeList, openCarton, packItem, removeItem, startPacking, WEIGHT_UOM } from './packing.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const route = routeOptions(['packing'], errors);

/** Reading what packing shows needs the pack page's view right; packing anything needs its edit right. */
const PACK_VIEW = { right: 'packing.pack:view', scope: 'warehouse' } as const;
const PACK_EDIT = { right: 'packing.pack:edit', scope: 'warehouse' } as const;

const OptText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
const Scan = { cartonId: IdSchema, barcode: Type.String({ minLength: 1, maxLength: 200 }), qty: Type.Optional(Quantity()) };

function scopeOf(request: FastifyRequest): StockScope {
  const user = requireUser(request);
  return { projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId, operator: user.loginAccount };
}

/**
 * The scan-and-pack calls: carton types and weight units, start packing an order, open a carton,
 * pack and take out scanned items, close a carton, and check the order complete. All are limited
 * to the session's project and warehouse; each write is one transaction.
 */
export const packingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const write = <T>(request: FastifyRequest, work: (trx: Transaction<DB>, scope: StockScope) => Promise<T>) => {
    const scope = scopeOf(request);
    return inTransaction(db, (trx) => work(trx, scope));
  };

  app.get('/pack/carton/type', route(PACK_VIEW, 'The carton types (code master CARTON_TYPE) with their description'), async (request) => {
    scopeOf(request);
    return { rows: await codeList(db, CARTON_TYPE, request.language) };
  });

  app.get('/pack/scan/wgtUom', route(PACK_VIEW, 'The units a carton weight may be given in (code master WEIGHT_UOM)'), async (request) => {
    scopeOf(request);
    return { rows: await codeList(db, WEIGHT_UOM, request.language) };
  });

  app.post(
    '/scanPack',
    route(PACK_VIEW, 'Starts packing an order by its number (and the wave it must be on, when packing by wave): its lines with ordered, picked and packed qty, and its cartons', {
      body: StrictObject({ orderNo: Type.String({ minLength: 1, maxLength: 100 }), waveNo: OptText(100), packPicked: Type.Optional(Type.Boolean()) }),
    }),
    (request) => startPacking(db, scopeOf(request), request.body),
  );

  app.post(
    '/pack/scan/open',
    route(PACK_EDIT, 'Opens a new carton for the order, numbered by the carton numbering rule', {
      body: StrictObject({ soId: IdSchema, cartonType: OptText(30), packPicked: Type.Optional(Type.Boolean()) }),
    }),
    (request) => write(request, (trx, scope) => openCarton(trx, scope, request.body)),
  );

  app.post('/pack/scan/sku', route(PACK_EDIT, 'Packs a scanned SKU code, barcode or GS1-128 label into an open carton', { body: StrictObject(Scan) }), (request) =>
    write(request, (trx, scope) => packItem(trx, scope, request.body)),
  );

  app.post('/pack/scan/remove', route(PACK_EDIT, 'Takes a qty of a scanned item out of an open carton, back to where it was picked to', { body: StrictObject(Scan) }), (request) =>
    write(request, (trx, scope) => removeItem(trx, scope, request.body)),
  );

  app.post(
    '/pack/scan/close',
    route(PACK_EDIT, 'Closes an open carton with its gross and net weight and dimensions', {
      body: StrictObject({
        cartonId: IdSchema,
        cartonType: OptText(30),
        grossWeight: Quantity(),
        netWeight: Quantity(),
        weightUom: Type.String({ minLength: 1, maxLength: 10 }),
        length: Type.Optional(Quantity({ nullable: true })),
        width: Type.Optional(Quantity({ nullable: true })),
        height: Type.Optional(Quantity({ nullable: true })),
      }),
    }),
    (request) => write(request, (trx, scope) => closeCartonOf(trx, scope, request.body)),
  );

  app.post('/scanPack/closeOrder', route(PACK_EDIT, 'Checks packing of the order complete: packed, or partially packed', { body: StrictObject({ soId: IdSchema }) }), (request) =>
    write(request, (trx, scope) => checkComplete(trx, scope, request.body.soId)),
  );
};
