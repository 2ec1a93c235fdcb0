import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { placeWriter, warehousePlaceOf } from '../../area-kit/route-scope.js';
import { Type } from 'typebox';
import { readSheetRows } from '../../../../engine/server/index.js';
import { AppError } from '../../../common/errors.js';
import { inTransaction } from '../../db/transaction.js';
import { registerMultipart } from '../../http/multipart.js';
import { Quantity } from '../../http/quantity-schema.js';
import { pageAccess, routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import { attachmentMultipartLimits, readPlacedUpload } from '../attachment/index.js';
import * as service from './transport.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 413: ErrorBodySchema, 415: ErrorBodySchema };
const route = routeOptions(['transport'], errors);

/** Delivery orders: the /tmsOrder page's rights; routes: the route planner's (/doOrders). */
const { view: DO_VIEW, add: DO_ADD, edit: DO_EDIT, delete: DO_DELETE } = pageAccess('transport.tmsOrder', 'warehouse', 'view', 'add', 'edit', 'delete');
const { view: PLAN_VIEW, edit: PLAN_EDIT } = pageAccess('transport.doOrders', 'warehouse', 'view', 'edit');

const OptText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
const OptTime = Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Literal(''), Type.Null()]));
const Day = Type.String({ format: 'date' });
const IdList = Type.Array(IdSchema, { minItems: 1, maxItems: 500 });
const DoFields = {
  doNo: OptText(40),
  customerName: Type.String({ minLength: 1, maxLength: 200 }),
  consigneeName: OptText(200),
  address: OptText(500),
  city: OptText(100),
  latitude: Type.Optional(Type.Union([Type.Number({ minimum: -90, maximum: 90 }), Type.Null()])),
  longitude: Type.Optional(Type.Union([Type.Number({ minimum: -180, maximum: 180 }), Type.Null()])),
  windowFrom: OptTime,
  windowTo: OptTime,
  weightKg: Type.Optional(Quantity({ zero: true, nullable: true })),
  volumeM3: Type.Optional(Quantity({ zero: true, nullable: true })),
  palletCount: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 100000 }), Type.Null()])),
  remarks: OptText(1000),
};

/**
 * Transport: delivery orders (list, find, save, delete, import from a sheet, make from shipped sales
 * orders) and routes (list, save, delete, add and take off stops, sort, split, merge, confirm and
 * unconfirm). The spellings `comfirmRoute` and `uncomfirmRoute` are the published API's. Everything is
 * limited to the session's project and warehouse; each write is one transaction.
 */
export const transportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const limitBytes = app.config.attachmentLimitBytes;
  const tileUrl = app.config.mapTileUrl ?? null;
  await registerMultipart(app, attachmentMultipartLimits(limitBytes));
  /** Runs a route's work in one transaction, in the caller's project and warehouse. */
  const write = placeWriter(db, warehousePlaceOf);

  app.get(
    '/tms/getTmsDoHeaders',
    route(DO_VIEW, 'Delivery orders of the warehouse, of one status when given (at most 500, newest first)', {
      querystring: StrictObject({ status: Type.Optional(Type.Union(['unplanned', 'planned', 'confirmed', 'delivered'].map((s) => Type.Literal(s)))) }),
    }),
    async (request) => ({ rows: await service.listDeliveryOrders(db, warehousePlaceOf(request), { status: request.query.status }) }),
  );

  app.get(
    '/tms/findDeliveries',
    route(DO_VIEW, 'Delivery orders whose number, customer, consignee, city or sales order contains the text', { querystring: StrictObject({ q: Type.String({ minLength: 1, maxLength: 100 }) }) }),
    async (request) => ({ rows: await service.listDeliveryOrders(db, warehousePlaceOf(request), { text: request.query.q }) }),
  );

  app.post('/tms/saveTmsDoHeader', route(DO_EDIT, 'Adds a delivery order (without id) or changes an unplanned one', { body: StrictObject({ id: Type.Optional(IdSchema), ...DoFields }) }), (request) =>
    write(request, (trx, scope) => service.saveDeliveryOrder(trx, scope, request.body)),
  );

  app.post('/tms/deleteTmsDoHeader', route(DO_DELETE, 'Deletes an unplanned delivery order', { body: StrictObject({ id: IdSchema }) }), (request) =>
    write(request, (trx, scope) => service.deleteDeliveryOrder(trx, scope, request.body.id)),
  );

  app.post(
    '/tms/importTmsDoHeaders',
    route(DO_ADD, 'Imports delivery orders from an xlsx or csv file (multipart: file; first row the column names); all rows or none, every failing row answered'),
    async (request) => {
      const { place, file } = await readPlacedUpload(request, limitBytes, warehousePlaceOf, { file: true });
      const rows = await readSheetRows(file.fileName, file.data).catch(() => {
        throw new AppError('IMPORT_FILE_INVALID', { reason: 'not a readable xlsx or csv file' });
      });
      return inTransaction(db, (trx) => service.importDeliveryOrders(trx, place, rows));
    },
  );

  app.post(
    '/tms/createFromShippedOrders',
    route(DO_ADD, 'Makes an unplanned delivery order of each shipped sales order (these, or all of the warehouse) that has none yet', { body: StrictObject({ soIds: Type.Optional(IdList) }) }),
    (request) => write(request, (trx, scope) => service.createFromShippedOrders(trx, scope, request.body.soIds)),
  );

  app.get('/tms/choices', route(PLAN_VIEW, "The warehouse's active vehicles (with their capacity) and drivers, for a route"), (request) => service.choices(db, warehousePlaceOf(request)));

  app.post(
    '/tms/getRoutes',
    route(PLAN_VIEW, 'Routes of the warehouse (of one day, or these, or the open and recent ones) with their stops, load, capacity and distance, and the map settings', {
      body: StrictObject({ date: Type.Optional(Day), ids: Type.Optional(IdList) }),
    }),
    (request) => service.getRoutes(db, warehousePlaceOf(request), request.body, tileUrl),
  );

  app.post(
    '/tms/saveRoute',
    route(PLAN_EDIT, 'Creates a route (without id) or changes an open one: day, vehicle and driver', {
      body: StrictObject({ id: Type.Optional(IdSchema), routeDate: Day, vehicleId: Type.Optional(Type.Union([IdSchema, Type.Null()])), driverId: Type.Optional(Type.Union([IdSchema, Type.Null()])), remarks: OptText(500) }),
    }),
    (request) => write(request, (trx, scope) => service.saveRoute(trx, scope, request.body)),
  );

  app.post('/tms/deleteRoute', route(PLAN_EDIT, 'Deletes an open route; its delivery orders become unplanned', { body: StrictObject({ id: IdSchema }) }), (request) =>
    write(request, (trx, scope) => service.deleteRoute(trx, scope, request.body.id)),
  );

  app.post(
    '/tms/addOrdersToRoute',
    route(PLAN_EDIT, 'Puts delivery orders (unplanned, or of another open route) on an open route at a position (default the end)', {
      body: StrictObject({ routeId: IdSchema, doIds: IdList, position: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })) }),
    }),
    (request) => write(request, (trx, scope) => service.addOrdersToRoute(trx, scope, request.body)),
  );

  app.post('/tms/removeOrderFromRoute', route(PLAN_EDIT, 'Takes a delivery order off an open route; it becomes unplanned', { body: StrictObject({ routeId: IdSchema, doId: IdSchema }) }), (request) =>
    write(request, (trx, scope) => service.removeOrderFromRoute(trx, scope, request.body)),
  );

  app.post('/tms/sortWay', route(PLAN_EDIT, "Sorts an open route's stops into the order given (exactly its stops)", { body: StrictObject({ routeId: IdSchema, doIds: IdList }) }), (request) =>
    write(request, (trx, scope) => service.sortWay(trx, scope, request.body)),
  );

  app.post(
    '/tms/splitRoute',
    route(PLAN_EDIT, 'Splits an open route at a stop: that stop and the ones after it go to a new route of the same day, vehicle and driver', { body: StrictObject({ routeId: IdSchema, doId: IdSchema }) }),
    (request) => write(request, (trx, scope) => service.splitRoute(trx, scope, request.body)),
  );

  app.post('/tms/mergeRoute', route(PLAN_EDIT, "Merges an open route into another: its stops follow the target's and it is deleted", { body: StrictObject({ routeId: IdSchema, fromRouteId: IdSchema }) }), (request) =>
    write(request, (trx, scope) => service.mergeRoute(trx, scope, request.body)),
  );

  app.post('/tms/comfirmRoute', route(PLAN_EDIT, 'Confirms an open route with stops: read-only until unconfirmed, its orders confirmed', { body: StrictObject({ routeId: IdSchema }) }), (request) =>
    write(request, (trx, scope) => service.setConfirmed(trx, scope, request.body.routeId, true)),
  );

  app.post('/tms/uncomfirmRoute', route(PLAN_EDIT, 'Opens a confirmed route again; its orders are planned again', { body: StrictObject({ routeId: IdSchema }) }), (request) =>
    write(request, (trx, scope) => service.setConfirmed(trx, scope, request.body.routeId, false)),
  );
};
