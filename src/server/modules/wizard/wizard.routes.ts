import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requireProject, requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { Quantity } from '../../http/quantity-schema.js';
import { routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import * as repo from './wizard.repository.js';
import { clearTempOrder, LAST_STEP, saveStep, setCurrentStep, submitOrder, tempOrder, type WizardKind, type WizardPlace } from './wizard.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const route = routeOptions(['wizard'], errors);

const VIEW = { wine: { right: 'wizard.wineOrder:view', scope: 'warehouse' }, nonMer: { right: 'wizard.nonMerOrder:view', scope: 'warehouse' } } as const;
const ADD = { wine: { right: 'wizard.wineOrder:add', scope: 'warehouse' }, nonMer: { right: 'wizard.nonMerOrder:add', scope: 'warehouse' } } as const;

const OptText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
const DataSchema = StrictObject({
  ownerId: Type.Optional(IdSchema),
  customerOrderNo: OptText(50),
  consigneeId: Type.Optional(Type.Union([IdSchema, Type.Null()])),
  shipToName: OptText(200),
  shipToAddressEn: OptText(500),
  shipToAddressCn: OptText(500),
  contact: OptText(100),
  phone: OptText(50),
  lines: Type.Optional(Type.Array(StrictObject({ skuId: IdSchema, qty: Quantity() }), { maxItems: 200 })),
  carrierCode: OptText(50),
  vasInstructions: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20 })),
  instructionText: OptText(1000),
  requiredShipDate: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.Null()])),
  remark: OptText(1000),
});
const Step = Type.Integer({ minimum: 1, maximum: LAST_STEP });

function placeOf(request: FastifyRequest): WizardPlace {
  const user = requireUser(request);
  return { userId: user.userId, login: user.loginAccount, projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId };
}

/**
 * The wine and non-merchandise order wizards: a temporary order per user, kept on the server at
 * every step with the step the user is on, look-ups for its dropdowns, and submit, which creates a
 * sales order through the outbound area. Paths follow /inv/wine/* and /inv/nonMer/*.
 */
export const wizardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const write = <T>(request: FastifyRequest, work: (trx: Parameters<Parameters<typeof inTransaction<T>>[1]>[0], place: WizardPlace) => Promise<T>) => {
    const place = placeOf(request);
    return inTransaction(db, (trx) => work(trx, place));
  };
  const items = (kind: WizardKind) => async (request: FastifyRequest<{ Querystring: { ownerId: number; text?: string } }>) => ({
    rows: await repo.itemsWithStock(db, placeOf(request), kind, request.query.ownerId, request.query.text?.trim() ?? '', 50),
  });
  const ItemsQuery = { querystring: StrictObject({ ownerId: IdSchema, text: Type.Optional(Type.String({ maxLength: 100 })) }) };

  // ---- wine
  app.get('/inv/wine/allInfo', route(VIEW.wine, "The user's temporary wine order and the step they are on"), (request) => tempOrder(db, placeOf(request), 'wine'));
  app.post('/inv/wine/saveTempOrder', route(ADD.wine, 'Saves a step of the temporary wine order and moves on to the next step', { body: StrictObject({ step: Step, data: DataSchema }) }), (request) =>
    write(request, (trx, place) => saveStep(trx, place, 'wine', request.body.step, request.body.data)),
  );
  app.post('/inv/wine/addTempOrder', route(ADD.wine, 'Goes back (or forward to a step already reached) in the temporary wine order', { body: StrictObject({ step: Step }) }), (request) =>
    write(request, (trx, place) => setCurrentStep(trx, place, 'wine', request.body.step)),
  );
  app.post('/inv/wine/clearTemp', route(ADD.wine, 'Clears the temporary wine order: the wizard starts again'), (request) => write(request, (trx, place) => clearTempOrder(trx, place, 'wine')));
  app.post('/inv/wine/saveOrder', route(ADD.wine, 'Submits the temporary wine order: a sales order with its lines'), (request) => write(request, (trx, place) => submitOrder(trx, place, 'wine')));
  // The dropdowns' look-ups, under each wizard's own right.
  for (const kind of ['wine', 'nonMer'] as const) {
    app.get(`/inv/${kind}/dropdown`, route(VIEW[kind], 'The owners of the project'), async (request) => ({ owners: await repo.ownersOfProject(db, placeOf(request).projectId) }));
    app.get(`/inv/${kind}/consignee`, route(VIEW[kind], 'The consignees of the project'), async (request) => ({ rows: await repo.partnersOfProject(db, placeOf(request).projectId, 'consignee') }));
    app.get(`/inv/${kind}/courrier`, route(VIEW[kind], 'The couriers (carrier partners) of the project'), async (request) => ({ rows: await repo.partnersOfProject(db, placeOf(request).projectId, 'carrier') }));
    app.get(`/inv/${kind}/vasInstruction`, route(VIEW[kind], 'The VAS instructions an order may carry'), async () => ({ rows: await repo.vasInstructions(db) }));
  }
  app.get('/inv/wine/items', route(VIEW.wine, "The owner's wine SKUs matching the text, with the quantity available", ItemsQuery), items('wine'));

  // ---- non-merchandise
  app.get('/inv/nonMer/findTempSoOrderInfo', route(VIEW.nonMer, "The user's temporary non-merchandise order and the step they are on"), (request) => tempOrder(db, placeOf(request), 'nonMer'));
  app.get('/inv/nonMer/tempOrder', route(VIEW.nonMer, "The user's temporary non-merchandise order"), (request) => tempOrder(db, placeOf(request), 'nonMer'));
  app.post('/inv/nonMer/addTempOrder', route(ADD.nonMer, 'Saves a step of the temporary non-merchandise order and moves on to the next step', { body: StrictObject({ step: Step, data: DataSchema }) }), (request) =>
    write(request, (trx, place) => saveStep(trx, place, 'nonMer', request.body.step, request.body.data)),
  );
  app.post('/inv/nonMer/currentStep', route(ADD.nonMer, 'Goes back (or forward to a step already reached) in the temporary non-merchandise order', { body: StrictObject({ step: Step }) }), (request) =>
    write(request, (trx, place) => setCurrentStep(trx, place, 'nonMer', request.body.step)),
  );
  app.post('/inv/nonMer/resetTempOrder', route(ADD.nonMer, 'Clears the temporary non-merchandise order: the wizard starts again'), (request) =>
    write(request, (trx, place) => clearTempOrder(trx, place, 'nonMer')),
  );
  app.post('/inv/nonMer/saveOrder', route(ADD.nonMer, 'Submits the temporary non-merchandise order: a sales order with its lines'), (request) =>
    write(request, (trx, place) => submitOrder(trx, place, 'nonMer')),
  );
  app.get('/so/inv/allNonMer', route(VIEW.nonMer, "The owner's non-merchandise SKUs matching the text, with the quantity available", ItemsQuery), items('nonMer'));
};
