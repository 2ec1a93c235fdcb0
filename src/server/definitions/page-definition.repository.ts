import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';

export interface StoredDefinition {
  id: number;
  projectId: number | null;
  version: number;
  status: 'draft' | 'published' | 'inactive';
  content: unknown;
  contentHash: string;
}

function toStored(row: {
  id: number;
  project_id: number | null;
  version: number;
  status: 'draft' | 'published' | 'inactive';
  content: unknown;
  content_hash: string;
}): StoredDefinition {
  return {
    id: Number(row.id),
    projectId: row.project_id === null ? null : Number(row.project_id),
    version: row.version,
    status: row.status,
    content: typeof row.content === 'string' ? (JSON.parse(row.content) as unknown) : row.content,
    contentHash: row.content_hash,
  };
}

/**
 * The published version a page resolves to: the project's own published
 * version, else the shipped default's (project_id null).
 */
export async function findPublishedDefinition(
  db: Kysely<DB>,
  projectId: number | null,
  moduleCode: string,
  functionCode: string,
): Promise<StoredDefinition | undefined> {
  const rows = await db
    .selectFrom('page_definition')
    .select(['id', 'project_id', 'version', 'status', 'content', 'content_hash'])
    .where('module_code', '=', moduleCode)
    .where('function_code', '=', functionCode)
    .where('status', '=', 'published')
    .where((eb) => (projectId === null ? eb('project_id', 'is', null) : eb.or([eb('project_id', '=', projectId), eb('project_id', 'is', null)])))
    // The project's own copy first, then the shipped default.
    .orderBy(sql`project_id is null`)
    .orderBy('version', 'desc')
    .limit(1)
    .execute();
  return rows[0] ? toStored(rows[0]) : undefined;
}

/**
 * The newest shipped version (any status) and its content hash of every page, by
 * `<moduleCode>/<functionCode>`, to compare content hashes at sync.
 */
export async function findLatestShippedHashes(db: Kysely<DB>): Promise<Map<string, { version: number; contentHash: string }>> {
  const rows = await db
    .selectFrom('page_definition')
    .select(['module_code', 'function_code', 'version', 'content_hash'])
    .distinctOn(['module_code', 'function_code'])
    .where('project_id', 'is', null)
    .orderBy('module_code')
    .orderBy('function_code')
    .orderBy('version', 'desc')
    .execute();
  return new Map(rows.map((row) => [`${row.module_code}/${row.function_code}`, { version: row.version, contentHash: row.content_hash }]));
}

/** Adds a shipped version; publishing it retires the shipped version published before. */
export async function insertShippedVersion(
  trx: Transaction<DB>,
  row: { moduleCode: string; functionCode: string; version: number; status: 'draft' | 'published' | 'inactive'; content: unknown; contentHash: string },
): Promise<void> {
  if (row.status === 'published') {
    await trx
      .updateTable('page_definition')
      .set({ status: 'inactive', updated_at: sql`now()`, updated_by: 'system' })
      .where('project_id', 'is', null)
      .where('module_code', '=', row.moduleCode)
      .where('function_code', '=', row.functionCode)
      .where('status', '=', 'published')
      .execute();
  }
  await trx
    .insertInto('page_definition')
    .values({
      project_id: null,
      module_code: row.moduleCode,
      function_code: row.functionCode,
      version: row.version,
      status: row.status,
      content: JSON.stringify(row.content),
      content_hash: row.contentHash,
      created_by: 'system',
      updated_by: 'system',
    })
    .execute();
}
