import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requireProject, requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { Quantity } from '../../http/quantity-schema.js';
import { ErrorBodySchema, IdSchema } from '../../http/schemas.js';
import type { StockScope } from '../inventory/inventory.service.js';
import { assertInputs } from './input-checks.js';
import { renderPickList } from './pick-list.pdf.js';
import { confirmPick, orderPickTasks, pickListOf, pickTasks, unpickTask } from './pick.service.js';
import { SELECTION_CAP } from './wave.repository.js';
import { batchUpdateReference, candidateOrders, releaseWave, saveWave, unwaveOrders, wavesOf } from './wave.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const Any = { 200: Type.Any(), ...errors };
const tags = ['outbound'];

const OptText = (max = 100) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
const OptDate = Type.Optional(Type.Union([Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), Type.Null()]));
const OptId = Type.Optional(Type.Union([IdSchema, Type.Null()]));
/** A selection of records: at most 100 (spec section 5). */
const Ids = Type.Array(IdSchema, { minItems: 1, maxItems: SELECTION_CAP });

const Filters = {
  carrierCode: OptText(60),
  shipDateFrom: OptDate,
  shipDateTo: OptDate,
  ownerId: OptId,
  zone: OptText(60),
};

function scopeOf(request: FastifyRequest): StockScope {
  const user = requireUser(request);
  return { projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId, operator: user.loginAccount };
}

const WAVE_VIEW = { right: 'outbound.wave:view', scope: 'warehouse' } as const;
const WAVE_EDIT = { right: 'outbound.wave:edit', scope: 'warehouse' } as const;
const WAVE_RELEASE = { right: 'outbound.wave:release', scope: 'warehouse' } as const;
const PICK_VIEW = { right: 'outbound.pick:view', scope: 'warehouse' } as const;
const PICK_CONFIRM = { right: 'outbound.pick:confirm', scope: 'warehouse' } as const;

/**
 * Waves and picking calls (spec section 7: /so/wave, /so/wave/save, /so/pick, /wave/batchUpdateRef),
 * plus the wave list, release and unwave, pick tasks, confirm, unpick and the pick list PDF. All
 * are limited to the session's project and warehouse.
 */
export const waveRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.post(
    '/so/wave',
    { config: { access: WAVE_VIEW }, schema: { tags, summary: 'Orders a wave may take, by carrier, ship date, owner and zone (at most 100)', body: Type.Object(Filters, { additionalProperties: false }), response: Any } },
    (request) => {
      assertInputs({ shipDateFrom: request.body.shipDateFrom, shipDateTo: request.body.shipDateTo });
      return candidateOrders(db, scopeOf(request), request.body);
    },
  );

  app.post(
    '/so/wave/save',
    {
      config: { access: WAVE_EDIT },
      schema: { tags, summary: 'Puts orders on a wave (a new one when no wave is given)', body: Type.Object({ waveId: OptId, orderIds: Ids, ...Filters }, { additionalProperties: false }), response: Any },
    },
    (request) => {
      const scope = scopeOf(request);
      assertInputs({ shipDateFrom: request.body.shipDateFrom, shipDateTo: request.body.shipDateTo });
      return inTransaction(db, (trx) => saveWave(trx, scope, request.body));
    },
  );

  app.post(
    '/wave/list',
    { config: { access: WAVE_VIEW }, schema: { tags, summary: 'Waves of the warehouse with their progress', body: Type.Object({ status: OptText(30) }, { additionalProperties: false }), response: Any } },
    async (request) => ({ rows: await wavesOf(db, scopeOf(request), request.body.status ?? null) }),
  );

  app.post(
    '/wave/release',
    { config: { access: WAVE_RELEASE }, schema: { tags, summary: 'Allocates the orders of the wave and creates its pick tasks', body: Type.Object({ waveId: IdSchema }, { additionalProperties: false }), response: Any } },
    (request) => {
      const scope = scopeOf(request);
      return inTransaction(db, (trx) => releaseWave(trx, scope, request.body.waveId));
    },
  );

  app.post(
    '/wave/unwave',
    { config: { access: WAVE_EDIT }, schema: { tags, summary: 'Takes orders off their wave while nothing of them is picked', body: Type.Object({ orderIds: Ids }, { additionalProperties: false }), response: Any } },
    (request) => {
      const scope = scopeOf(request);
      return inTransaction(db, (trx) => unwaveOrders(trx, scope, request.body.orderIds));
    },
  );

  app.post(
    '/wave/batchUpdateRef',
    {
      config: { access: WAVE_EDIT },
      schema: { tags, summary: 'Sets the reference of several waves', body: Type.Object({ waveIds: Ids, reference: OptText(100) }, { additionalProperties: false }), response: Any },
    },
    (request) => {
      const scope = scopeOf(request);
      return inTransaction(db, (trx) => batchUpdateReference(trx, scope, request.body.waveIds, request.body.reference?.trim() || null));
    },
  );

  app.post(
    '/so/pick',
    { config: { access: PICK_CONFIRM }, schema: { tags, summary: 'The pick tasks of an allocated order (made when missing, so it needs the pick verb)', body: Type.Object({ soId: IdSchema }, { additionalProperties: false }), response: Any } },
    (request) => {
      const scope = scopeOf(request);
      return inTransaction(db, (trx) => orderPickTasks(trx, scope, request.body.soId));
    },
  );

  app.post(
    '/pick/tasks',
    {
      config: { access: PICK_VIEW },
      schema: {
        tags,
        summary: 'Pick tasks of a wave or an order (or every open one), by zone and location sequence',
        body: Type.Object({ waveId: OptId, soId: OptId, openOnly: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
        response: Any,
      },
    },
    (request) => pickTasks(db, scopeOf(request), request.body),
  );

  app.post(
    '/pick/confirm',
    {
      config: { access: PICK_CONFIRM },
      schema: {
        tags,
        summary: 'Confirms a pick task, or a short pick of it with a reason (the rest given back, or looked for elsewhere with reallocate)',
        body: Type.Object(
          {
            taskId: IdSchema,
            locationCode: Type.String({ minLength: 1, maxLength: 100 }),
            sku: Type.String({ minLength: 1, maxLength: 200 }),
            // 0 is a short pick of nothing; the service refuses it without a short reason.
            qty: Quantity({ zero: true }),
            toLpn: OptText(100),
            toLocationCode: OptText(100),
            shortReason: OptText(200),
            reallocate: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: Any,
      },
    },
    (request) => {
      const scope = scopeOf(request);
      assertInputs({}, { qty: request.body.qty });
      return inTransaction(db, (trx) => confirmPick(trx, scope, request.body));
    },
  );

  app.post(
    '/pick/unpick',
    { config: { access: PICK_CONFIRM }, schema: { tags, summary: 'Puts what a task picked back, allocated again', body: Type.Object({ taskId: IdSchema }, { additionalProperties: false }), response: Any } },
    (request) => {
      const scope = scopeOf(request);
      return inTransaction(db, (trx) => unpickTask(trx, scope, request.body.taskId));
    },
  );

  app.get(
    '/pick/list.pdf',
    {
      config: { access: PICK_VIEW },
      schema: {
        tags,
        summary: 'The pick list of a wave or an order as PDF (only after allocation)',
        querystring: Type.Object({ waveId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })), soId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })) }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const list = await pickListOf(db, scope, request.query);
      const pdf = await renderPickList(list.title, list.rows, scope.operator);
      const name = `pick-list-${list.title.replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`;
      return reply.header('content-type', 'application/pdf').header('content-disposition', `inline; filename="${name}"`).send(pdf);
    },
  );
};
