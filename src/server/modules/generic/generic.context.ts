import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { PageRef } from '../../../../engine/schema/api.js';
import type { PageDefinition, RightActionName } from '../../../../engine/schema/index.js';
import {
  EngineError,
  configuratorSqlFailure,
  findRowsByKeys,
  inPageReadTransaction,
  type EngineDb,
  type EngineRow,
  type EngineSession,
  type PreparedPage,
} from '../../../../engine/server/index.js';
import { AppError, isErrorCode } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import type { RightName } from '../../../common/rights.js';
import type { DB } from '../../db/schema.js';
import type { DefinitionStore, ResolvedPage } from '../../definitions/definition-store.js';
import type { SessionUser } from '../../http/access.js';
import { requireUser } from '../../http/access-plugin.js';
import { hasRight } from '../identity/index.js';
import { translate } from '../../http/i18n.js';
import type { AreaRegistry } from '../area-registry.js';
import type { EventBus } from '../../events/events.js';

/*
 * What every generic call shares: the caller's engine session, the
 * page right checked before anything of the page runs, and the engine's refusals as AppErrors.
 * The calls themselves are in generic.read.ts, generic.write.ts and generic.behaviour.ts.
 */

/** Everything a generic call needs: database, definitions, the caller. */
export interface GenericContext {
  db: Kysely<DB>;
  store: DefinitionStore;
  /** What the areas declare: behaviours, writers, right verbs. */
  areas: AreaRegistry;
  events: EventBus;
  user: SessionUser;
  language: Language;
  log: FastifyBaseLogger;
}

/** The context of a request of a signed-in caller (401 without a session), for every route over pages. */
export function requestContext(app: Pick<FastifyInstance, 'database' | 'definitions' | 'areas' | 'events'>, request: FastifyRequest): GenericContext {
  return {
    db: app.database.db,
    store: app.definitions,
    areas: app.areas,
    events: app.events,
    user: requireUser(request),
    language: request.language,
    log: request.log,
  };
}

export function engineSession(ctx: GenericContext): EngineSession {
  const { user } = ctx;
  return {
    userId: user.userId,
    loginAccount: user.loginAccount,
    isAdmin: user.isAdmin,
    language: ctx.language,
    organizationId: user.organizationId,
    projectId: user.projectId,
    projectCode: user.projectCode,
    warehouseId: user.warehouseId,
    warehouseCode: user.warehouseCode,
  };
}

/** The engine's refusals become our AppErrors, answered by the one error handler. */
function toAppError(error: unknown): unknown {
  if (error instanceof EngineError) {
    return new AppError(isErrorCode(error.code) ? error.code : 'INTERNAL', error.params, error.details);
  }
  return error;
}

export async function engine<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toAppError(error);
  }
}

/**
 * Role rights on a page (per-module and per-sub-module rights), checked
 * before anything of the page runs: `<moduleCode>.<functionCode>:<action>`, which the access rules
 * answer from the page's own sub-module rows when a role has them, else from `<moduleCode>:<action>`.
 */
export function pageRight(ref: PageRef, action: RightActionName): RightName {
  return `${ref.moduleCode}.${ref.functionCode}:${action}`;
}

export async function requirePageRight(ctx: GenericContext, ref: PageRef, action: RightActionName): Promise<void> {
  if (!(await hasRight(ctx.db, ctx.user, pageRight(ref, action)))) {
    throw new AppError('FORBIDDEN', { right: pageRight(ref, action) });
  }
}

export async function openPage(ctx: GenericContext, ref: PageRef, action: RightActionName): Promise<ResolvedPage> {
  await requirePageRight(ctx, ref, action);
  return ctx.store.resolve(ctx.user.projectId, ref.moduleCode, ref.functionCode);
}

export function refuseReadOnly(page: PageDefinition): void {
  if (page.readOnly === true) throw new AppError('PAGE_READ_ONLY');
}

export async function readOnly<T>(
  ctx: GenericContext,
  prepared: PreparedPage,
  work: (trx: Kysely<DB>) => Promise<T>,
  options: { statementTimeoutMs?: number } = {},
): Promise<T> {
  try {
    return await inPageReadTransaction(ctx.db, prepared, engineSession(ctx), (trx) => work(trx as unknown as Kysely<DB>), options);
  } catch (error) {
    if (error instanceof EngineError || error instanceof AppError) throw error;
    // A list SQL that fails or times out is the configuration's fault, not the caller's.
    if (typeof (error as { code?: unknown }).code === 'string') throw configuratorSqlFailure(error);
    throw error;
  }
}

export async function rowByKey(db: EngineDb, prepared: PreparedPage, session: EngineSession, key: string | number): Promise<EngineRow> {
  const [row] = await findRowsByKeys(db, prepared, session, [key]);
  if (!row) throw new AppError('NO_RECORD');
  return row;
}

/** Text of a label code: the page's own multilingual texts first, then the locale files. */
export function labelText(page: PageDefinition, code: string, language: Language): string {
  const own = page.texts?.[code];
  if (own) return own[language] ?? own.en;
  return translate(language, code);
}

