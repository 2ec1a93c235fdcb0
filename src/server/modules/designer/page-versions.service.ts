import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { insertDesignerAudit, type DesignerAction } from './designer-audit.repository.js';
import { contentHash, type DesignerContext } from './designer.context.js';
import {
  findEffectiveModulePages,
  findVersions,
  insertVersion,
  lockModule,
  lockPage,
  setStatus,
  updateDraftContent,
  type PageKey,
  type VersionRow,
} from './definition.repository.js';

/**
 * The writes every way of changing a page's versions shares (save, publish, rollback, copy,
 * import): the page lock, the one-startup-page rule, retiring the published version, storing a
 * draft or a new published version, and the audit trail. Each takes the caller's transaction.
 */

/**
 * Locks a page for a change and answers its versions, newest first. With `module`, the module is
 * locked first: the one-startup-page rule reads every page of it. Module before page is the one
 * lock order of every definition write, so two of them never wait for each other in a cycle.
 */
export async function lockVersions(trx: Transaction<DB>, projectId: number, key: PageKey, options: { module: boolean }): Promise<VersionRow[]> {
  if (options.module) await lockModule(trx, projectId, key.moduleCode);
  await lockPage(trx, projectId, key);
  return findVersions(trx, projectId, key);
}

/**
 * The one-startup-page rule: among the pages a project resolves to in a module, at most one is the
 * startup page. Called inside the transaction that would break it, with the module locked.
 */
export async function assertSingleStartup(db: Kysely<DB>, projectId: number, key: PageKey, definition: { startup?: boolean }): Promise<void> {
  if (definition.startup !== true) return;
  const other = (await findEffectiveModulePages(db, projectId, key.moduleCode)).find((p) => p.startup && p.function_code !== key.functionCode);
  if (other) throw new AppError('GENERIC_STARTUP_EXISTS', { moduleCode: key.moduleCode, functionCode: other.function_code });
}

/**
 * Makes room for a new published version of a page: checks the startup rule for it and turns the
 * version published until now (of `versions`, read under the lock) inactive. Answers that version.
 */
export async function retirePublished(
  ctx: DesignerContext,
  trx: Transaction<DB>,
  projectId: number,
  key: PageKey,
  definition: { startup?: boolean },
  versions: VersionRow[],
): Promise<VersionRow | undefined> {
  await assertSingleStartup(trx, projectId, key, definition);
  const previous = versions.find((v) => v.status === 'published');
  if (previous) await setStatus(trx, previous.id, 'inactive', ctx.user.loginAccount);
  return previous;
}

/**
 * Publishes a checked definition, as `content` (the definition with `status: published`), as the
 * page's next version (published versions never change, so a rollback, a published copy and an
 * import each add one): the previous one becomes inactive, and every node hears
 * `definition.changed` once the transaction commits.
 */
export async function publishNewVersion(
  ctx: DesignerContext,
  trx: Transaction<DB>,
  projectId: number,
  key: PageKey,
  definition: { startup?: boolean },
  content: unknown,
  versions: VersionRow[],
): Promise<{ version: number; previous: VersionRow | undefined }> {
  const previous = await retirePublished(ctx, trx, projectId, key, definition, versions);
  const row = await insertVersion(trx, { projectId, key, status: 'published', content, contentHash: contentHash(content), by: ctx.user.loginAccount });
  await ctx.events.emit(trx, 'definition.changed', { projectId, ...key });
  return { version: row.version, previous };
}

/** Stores content as the page's draft: it replaces the draft there is, or becomes the next version. */
export async function writeDraft(
  ctx: DesignerContext,
  trx: Transaction<DB>,
  projectId: number,
  key: PageKey,
  content: unknown,
  contentHash: string,
  draft: VersionRow | undefined,
): Promise<number> {
  if (draft) {
    await updateDraftContent(trx, draft.id, content, contentHash, ctx.user.loginAccount);
    return draft.version;
  }
  return (await insertVersion(trx, { projectId, key, status: 'draft', content, contentHash, by: ctx.user.loginAccount })).version;
}

/** Appends the caller's entry to the designer's audit trail, in the change's transaction. */
export async function recordAudit(
  ctx: DesignerContext,
  trx: Transaction<DB>,
  projectId: number,
  action: DesignerAction,
  page?: { key?: PageKey; version?: number; details?: unknown },
): Promise<void> {
  await insertDesignerAudit(trx, {
    userId: ctx.user.userId,
    loginAccount: ctx.user.loginAccount,
    projectId,
    action,
    moduleCode: page?.key?.moduleCode,
    functionCode: page?.key?.functionCode,
    version: page?.version,
    details: page?.details,
  });
}
