import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { Type } from 'typebox';
import { DIALOG_FIELDS, DIMENSION_PATTERN, HANDHELD_FUNCTIONS, LOCATION_RULES } from '../../../common/handheld-api.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { requireProject, requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import { findUserProjects } from '../identity/index.js';
import * as service from './handheld.service.js';
import * as scanValues from './scan-value.service.js';
import { withIdempotency } from '../../area-kit/idempotency.js';
import { Quantity } from '../../http/quantity-schema.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const route = routeOptions(['handheld'], errors);

const CONFIG = (action: 'view' | 'add' | 'edit') => ({ right: `handheld.handheldConfig:${action}`, scope: 'warehouse' }) as const;
const FLOW = { right: 'handheld.rfFlow:view', scope: 'warehouse' } as const;
const DEVICES = { right: 'handheld.rfDevices:view', scope: 'warehouse' } as const;
const END_DEVICE = { right: 'handheld.rfDevices:edit', scope: 'warehouse' } as const;

const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));
const Fn = literals(HANDHELD_FUNCTIONS);
const Status = Type.Union([Type.Literal('active'), Type.Literal('inactive')]);
const Code = Type.String({ minLength: 1, maxLength: 30, pattern: '^[A-Za-z0-9_.-]+$' });
const Name = Type.String({ minLength: 1, maxLength: 100 });
const DeviceId = Type.String({ minLength: 1, maxLength: 60, pattern: '^[A-Za-z0-9_.:-]+$' });
const Step = StrictObject({
  scanName: Type.String({ maxLength: 50 }),
  prompt: Type.String({ maxLength: 200 }),
  action: Type.String({ maxLength: 100 }),
  targetField: Type.String({ maxLength: 50 }),
  optional: Type.Optional(Type.Boolean()),
});
const ScanKey = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._:-]+$' });
const DialogValue = Type.Optional(Quantity({ nullable: true }));
/** The dimension: one measure, or length × width × height (a carton's, on pack). */
const DimensionValue = Type.Optional(Type.Union([Type.String({ maxLength: 60, pattern: DIMENSION_PATTERN }), Type.Literal(''), Type.Null()]));
const Dialog = StrictObject({ show: Type.Boolean(), mandatory: Type.Boolean() });
const Definition = StrictObject({
  flow: StrictObject({ restartAfterConfirm: Type.Boolean() }),
  orderSearch: Type.Union([Step, Type.Null()]),
  steps: Type.Array(Step, { maxItems: 30 }),
  dialogs: StrictObject(Object.fromEntries(DIALOG_FIELDS.map((d) => [d, Dialog])) as Record<(typeof DIALOG_FIELDS)[number], typeof Dialog>),
  locationLogic: Type.Array(literals(LOCATION_RULES), { maxItems: LOCATION_RULES.length, uniqueItems: true }),
});

function placeOf(request: FastifyRequest): service.HandheldPlace {
  const user = requireUser(request);
  return { userId: user.userId, login: user.loginAccount, isAdmin: user.isAdmin, projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId };
}

/**
 * The handheld area (docs/handheld.md, "Configured flows"): configurations of the handheld flows
 * (draft, publish as a version, copy to another project), the published flow the runtime runs with
 * its location suggestion, and the device sessions of /rfUser.
 */
export const handheldRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const write = <T>(request: FastifyRequest, work: (trx: Transaction<DB>, place: service.HandheldPlace) => Promise<T>) => {
    const place = placeOf(request);
    return inTransaction(db, (trx) => work(trx, place));
  };

  // ---- configurations
  app.get('/handheld/config/list', route(CONFIG('view'), 'The handheld configurations of the project and warehouse'), async (request) => ({
    rows: await service.listConfigs(db, placeOf(request)),
  }));
  app.get('/handheld/config/get', route(CONFIG('view'), 'A handheld configuration with its draft and published versions', { querystring: StrictObject({ id: IdSchema }) }), (request) =>
    service.configDetail(db, placeOf(request), request.query.id),
  );
  app.get('/handheld/config/projects', route(CONFIG('add'), 'The projects a configuration may be copied to'), async (request) => {
    const user = requireUser(request);
    return { rows: (await findUserProjects(db, user.userId, user.isAdmin)).map((p) => ({ id: Number(p.id), code: p.code, name: p.name })) };
  });
  app.post(
    '/handheld/config/create',
    route(CONFIG('add'), 'Creates a handheld configuration; its draft starts as the shipped flow of its function', {
      body: StrictObject({ code: Code, name: Name, fn: Fn, status: Type.Optional(Status), draft: Type.Optional(Definition) }),
    }),
    (request) => write(request, (trx, place) => service.createConfig(trx, place, { ...request.body, status: request.body.status ?? 'active' })),
  );
  app.post(
    '/handheld/config/save',
    route(CONFIG('edit'), 'Saves the draft of a handheld configuration (the runtime keeps the published version)', {
      body: StrictObject({ id: IdSchema, name: Name, status: Status, draft: Definition }),
    }),
    (request) => write(request, (trx, place) => service.saveDraft(trx, place, request.body)),
  );
  app.post('/handheld/config/publish', route(CONFIG('edit'), 'Publishes the draft as the next version, or refuses it naming the wrong fields', { body: StrictObject({ id: IdSchema }) }), (request) =>
    write(request, (trx, place) => service.publish(trx, place, request.body.id)),
  );
  app.post(
    '/handheld/config/copy',
    route(CONFIG('add'), "Copies a configuration's draft to another project of the user, same warehouse, unpublished", {
      body: StrictObject({ id: IdSchema, projectId: IdSchema, code: Type.Optional(Code) }),
    }),
    (request) => write(request, (trx, place) => service.copyToProject(trx, place, request.body)),
  );

  // ---- the runtime
  app.get('/handheld/flow', route(FLOW, "The published flow of a function (or the shipped one) for the runtime", { querystring: StrictObject({ fn: Fn }) }), (request) =>
    service.flowOf(db, placeOf(request), request.query.fn),
  );
  app.post(
    '/handheld/suggestLocation',
    route(FLOW, 'The location the location logic suggests: the first rule, in order, that finds one', {
      body: StrictObject({
        rules: Type.Array(literals(LOCATION_RULES), { maxItems: LOCATION_RULES.length }),
        skuCode: Type.Optional(Type.String({ maxLength: 100 })),
        lastLocation: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
        storage: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
      }),
    }),
    (request) => service.suggestLocation(db, placeOf(request), request.body),
  );

  app.post(
    '/handheld/scanValue/record',
    route(FLOW, "Stores the dialog values (dimension, volume, gross and net weight) with a confirmation the user's idempotency key applied", {
      body: StrictObject({
        scanKey: ScanKey,
        fn: Fn,
        subject: Type.Record(Type.String({ maxLength: 50 }), Type.Unknown(), { maxProperties: 30 }),
        values: StrictObject({ ...(Object.fromEntries(DIALOG_FIELDS.map((d) => [d, DialogValue])) as Record<(typeof DIALOG_FIELDS)[number], typeof DialogValue>), dimension: DimensionValue }),
      }),
    }),
    (request) => write(request, (trx, place) => withIdempotency(request, trx, () => scanValues.recordScanValues(trx, place, request.body))),
  );
  app.get(
    '/handheld/scanValue/list',
    route(FLOW, 'The dialog values stored with handheld confirmations, newest first (of a function, or of one confirmation key)', {
      querystring: StrictObject({ fn: Type.Optional(Fn), scanKey: Type.Optional(ScanKey), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })) }),
    }),
    async (request) => ({ rows: await scanValues.listScanValues(db, placeOf(request), request.query) }),
  );

  // ---- device sessions (/rfUser)
  app.post('/rfUser/signIn', route(FLOW, 'Signs the handheld in for the shift with the user and its device id', { body: StrictObject({ deviceId: DeviceId, flow: Type.Optional(Fn) }) }), (request) =>
    write(request, (trx, place) => service.signInDevice(trx, place, request.body.deviceId, request.body.flow ?? null)),
  );
  app.post('/rfUser/signOut', route(FLOW, "Ends the user's device session"), (request) => write(request, (trx, place) => service.signOutDevice(trx, place)));
  app.post('/rfUser/scan', route(FLOW, "Records a scan of the device: its last scan time and flow", { body: StrictObject({ deviceId: DeviceId, flow: Type.Optional(Fn) }) }), (request) =>
    write(request, (trx, place) => service.recordScan(trx, place, request.body.deviceId, request.body.flow ?? null)),
  );
  app.get('/rfUser/me', route(FLOW, "The user's open device session in the warehouse, if any"), async (request) => ({ session: await service.mySession(db, placeOf(request)) }));
  app.get('/rfUser/devices', route(DEVICES, 'The devices signed in now in the warehouse: user, flow and last scan time'), async (request) => ({
    rows: await service.activeDevices(db, placeOf(request)),
  }));
  app.post(
    '/rfUser/end',
    route(END_DEVICE, "A supervisor ends a device session of the warehouse: the device's next scan is refused and it signs in again", { body: StrictObject({ id: IdSchema }) }),
    (request) => write(request, (trx, place) => service.endDeviceSession(trx, place, request.body.id)),
  );
};
