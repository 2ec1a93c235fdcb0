import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { warehousePlaceOf } from '../../area-kit/route-scope.js';
import { inTransaction } from '../../db/transaction.js';
import { pageAccess, routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import { issueCustomer, issueDevice, listCustomers, listDevices, revokeDevice, setCustomerActive } from './laundry.admin.js';
import { laundryPublicRoutes } from './laundry.public-routes.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const route = routeOptions(['laundry'], errors);

/** Listing needs the laundry page's view right; issuing and revoking its edit right; both in the session's warehouse. */
const { view: VIEW, edit: EDIT } = pageAccess('laundry.admin', 'warehouse', 'view', 'edit');

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });

/**
 * The laundry's administration (signed in, with the laundry right): devices of the session's
 * warehouse (the key answered once, stored hashed, revocable) and customers with their issued code.
 * Then the public /moose routes of the phone screens.
 */
export const laundryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.post('/laundry/devices', route(VIEW, "The laundry devices of the session's warehouse, newest first", { body: Type.Optional(StrictObject({})) }), async (request) => ({
    rows: await listDevices(db, warehousePlaceOf(request)),
  }));

  app.post('/laundry/device/issue', route(EDIT, "Issues a laundry device of the session's warehouse; its key is answered this once", { body: StrictObject({ name: Name }) }), (request) =>
    inTransaction(db, (trx) => issueDevice(trx, warehousePlaceOf(request), request.body.name)),
  );

  app.post('/laundry/device/revoke', route(EDIT, 'Revokes a laundry device: its key is refused from now on', { body: StrictObject({ deviceId: IdSchema }) }), (request) =>
    inTransaction(db, (trx) => revokeDevice(trx, warehousePlaceOf(request), request.body.deviceId)),
  );

  app.post('/laundry/customers', route(VIEW, "The laundry customers of the session's warehouse, newest first", { body: Type.Optional(StrictObject({})) }), async (request) => ({
    rows: await listCustomers(db, warehousePlaceOf(request)),
  }));

  app.post(
    '/laundry/customer/issue',
    route(EDIT, 'Issues a laundry customer with a new customer code', {
      body: StrictObject({ name: Name, phone: Type.Optional(Type.Union([Type.String({ maxLength: 40, pattern: '^[0-9 +()-]*$' }), Type.Null()])) }),
    }),
    (request) => inTransaction(db, (trx) => issueCustomer(trx, warehousePlaceOf(request), request.body)),
  );

  app.post(
    '/laundry/customer/active',
    route(EDIT, "Withdraws a customer's code (active false) or gives it back", { body: StrictObject({ customerId: IdSchema, active: Type.Boolean() }) }),
    (request) => inTransaction(db, (trx) => setCustomerActive(trx, warehousePlaceOf(request), request.body.customerId, request.body.active)),
  );

  await app.register(laundryPublicRoutes);
};
