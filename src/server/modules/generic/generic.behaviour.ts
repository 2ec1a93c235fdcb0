import type { BehaviourRequest, BehaviourResponse } from '../../../../engine/schema/api.js';
import { rowsEnableBehaviour } from '../../../../engine/core/index.js';
import {
  bindNamedSql,
  checkBehaviourInputs,
  configuratorSqlFailure,
  enterConfiguratorRole,
  findRowsByKeys,
  requireAllowedSql,
  sessionSqlParams,
} from '../../../../engine/server/index.js';
import { AppError } from '../../../common/errors.js';
import { inTransaction } from '../../db/transaction.js';
import { hasRight } from '../access/rights.js';
import { engine, engineSession, requirePageRight, type GenericContext } from './generic.context.js';

/**
 * `POST /api/generic/behavior`: dispatches a behaviour of the page to its registered action or
 * named SQL, after its right, its selection rule and its enabled-by status were checked, inside
 * one transaction.
 */
export async function runBehaviour(ctx: GenericContext, request: BehaviourRequest): Promise<BehaviourResponse> {
  await requirePageRight(ctx, request, 'view');
  const { prepared } = await ctx.store.resolve(ctx.user.projectId, request.moduleCode, request.functionCode);
  const { page } = prepared;
  const behaviour = (page.behaviours ?? []).find((b) => b.code === request.behaviour);
  if (!behaviour) throw new AppError('BEHAVIOUR_UNKNOWN', { behaviour: request.behaviour });
  await requirePageRight(ctx, request, behaviour.right);
  const count = new Set(request.keys.map(String)).size;
  if ((behaviour.selection === 'one' && count !== 1) || (behaviour.selection === 'many' && count < 1) || (behaviour.selection === 'none' && count > 0)) {
    throw new AppError('BEHAVIOUR_SELECTION', { selection: behaviour.selection });
  }
  const session = engineSession(ctx);
  const named = behaviour.action.startsWith('sql:') ? (page.sqls ?? []).find((s) => s.name === behaviour.action.slice(4)) : undefined;
  const action = named ? undefined : ctx.areas.behaviour(behaviour.action);
  if (!named && !action) {
    ctx.log.error({ action: behaviour.action }, 'behaviour names an action no area defines');
    throw new AppError('SYSTEM_CONFIG');
  }
  // The action's own verb (`outbound.so:allocate`), beside the behaviour's page right.
  if (action?.right && !(await hasRight(ctx.db, ctx.user, action.right))) throw new AppError('FORBIDDEN', { right: action.right });
  // Declared inputs are checked with the field rules, every problem at once, before anything runs.
  let inputs = request.inputs ?? {};
  if (behaviour.inputs) {
    const checked = checkBehaviourInputs(behaviour.inputs, inputs);
    if (checked.errors.length > 0) throw new AppError('VALIDATION_FAILED', {}, checked.errors);
    inputs = checked.values;
  }
  if (action) ctx.areas.checkInputs(action, inputs);
  if (named) await engine(() => requireAllowedSql(named.name, named.text, named.mode === 'write' ? 'write' : 'read'));
  return engine(() =>
    inTransaction(ctx.db, async (trx) => {
      const rows = await findRowsByKeys(trx, prepared, session, request.keys);
      if (rows.length !== count) throw new AppError('NO_RECORD');
      if (!rowsEnableBehaviour(behaviour.enabledBy, rows)) throw new AppError('BEHAVIOUR_NOT_ENABLED');
      if (named) {
        // The selected rows were read as the engine; the configurator's statement runs as its role.
        await enterConfiguratorRole(trx, session, named.mode === 'write' ? 'write' : 'read');
        const params = {
          ...Object.fromEntries(Object.entries(inputs).filter(([name]) => !(name in sessionSqlParams(session)))),
          ...sessionSqlParams(session),
          keys: rows.map((row) => row._key),
        };
        try {
          const result = await bindNamedSql(named.text, params).execute(trx);
          const affected = Number(result.numAffectedRows ?? result.rows.length);
          return { result: { affected }, messageCode: 'ui.engineServer.behaviourDone', messageParams: { count: affected } };
        } catch (error) {
          throw configuratorSqlFailure(error);
        }
      }
      const outcome = await action!.run({ trx, events: ctx.events, page, session, rows, inputs, user: ctx.user });
      return { result: outcome?.result ?? null, ...(outcome?.messageCode ? { messageCode: outcome.messageCode } : {}), ...(outcome?.messageParams ? { messageParams: outcome.messageParams } : {}) };
    }),
  );
}

