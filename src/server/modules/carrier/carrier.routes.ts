import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { requireProject, requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { pageAccess, routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import * as carrier from './carrier.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 502: ErrorBodySchema, 503: ErrorBodySchema, 504: ErrorBodySchema };
const route = routeOptions(['carrier'], errors);

const { view: SHIPMENT_VIEW, edit: SHIPMENT_EDIT } = pageAccess('carrier.shipment', 'warehouse', 'view', 'edit');
const { view: CHECK_VIEW, edit: CHECK_EDIT } = pageAccess('carrier.courierCheck', 'warehouse', 'view', 'edit');

const Code = Type.String({ minLength: 1, maxLength: 100 });
const OptCode = Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()]));
const Format = Type.Union([Type.Literal('pdf'), Type.Literal('zpl')]);

function scopeOf(request: FastifyRequest): carrier.CarrierScope {
  const user = requireUser(request);
  return { projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId, by: user.loginAccount };
}

/**
 * Carrier shipments of the session's project and warehouse: booking with the carrier, parcels of
 * orders on it, look-up by reference, cancel, the label (download and print), and the courier
 * check. Every call to a carrier happens before anything is written.
 */
export const carrierRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.post('/so/createDhlShipmentId', route(SHIPMENT_EDIT, 'Books a carrier shipment with its carrier and keeps the carrier shipment id (again: the same id)', { body: StrictObject({ shipmentId: IdSchema }) }), (request) =>
    carrier.createShipmentId(db, scopeOf(request), request.body.shipmentId),
  );

  app.post(
    '/so/addOrderToDhlShipmentId',
    route(SHIPMENT_EDIT, "Registers the closed cartons of orders, by id or number (or the named ones, which must be the orders') as parcels on a booked carrier shipment", {
      body: StrictObject({ shipmentId: IdSchema, soIds: Type.Optional(Type.Array(IdSchema, { maxItems: 100 })), orderNos: Type.Optional(Type.Array(Code, { maxItems: 100 })), cartonNos: Type.Optional(Type.Array(Code, { maxItems: 500 })) }),
    }),
    (request) => carrier.addOrders(db, scopeOf(request), request.body),
  );

  app.post('/so/findDhlShipmentReference', route(SHIPMENT_VIEW, 'Carrier shipments by their reference, with their parcels and what the carrier knows of them', { body: StrictObject({ reference: Code }) }), (request) =>
    carrier.findShipmentReference(db, scopeOf(request), request.body.reference),
  );

  app.post('/carrier/shipment/cancel', route(SHIPMENT_EDIT, 'Cancels a carrier shipment, at the carrier first when it is booked', { body: StrictObject({ shipmentId: IdSchema }) }), (request) =>
    carrier.cancelShipment(db, scopeOf(request), request.body.shipmentId),
  );

  app.post('/carrier/courierCheck', route(CHECK_VIEW, 'An order and/or a parcel (carton, SSCC or tracking number): carrier shipment, tracking, and whether the parcel is the order\'s', { body: StrictObject({ orderNo: OptCode, code: OptCode }) }), (request) =>
    carrier.courierCheck(db, scopeOf(request), request.body),
  );

  app.get(
    '/carrier/label',
    { config: { access: CHECK_VIEW }, schema: { tags: ['carrier'], summary: "A booked carrier shipment's label from its carrier, as a PDF or ZPL file", querystring: StrictObject({ shipmentId: IdSchema, format: Format }) } },
    async (request, reply) => {
      const label = await carrier.shipmentLabel(db, scopeOf(request), request.query.shipmentId, request.query.format);
      return reply.header('content-type', label.contentType).header('content-disposition', `attachment; filename="${label.fileName}"`).send(label.body);
    },
  );

  app.post(
    '/carrier/label/print',
    route(CHECK_EDIT, "Prints a booked carrier shipment's label from its carrier on a printer of the warehouse", { body: StrictObject({ shipmentId: IdSchema, printerId: IdSchema, format: Format }) }),
    (request) => carrier.printShipmentLabel(db, scopeOf(request), request.body),
  );
};
