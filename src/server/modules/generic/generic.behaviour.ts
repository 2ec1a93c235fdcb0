import type { BehaviourRequest, BehaviourResponse } from '../../../../engine/schema/api.js';
import { rowsEnableBehaviour } from '../../../../engine/core/index.js';
import type { Kysely } from 'kysely';
import type { BehaviourDefinition, NamedSql, PageDefinition, ScalarValue } from '../../../../engine/schema/index.js';
import {
  bindNamedSql,
  checkBehaviourInputs,
  configuratorSqlFailure,
  enterConfiguratorRole,
  findRowsByKeys,
  inReadOnlyTransaction,
  requireAllowedSql,
  sessionSqlParams,
  type EngineSession,
  type PreparedPage,
} from '../../../../engine/server/index.js';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { translate } from '../../http/i18n.js';
import type { BehaviourDefinition as AreaBehaviour } from '../area.js';
import { hasRight } from '../identity/index.js';
import { engine, engineSession, requirePageRight, type GenericContext } from './generic.context.js';

/**
 * `POST /api/generic/behavior`: dispatches a behaviour of the page to its registered action or
 * named SQL, after its right, its selection rule and its enabled-by status were checked, inside
 * one transaction. With `preview: true` the same checks are made, then the action's read-only
 * `preview` says what the run would do (see `previewBehaviour`).
 */
export async function runBehaviour(ctx: GenericContext, request: BehaviourRequest): Promise<BehaviourResponse> {
  const checked = await checkBehaviourRequest(ctx, request);
  if (request.preview === true) return previewBehaviour(ctx, request, checked);
  const { prepared, page, behaviour, named, action, inputs, count, session } = checked;
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
      const outcome = await action!.run({ trx, db: ctx.db, events: ctx.events, page, session, rows, inputs, user: ctx.user });
      return { result: outcome?.result ?? null, ...(outcome?.messageCode ? { messageCode: outcome.messageCode } : {}), ...(outcome?.messageParams ? { messageParams: outcome.messageParams } : {}), ...(outcome?.links?.length ? { links: outcome.links } : {}) };
    }),
  );
}

interface CheckedBehaviour {
  prepared: PreparedPage;
  page: PageDefinition;
  behaviour: BehaviourDefinition;
  named: NamedSql | undefined;
  action: AreaBehaviour | undefined;
  inputs: Record<string, ScalarValue>;
  /** How many distinct rows were selected. */
  count: number;
  session: EngineSession;
}

/** What a run and a preview check alike before touching any row: page right, behaviour, its right, selection and inputs. */
async function checkBehaviourRequest(ctx: GenericContext, request: BehaviourRequest): Promise<CheckedBehaviour> {
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
  return { prepared, page, behaviour, named, action, inputs, count, session };
}

/**
 * `preview: true`: what the behaviour would do, for its confirmation. The rows are read and the
 * enabling rule checked as for a run, then the action's `preview` runs in a READ ONLY transaction
 * (a write it tried would be refused by the database) and only its message is answered. A named
 * SQL or an action without preview cannot say: BEHAVIOUR_NO_PREVIEW.
 */
async function previewBehaviour(ctx: GenericContext, request: BehaviourRequest, checked: CheckedBehaviour): Promise<BehaviourResponse> {
  const { prepared, page, behaviour, action, inputs, count, session } = checked;
  const preview = action?.preview;
  if (!preview) throw new AppError('BEHAVIOUR_NO_PREVIEW', { behaviour: behaviour.code });
  const answer = await engine(() =>
    inReadOnlyTransaction(ctx.db, async (engineTrx) => {
      const db = engineTrx as unknown as Kysely<DB>;
      const rows = await findRowsByKeys(engineTrx, prepared, session, request.keys);
      if (rows.length !== count) throw new AppError('NO_RECORD');
      if (!rowsEnableBehaviour(behaviour.enabledBy, rows)) throw new AppError('BEHAVIOUR_NOT_ENABLED');
      try {
        return await preview({ db, page, session, rows, inputs, user: ctx.user });
      } catch (error) {
        // A preview that writes is a fault of the area's code, not of the caller.
        if ((error as { code?: unknown } | null)?.code === READ_ONLY_SQL_TRANSACTION) {
          ctx.log.error({ err: error, action: behaviour.action }, 'behaviour preview tried to write');
          throw new AppError('SYSTEM_CONFIG');
        }
        throw error;
      }
    }),
  );
  const { refusal } = answer;
  return {
    result: null,
    messageCode: answer.messageCode,
    ...(answer.messageParams ? { messageParams: answer.messageParams } : {}),
    ...(refusal
      ? { refusal: { code: refusal.code, message: translate(ctx.language, `errors.${refusal.code}`, refusal.params), ...(refusal.params ? { params: refusal.params } : {}) } }
      : {}),
  };
}

/** SQLSTATE of a write inside a read-only transaction. */
const READ_ONLY_SQL_TRANSACTION = '25006';
