import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ConfirmPutawayAnswer, PutawayFindAnswer, PutawayTasksAnswer } from '../../../common/inbound-api.js';
import { withIdempotency } from '../../area-kit/idempotency.js';
import { IdSchema, StrictObject } from '../../http/schemas.js';
import { actorOf, Code, OptText, PUTAWAY_CONFIRM, PUTAWAY_VIEW, Qty, route, writerOf } from './inbound.http.js';
import { confirmPutaway, findTaskByScan, putawayTasks } from './putaway.service.js';

/** Putaway on the handheld: the open tasks, the task of a scanned code, and the confirmation at a location. */
export const putawayRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const write = writerOf(app);

  app.get('/putaway/tasks', route(PUTAWAY_VIEW, 'Open putaway tasks with their suggested locations'), async (request): Promise<PutawayTasksAnswer> => ({
    tasks: await putawayTasks(db, actorOf(request)),
  }));

  app.post(
    '/putaway/find',
    route(PUTAWAY_VIEW, 'The open task of a scanned LPN, pallet or carton id', { body: Type.Object({ code: Code }) }),
    async (request): Promise<PutawayFindAnswer> => ({ taskId: await findTaskByScan(db, actorOf(request), request.body.code) }),
  );

  app.post(
    '/putaway/confirm',
    route(PUTAWAY_CONFIRM, 'Confirms a putaway task (or part of it) at the scanned location', {
      body: StrictObject({ taskId: IdSchema, locationCode: Type.String({ maxLength: 100 }), lpn: OptText(), reason: OptText(200), qty: Type.Optional(Qty) }),
    }),
    (request): Promise<ConfirmPutawayAnswer> => write(request, (trx, actor) => withIdempotency(request, trx, () => confirmPutaway(trx, actor, request.body))),
  );
};
