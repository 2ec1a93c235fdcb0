import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { Type } from 'typebox';
import { RESPLAN_ACTIVITIES, RESPLAN_EQUIPMENT_KINDS, RESPLAN_STATUSES } from '../../../common/resplan-api.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { requireProject, requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { Quantity } from '../../http/quantity-schema.js';
import { pageAccess, routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import * as service from './resplan.service.js';
import type { ResPlanScope } from './resplan.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const route = routeOptions(['resplan'], errors);

/** Every call is the /resPlan screen's: its view right to read, add to make a plan, edit to change, calculate and confirm it and the shifts and rates, delete to remove. */
const { view: VIEW, add: ADD, edit: EDIT, delete: DELETE } = pageAccess('resplan.resPlan', 'warehouse', 'view', 'add', 'edit', 'delete');

const Activity = Type.Union(RESPLAN_ACTIVITIES.map((a) => Type.Literal(a)));
const EquipmentKind = Type.Union(RESPLAN_EQUIPMENT_KINDS.map((k) => Type.Literal(k)));
const Status = Type.Union(RESPLAN_STATUSES.map((s) => Type.Literal(s)));
const Day = Type.String({ format: 'date' });
const Time = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' });
const Count = Type.Integer({ minimum: 0, maximum: 100000 });
const ById = { body: StrictObject({ id: IdSchema }) };

function scopeOf(request: FastifyRequest): ResPlanScope {
  const user = requireUser(request);
  return { projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId, operator: user.loginAccount };
}

/**
 * Resource planning (docs/resplan.md): shifts and rates of the session's warehouse, and resource
 * plans of a date and shift (list, one with its lines, save, delete a draft, calculate a draft from
 * the open work, confirm). Another warehouse's records answer not found; each write is one transaction.
 */
export const resplanRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const write = <T>(request: FastifyRequest, work: (trx: Transaction<DB>, scope: ResPlanScope) => Promise<T>) => {
    const scope = scopeOf(request);
    return inTransaction(db, (trx) => work(trx, scope));
  };

  // ---------------------------------------------------------------- plans

  app.post(
    '/getResPlanHeaderList',
    route(VIEW, "One page of the warehouse's resource plans, newest date first, by status, plan number, date range and shift", {
      body: StrictObject({
        page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
        pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
        status: Type.Optional(Status),
        planNo: Type.Optional(Type.String({ maxLength: 50 })),
        dateFrom: Type.Optional(Day),
        dateTo: Type.Optional(Day),
        shiftId: Type.Optional(IdSchema),
      }),
    }),
    (request) => service.listPlanAnswers(db, scopeOf(request), request.body),
  );

  app.post('/getResPlanHeader', route(VIEW, 'One resource plan of the warehouse with its line per activity', ById), (request) =>
    service.planWithLines(db, scopeOf(request), request.body.id),
  );

  app.post(
    '/saveResPlanHeader',
    route(ADD, 'Makes a draft resource plan of a date and shift (without id), or changes the date, shift or remark of a draft', {
      body: StrictObject({ id: Type.Optional(IdSchema), planDate: Day, shiftId: IdSchema, remark: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])) }),
    }),
    (request) => write(request, (trx, scope) => service.savePlan(trx, scope, request.body)),
  );

  app.post('/deleteResPlanHeader', route(DELETE, 'Deletes a draft resource plan with its lines', ById), (request) =>
    write(request, (trx, scope) => service.deletePlanOf(trx, scope, request.body.id)),
  );

  app.post('/calculateResPlan', route(EDIT, "Calculates a draft plan from the warehouse's open work, its rates and the shift's resources", ById), (request) =>
    write(request, (trx, scope) => service.calculatePlan(trx, scope, request.body.id)),
  );

  app.post('/confirmResPlan', route(EDIT, 'Confirms a calculated draft plan: frozen from then on', ById), (request) =>
    write(request, (trx, scope) => service.confirmPlan(trx, scope, request.body.id)),
  );

  // ---------------------------------------------------------------- shifts

  app.post('/getResPlanShiftList', route(VIEW, "The warehouse's shifts with their labour and equipment per activity", { body: StrictObject({}) }), (request) =>
    service.listShiftAnswers(db, scopeOf(request)),
  );

  app.post(
    '/saveResPlanShift',
    route(EDIT, 'Adds a shift of the warehouse (without id) or changes one, with its labour and equipment per activity', {
      body: StrictObject({
        id: Type.Optional(IdSchema),
        code: Type.String({ minLength: 1, maxLength: 30 }),
        name: Type.String({ minLength: 1, maxLength: 100 }),
        startTime: Time,
        endTime: Time,
        daysOfWeek: Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { minItems: 1, maxItems: 7, uniqueItems: true }),
        active: Type.Optional(Type.Boolean()),
        resources: Type.Optional(
          Type.Array(
            StrictObject({
              activity: Activity,
              headcount: Count,
              hoursPerHead: Type.Optional(Quantity({ zero: true, nullable: true })),
              equipmentCount: Type.Optional(Count),
            }),
            { maxItems: RESPLAN_ACTIVITIES.length },
          ),
        ),
      }),
    }),
    (request) => write(request, (trx, scope) => service.saveShift(trx, scope, request.body)),
  );

  app.post('/deleteResPlanShift', route(DELETE, 'Deletes a shift of the warehouse that no plan names', ById), (request) =>
    write(request, (trx, scope) => service.deleteShiftOf(trx, scope, request.body.id)),
  );

  // ---------------------------------------------------------------- rates

  app.post('/getResPlanRateList', route(VIEW, "The warehouse's rate of each activity", { body: StrictObject({}) }), (request) => service.listRateAnswers(db, scopeOf(request)));

  app.post(
    '/saveResPlanRate',
    route(EDIT, "Sets the warehouse's rate of an activity: units per labour hour, and the equipment it needs with units per equipment hour", {
      body: StrictObject({
        id: Type.Optional(IdSchema),
        activity: Activity,
        unitsPerLabourHour: Quantity(),
        equipmentKind: Type.Optional(Type.Union([EquipmentKind, Type.Null()])),
        unitsPerEquipmentHour: Type.Optional(Quantity({ nullable: true })),
      }),
    }),
    (request) => write(request, (trx, scope) => service.saveRate(trx, scope, request.body)),
  );

  app.post('/deleteResPlanRate', route(DELETE, 'Deletes a rate of the warehouse', ById), (request) => write(request, (trx, scope) => service.deleteRateOf(trx, scope, request.body.id)));
};
