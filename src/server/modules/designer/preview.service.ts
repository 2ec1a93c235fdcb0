import { keyFieldOf, loadPageDefinition, type PageDefinition } from '../../../../engine/schema/index.js';
import type { RowKey } from '../../../../engine/schema/api.js';
import {
  checkPageAgainstCatalog,
  EngineError,
  findListedRow,
  inConfiguratorTransaction,
  parseRowKey,
  requireAllowedSql,
  preparePage,
  readTableColumns,
  selectPage,
  type EngineSession,
  type EngineTransaction,
  type PreparedPage,
} from '../../../../engine/server/index.js';
import { AppError, isErrorCode } from '../../../common/errors.js';
import { requireRight } from '../identity/index.js';
import { ROW_FILTERS } from '../identity/index.js';
import type { ResolvedPage } from '../../definitions/definition-store.js';
import { problemsAsDetails, type DesignerContext } from './designer.context.js';

export interface PreviewQuery {
  conditions?: unknown;
  sort?: unknown;
  page: number;
  pageSize: number;
}

/** Resolves a published page (a sub-page's child) the way the engine does, from its cache. */
export type ResolvePublished = (projectId: number | null, moduleCode: string, functionCode: string) => Promise<ResolvedPage>;

function engineSessionOf(ctx: DesignerContext): EngineSession {
  return {
    userId: ctx.user.userId,
    loginAccount: ctx.user.loginAccount,
    isAdmin: ctx.user.isAdmin,
    language: ctx.language,
    organizationId: ctx.user.organizationId,
    projectId: ctx.user.projectId,
    projectCode: ctx.user.projectCode,
    warehouseId: ctx.user.warehouseId,
    warehouseCode: ctx.user.warehouseCode,
  };
}

/** The definition being edited, checked as publishing would check it (schema and catalog). */
async function loadDraft(ctx: DesignerContext, definition: unknown): Promise<PageDefinition> {
  const loaded = loadPageDefinition(definition);
  if (!loaded.ok) throw new AppError('VALIDATION_FAILED', {}, problemsAsDetails(loaded.problems));
  const catalogProblems = await checkPageAgainstCatalog(ctx.db, loaded.value);
  if (catalogProblems.length) throw new AppError('VALIDATION_FAILED', {}, problemsAsDetails(catalogProblems));
  return loaded.value;
}

async function prepareDraft(ctx: DesignerContext, page: PageDefinition): Promise<PreparedPage> {
  const tables = [page.table.name, ...page.fields.flatMap((f) => [f.foreign?.table, f.options?.type === 'foreign' ? f.options.table : undefined])];
  return preparePage(page, await readTableColumns(ctx.db, tables.filter((t): t is string => t !== undefined)), ROW_FILTERS);
}

async function engineCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof EngineError) throw new AppError(isErrorCode(error.code) ? error.code : 'SYSTEM_CONFIG', error.params, error.details);
    throw error;
  }
}

/**
 * `POST /api/generic/preview/selection`: the live preview's rows, listed by the real engine from
 * the definition being edited (not yet published), for the caller's scope, inside a read-only
 * transaction: a preview can read what the page would show and can change nothing.
 */
export async function previewSelection(ctx: DesignerContext, definition: unknown, query: PreviewQuery) {
  const prepared = await prepareDraft(ctx, await loadDraft(ctx, definition));
  const session = engineSessionOf(ctx);
  return engineCall(() => inPreviewTransaction(ctx, prepared, (trx) => selectPage(trx, prepared, session, query)));
}

/**
 * A draft is not yet checked the way publishing checks it, so the whole preview reads as the
 * configurator read role: a draft page over users, sessions or the outbox shows nothing
 * but a permission error, and other projects' rows stay hidden by row-level security.
 */
async function inPreviewTransaction<T>(ctx: DesignerContext, prepared: PreparedPage, work: (trx: EngineTransaction) => Promise<T>): Promise<T> {
  const { page } = prepared;
  for (const named of page.sqls ?? []) {
    if (named.name === page.listSql) await requireAllowedSql(named.name, named.text, 'read');
  }
  return inConfiguratorTransaction(ctx.db, engineSessionOf(ctx), 'read', work);
}

/**
 * `POST /api/generic/preview/tab`: a sub-page tab of the preview. The header row is read through
 * the edited definition; the child page is the published one the sub-page names, with the
 * caller's right on its module checked as the engine's own `/generic/tab` does.
 */
export async function previewTab(
  ctx: DesignerContext,
  resolvePublished: ResolvePublished,
  definition: unknown,
  request: PreviewQuery & { subPage: string; parentKey: RowKey },
) {
  const page = await loadDraft(ctx, definition);
  const subPage = (page.subPages ?? []).find((s) => s.code === request.subPage);
  if (!subPage) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'subPage', code: 'FIELD_UNKNOWN', params: { name: request.subPage } }]);
  await requireRight(ctx.db, ctx.user, `${subPage.moduleCode}:view`);
  const parent = await prepareDraft(ctx, page);
  const child = await resolvePublished(ctx.user.projectId, subPage.moduleCode, subPage.functionCode);
  const session = engineSessionOf(ctx);
  return engineCall(() =>
    inPreviewTransaction(ctx, parent, async (trx) => {
      // As /generic/tab: the header must be a row the (edited) parent page lists to this caller.
      const key = parseRowKey(parent, request.parentKey);
      const header = key === undefined ? undefined : await findListedRow(trx, parent, session, key);
      if (!header) throw new AppError('NO_RECORD');
      const links = subPage.links.map((link) => ({
        field: link.childField,
        value: link.parentField === keyFieldOf(page) ? header._key : header[link.parentField],
      }));
      const rows = await selectPage(trx, child.prepared, session, { conditions: request.conditions, sort: request.sort, links, page: request.page, pageSize: request.pageSize });
      return { ...rows, moduleCode: subPage.moduleCode, functionCode: subPage.functionCode };
    }),
  );
}
