import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { placeWriter, warehousePlaceOf } from '../../area-kit/route-scope.js';
import { Type } from 'typebox';
import { withIdempotency } from '../../area-kit/idempotency.js';
import { Quantity } from '../../http/quantity-schema.js';
import type { WaveListAnswer } from '../../../common/outbound-api.js';
import { IdSchema, StrictObject } from '../../http/schemas.js';
import { assertInputs } from './input-checks.js';
import { OptDate, OptText, route } from './outbound.http.js';
import Decimal from 'decimal.js';
import { printPublished } from '../template/index.js';
import { renderPickList } from './pick-list.pdf.js';
import { confirmPick, orderPickTasks, pickListOf, pickTasks, unpickTask } from './pick.service.js';
import { SELECTION_CAP } from './wave.repository.js';
import { batchUpdateReference, candidateOrders, filterOptions, releaseWave, saveWave, unwaveOrders, wavesOf } from './wave.service.js';

const OptId = Type.Optional(Type.Union([IdSchema, Type.Null()]));
/** A selection of records: at most 100. */
const Ids = Type.Array(IdSchema, { minItems: 1, maxItems: SELECTION_CAP });

const Filters = {
  carrierCode: OptText(60),
  shipDateFrom: OptDate,
  shipDateTo: OptDate,
  ownerId: OptId,
  zone: OptText(60),
};

const WAVE_VIEW = { right: 'outbound.wave:view', scope: 'warehouse' } as const;
const WAVE_EDIT = { right: 'outbound.wave:edit', scope: 'warehouse' } as const;
const WAVE_RELEASE = { right: 'outbound.wave:release', scope: 'warehouse' } as const;
const PICK_VIEW = { right: 'outbound.pick:view', scope: 'warehouse' } as const;
const PICK_CONFIRM = { right: 'outbound.pick:confirm', scope: 'warehouse' } as const;

/**
 * Waves and picking calls (/so/wave, /so/wave/save, /so/pick, /wave/batchUpdateRef),
 * plus the wave list, release and unwave, pick tasks, confirm, unpick and the pick list PDF. All
 * are limited to the session's project and warehouse.
 */
export const waveRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  /** Runs a route's work in one transaction, in the caller's project and warehouse. */
  const write = placeWriter(db, warehousePlaceOf);

  app.post('/so/wave', route(WAVE_VIEW, 'Orders a wave may take, by carrier, ship date, owner and zone (at most 100)', { body: StrictObject(Filters) }), (request) => {
    assertInputs({ shipDateFrom: request.body.shipDateFrom, shipDateTo: request.body.shipDateTo });
    return candidateOrders(db, warehousePlaceOf(request), request.body);
  });

  app.post('/so/wave/filterOptions', route(WAVE_VIEW, 'The owners and carriers (code and name) the create wave filters offer', { body: StrictObject({}) }), (request) =>
    filterOptions(db, warehousePlaceOf(request)),
  );

  app.post(
    '/so/wave/save',
    route(WAVE_EDIT, 'Puts orders on a wave (a new one when no wave is given)', { body: StrictObject({ waveId: OptId, orderIds: Ids, ...Filters }) }),
    (request) => {
      assertInputs({ shipDateFrom: request.body.shipDateFrom, shipDateTo: request.body.shipDateTo });
      return write(request, (trx, scope) => saveWave(trx, scope, request.body));
    },
  );

  app.post(
    '/wave/list',
    route(WAVE_VIEW, 'Waves of the warehouse with their progress', { body: StrictObject({ status: OptText(30) }) }),
    async (request): Promise<WaveListAnswer> => ({ rows: await wavesOf(db, warehousePlaceOf(request), request.body.status ?? null) }),
  );

  app.post('/wave/release', route(WAVE_RELEASE, 'Allocates the orders of the wave and creates its pick tasks', { body: StrictObject({ waveId: IdSchema }) }), (request) =>
    write(request, (trx, scope) => releaseWave(trx, scope, request.body.waveId)),
  );

  app.post('/wave/unwave', route(WAVE_EDIT, 'Takes orders off their wave while nothing of them is picked', { body: StrictObject({ orderIds: Ids }) }), (request) =>
    write(request, (trx, scope) => unwaveOrders(trx, scope, request.body.orderIds)),
  );

  app.post(
    '/wave/batchUpdateRef',
    route(WAVE_EDIT, 'Sets the reference of several waves', { body: StrictObject({ waveIds: Ids, reference: OptText(100) }) }),
    (request) => write(request, (trx, scope) => batchUpdateReference(trx, scope, request.body.waveIds, request.body.reference?.trim() || null)),
  );

  app.post(
    '/so/pick',
    route(PICK_CONFIRM, 'The pick tasks of an allocated order (made when missing, so it needs the pick verb)', { body: StrictObject({ soId: IdSchema }) }),
    (request) => write(request, (trx, scope) => orderPickTasks(trx, scope, request.body.soId)),
  );

  app.post(
    '/pick/tasks',
    route(PICK_VIEW, 'Pick tasks of a wave or an order (or every open one), by zone and location sequence', {
      body: StrictObject({ waveId: OptId, soId: OptId, openOnly: Type.Optional(Type.Boolean()) }),
    }),
    (request) => pickTasks(db, warehousePlaceOf(request), request.body),
  );

  app.post(
    '/pick/confirm',
    route(PICK_CONFIRM, 'Confirms a pick task, or a short pick of it with a reason (the rest given back, or looked for elsewhere with reallocate)', {
      body: StrictObject({
        taskId: IdSchema,
        locationCode: Type.String({ minLength: 1, maxLength: 100 }),
        sku: Type.String({ minLength: 1, maxLength: 200 }),
        // 0 is a short pick of nothing; the service refuses it without a short reason.
        qty: Quantity({ zero: true }),
        toLpn: OptText(100),
        toLocationCode: OptText(100),
        shortReason: OptText(200),
        reallocate: Type.Optional(Type.Boolean()),
      }),
    }),
    (request) => {
      assertInputs({}, { qty: request.body.qty });
      return write(request, (trx, scope) => withIdempotency(request, trx, () => confirmPick(trx, scope, request.body, { events: app.events, language: request.language })));
    },
  );

  app.post('/pick/unpick', route(PICK_CONFIRM, 'Puts what a task picked back, allocated again', { body: StrictObject({ taskId: IdSchema }) }), (request) =>
    write(request, (trx, scope) => unpickTask(trx, scope, request.body.taskId)),
  );

  app.get(
    '/pick/list.pdf',
    {
      config: { access: PICK_VIEW },
      schema: {
        tags: ['outbound'],
        summary: 'The pick list of a wave or an order as PDF (only after allocation)',
        querystring: StrictObject({ waveId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })), soId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })) }),
      },
    },
    async (request, reply) => {
      const scope = warehousePlaceOf(request);
      const list = await pickListOf(db, scope, request.query);
      // The project's published pick-list template prints it; while none is, the built-in layout does (docs/templates.md).
      const lines = list.rows.map((r) => [r.zone ?? '-', r.location_code, r.lpn, r.sku_code, r.sku_description, [r.lot_no, r.expiry_date ?? ''].filter(Boolean).join(' '), `${new Decimal(r.qty).toString()} ${r.uom}`, `${r.order_no}/${r.line_no}`]);
      const printed = `Printed ${new Date().toISOString().slice(0, 16).replace('T', ' ')} by ${scope.operator}`;
      const pdf =
        (await printPublished(db, scope.projectId, 'pickList', [{ title: `Pick list ${list.title}`, printed, number: /^[\x20-\x7E]{1,80}$/.test(list.title) ? list.title : '', lines }], request.language)) ??
        (await renderPickList(list.title, list.rows, scope.operator, request.language));
      const name = `pick-list-${list.title.replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`;
      return reply.header('content-type', 'application/pdf').header('content-disposition', `inline; filename="${name}"`).send(pdf);
    },
  );
};
