import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { PageKey, VersionStatus } from '../../../common/designer/api-types.js';
import type { DB } from '../../db/schema.js';

export type { PageKey, VersionStatus };

/** One stored version of a page definition (the engine's `page_definition` table). */
export interface VersionRow {
  id: number;
  project_id: number | null;
  module_code: string;
  function_code: string;
  version: number;
  status: VersionStatus;
  content: Record<string, unknown>;
  content_hash: string;
  created_at: Date;
  created_by: string | null;
  updated_at: Date;
  updated_by: string | null;
}

const COLUMNS = [
  'id',
  'project_id',
  'module_code',
  'function_code',
  'version',
  'status',
  'content',
  'content_hash',
  'created_at',
  'created_by',
  'updated_at',
  'updated_by',
] as const;

function asVersion(row: unknown): VersionRow {
  const r = row as VersionRow & { content: unknown };
  return { ...r, content: (typeof r.content === 'string' ? JSON.parse(r.content) : r.content) as Record<string, unknown> };
}

/** The rows of one project's pages, or of the shipped defaults (null). */
function ofProject(projectId: number | null) {
  return (eb: ExpressionBuilder<DB, 'page_definition'>) => (projectId === null ? eb('project_id', 'is', null) : eb('project_id', '=', projectId));
}

/** Every version of one page in one project (null: the shipped defaults), newest first. */
export async function findVersions(db: Kysely<DB>, projectId: number | null, key: PageKey): Promise<VersionRow[]> {
  const rows = await db
    .selectFrom('page_definition')
    .select(COLUMNS)
    .where(ofProject(projectId))
    .where('module_code', '=', key.moduleCode)
    .where('function_code', '=', key.functionCode)
    .orderBy('version', 'desc')
    .execute();
  return rows.map(asVersion);
}

/**
 * Serializes changes of one page's versions across sessions and app nodes: a transaction-scoped
 * advisory lock on (project, module, function). On PGlite there is one session, so it is a no-op
 * there by nature.
 */
export async function lockPage(trx: Transaction<DB>, projectId: number, key: PageKey): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`page_definition:${projectId}:${key.moduleCode}:${key.functionCode}`}))`.execute(trx);
}

/** Locks every page of a module in a project (the one-startup-page rule reads them all). */
export async function lockModule(trx: Transaction<DB>, projectId: number, moduleCode: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`page_module:${projectId}:${moduleCode}`}))`.execute(trx);
}

async function nextVersion(trx: Transaction<DB>, projectId: number, key: PageKey): Promise<number> {
  const row = await trx
    .selectFrom('page_definition')
    .select((eb) => eb.fn.max('version').as('max'))
    .where('project_id', '=', projectId)
    .where('module_code', '=', key.moduleCode)
    .where('function_code', '=', key.functionCode)
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

/** Stores content as the page's next version (call it with the page locked). */
export async function insertVersion(
  trx: Transaction<DB>,
  row: { projectId: number; key: PageKey; status: VersionStatus; content: unknown; contentHash: string; by: string },
): Promise<VersionRow> {
  const inserted = await trx
    .insertInto('page_definition')
    .values({
      project_id: row.projectId,
      module_code: row.key.moduleCode,
      function_code: row.key.functionCode,
      version: await nextVersion(trx, row.projectId, row.key),
      status: row.status,
      content: JSON.stringify(row.content),
      content_hash: row.contentHash,
      created_by: row.by,
      updated_by: row.by,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return asVersion(inserted);
}

/** Rewrites a draft's content (only drafts change in place; published versions are snapshots). */
export async function updateDraftContent(trx: Transaction<DB>, id: number, content: unknown, contentHash: string, by: string): Promise<void> {
  await trx
    .updateTable('page_definition')
    .set({ content: JSON.stringify(content), content_hash: contentHash, updated_at: sql`now()`, updated_by: by })
    .where('id', '=', id)
    .where('status', '=', 'draft')
    .execute();
}

export async function setStatus(trx: Transaction<DB>, id: number, status: VersionStatus, by: string): Promise<void> {
  await trx.updateTable('page_definition').set({ status, updated_at: sql`now()`, updated_by: by }).where('id', '=', id).execute();
}

/** A draft becomes the published snapshot: its content gets `status: published` with it. */
export async function publishDraft(trx: Transaction<DB>, id: number, content: unknown, contentHash: string, by: string): Promise<void> {
  await trx
    .updateTable('page_definition')
    .set({ status: 'published', content: JSON.stringify(content), content_hash: contentHash, updated_at: sql`now()`, updated_by: by })
    .where('id', '=', id)
    .execute();
}

export async function deleteVersion(trx: Transaction<DB>, id: number): Promise<void> {
  await trx.deleteFrom('page_definition').where('id', '=', id).where('status', '=', 'draft').execute();
}

/** A short view of every stored version of a project's pages and of the shipped defaults. */
export interface VersionHead {
  project_id: number | null;
  module_code: string;
  function_code: string;
  version: number;
  status: VersionStatus;
  title_code: string | null;
  startup: boolean;
  updated_at: Date;
  updated_by: string | null;
}

export async function findHeads(db: Kysely<DB>, projectId: number, moduleCode?: string): Promise<VersionHead[]> {
  let query = db
    .selectFrom('page_definition')
    .select([
      'project_id',
      'module_code',
      'function_code',
      'version',
      'status',
      sql<string | null>`content->>'titleCode'`.as('title_code'),
      sql<boolean>`coalesce((content->>'startup')::boolean, false)`.as('startup'),
      'updated_at',
      'updated_by',
    ])
    .where((eb) => eb.or([eb('project_id', '=', projectId), eb('project_id', 'is', null)]));
  if (moduleCode !== undefined) query = query.where('module_code', '=', moduleCode);
  return query.orderBy('module_code').orderBy('function_code').orderBy('version', 'desc').execute();
}

/**
 * The definition a project resolves to for each page of a module: the project's published version,
 * else the shipped default's published one.
 */
export async function findEffectiveModulePages(
  db: Kysely<DB>,
  projectId: number,
  moduleCode: string,
): Promise<Array<{ function_code: string; project_id: number | null; version: number; startup: boolean }>> {
  const heads = await findHeads(db, projectId, moduleCode);
  const byFunction = new Map<string, { function_code: string; project_id: number | null; version: number; startup: boolean }>();
  for (const head of heads.filter((h) => h.status === 'published')) {
    const current = byFunction.get(head.function_code);
    if (!current || (current.project_id === null && head.project_id !== null)) {
      byFunction.set(head.function_code, { function_code: head.function_code, project_id: head.project_id, version: head.version, startup: head.startup });
    }
  }
  return [...byFunction.values()];
}

/** The published version a project resolves to for one page, with its content. */
export async function findEffectivePublished(db: Kysely<DB>, projectId: number, key: PageKey): Promise<VersionRow | undefined> {
  const own = (await findVersions(db, projectId, key)).find((v) => v.status === 'published');
  if (own) return own;
  return (await findVersions(db, null, key)).find((v) => v.status === 'published');
}

/** Every published version of a project's own pages (null: of the shipped defaults), in key order. */
export async function findPublished(db: Kysely<DB>, projectId: number | null): Promise<VersionRow[]> {
  const rows = await db
    .selectFrom('page_definition')
    .select(COLUMNS)
    .where(ofProject(projectId))
    .where('status', '=', 'published')
    .orderBy('module_code')
    .orderBy('function_code')
    .execute();
  return rows.map(asVersion);
}
