import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { loadPageDefinition, type PageDefinition } from '../../../../engine/schema/index.js';
import { checkPageAgainstCatalog, checkPageAgainstRoles } from '../../../../engine/server/catalog.js';
import { CONFIGURATOR_ROLES } from '../../../../engine/server/configurator-sql.js';
import { AppError, type FieldError } from '../../../common/errors.js';
import { stableStringify } from '../../../common/designer/stable-json.js';
import type { DB } from '../../db/schema.js';
import { requireProject } from '../../http/access-plugin.js';
import type { SessionUser } from '../../http/access.js';
import type { EventBus } from '../../events/events.js';
import type { AreaRegistry } from '../area-registry.js';
import { checkDefinitionSqls, type SqlSession } from './sql-guard.js';

/** What every designer service call works with: the database, the caller, and the change hub. */
export interface DesignerContext {
  db: Kysely<DB>;
  user: SessionUser;
  language: string;
  events: EventBus;
  /** What the areas declare; a definition naming an action or writer none defines is refused. */
  areas: AreaRegistry;
  log: FastifyBaseLogger;
}

export function projectOf(ctx: DesignerContext): number {
  return requireProject(ctx.user).projectId;
}

export function sqlSessionOf(ctx: DesignerContext, projectId?: number, projectCode?: string): SqlSession {
  return {
    projectId: projectId ?? ctx.user.projectId,
    projectCode: projectCode ?? ctx.user.projectCode,
    warehouseId: ctx.user.warehouseId,
    warehouseCode: ctx.user.warehouseCode,
    organizationId: ctx.user.organizationId,
    userId: ctx.user.userId,
    userLogin: ctx.user.loginAccount,
    language: ctx.language,
  };
}

/** The content hash of a stored version: SHA-256 of its canonical JSON. */
export function contentHash(content: unknown): string {
  return crypto.createHash('sha256').update(stableStringify(content)).digest('hex');
}

/** Validator problems as the `details` of a 400 answer, each on its JSON path. */
export function problemsAsDetails(problems: Array<{ path: string; code: string; message: string }>): FieldError[] {
  return problems.map((p) => ({ field: p.path || '/', code: p.code, message: p.message }));
}

/**
 * A definition that may be published: upgraded to the current schema, valid, its tables and
 * columns in the database catalog and readable by the configurator roles, and every named SQL
 * passing the parse guard. Throws VALIDATION_FAILED listing every problem at once.
 */
export async function requirePublishable(ctx: DesignerContext, content: unknown, projectId?: number, projectCode?: string): Promise<PageDefinition> {
  const loaded = loadPageDefinition(content);
  if (!loaded.ok) throw new AppError('VALIDATION_FAILED', {}, problemsAsDetails(loaded.problems));
  // Every action, writer and input it names must be one an area defines (not found only when a user presses the button).
  const areaProblems = ctx.areas.checkPage(loaded.value);
  if (areaProblems.length) throw new AppError('VALIDATION_FAILED', {}, problemsAsDetails(areaProblems));
  // Tables and columns must exist (the engine builds SQL only from names the catalog has).
  const catalogProblems = await checkPageAgainstCatalog(ctx.db, loaded.value);
  if (catalogProblems.length) throw new AppError('VALIDATION_FAILED', {}, problemsAsDetails(catalogProblems));
  // What a configurator publishes may show only what the configurator roles may read:
  // never users' secrets, sessions, codes or the outbox, whatever table the page names.
  const privilegeProblems = await checkPageAgainstRoles(ctx.db, loaded.value, CONFIGURATOR_ROLES);
  if (privilegeProblems.length) throw new AppError('VALIDATION_FAILED', {}, problemsAsDetails(privilegeProblems));
  const sqlProblems = await checkDefinitionSqls(ctx.db, loaded.value.sqls ?? [], sqlSessionOf(ctx, projectId, projectCode));
  if (sqlProblems.length) throw new AppError('VALIDATION_FAILED', {}, sqlProblems);
  return loaded.value;
}
