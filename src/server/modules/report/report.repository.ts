import { sql, type Kysely, type Transaction } from 'kysely';
import type { ReportAssignments } from '../../../common/report-api.js';
import { publishNextVersion } from '../../db/row-writes.js';
import type { DB } from '../../db/schema.js';
import type { SessionUser } from '../../http/access.js';

/** The report area's SQL (report_definition, report_version, report_assignment, report_dashboard). */

export interface DefinitionRow {
  id: number;
  project_id: number;
  code: string;
  names: Record<string, string>;
  display_order: number;
  draft: unknown;
  published_version: number | null;
  updated_at: Date;
}

const DEFINITION_COLUMNS = ['id', 'project_id', 'code', 'names', 'display_order', 'draft', 'published_version', 'updated_at'] as const;

export function definitionsOfProject(db: Kysely<DB>, projectId: number): Promise<DefinitionRow[]> {
  return db.selectFrom('report_definition').select(DEFINITION_COLUMNS).where('project_id', '=', projectId).orderBy('display_order').orderBy('code').execute();
}

export function findDefinition(db: Kysely<DB>, projectId: number, id: number, lock = false): Promise<DefinitionRow | undefined> {
  const query = db.selectFrom('report_definition').select(DEFINITION_COLUMNS).where('project_id', '=', projectId).where('id', '=', id);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export async function assignmentsOf(db: Kysely<DB>, reportIds: number[]): Promise<Map<number, ReportAssignments>> {
  const map = new Map<number, ReportAssignments>();
  for (const id of reportIds) map.set(id, { organizationIds: [], projectIds: [], userIds: [] });
  if (!reportIds.length) return map;
  const rows = await db.selectFrom('report_assignment').select(['report_id', 'kind', 'target_id']).where('report_id', 'in', reportIds).orderBy('target_id').execute();
  for (const row of rows) {
    const entry = map.get(row.report_id)!;
    if (row.kind === 'organization') entry.organizationIds.push(row.target_id);
    else if (row.kind === 'project') entry.projectIds.push(row.target_id);
    else entry.userIds.push(row.target_id);
  }
  return map;
}

export async function replaceAssignments(trx: Transaction<DB>, reportId: number, assignments: ReportAssignments, by: string): Promise<void> {
  await trx.deleteFrom('report_assignment').where('report_id', '=', reportId).execute();
  const rows = [
    ...assignments.organizationIds.map((target_id) => ({ kind: 'organization' as const, target_id })),
    ...assignments.projectIds.map((target_id) => ({ kind: 'project' as const, target_id })),
    ...assignments.userIds.map((target_id) => ({ kind: 'user' as const, target_id })),
  ];
  if (rows.length) await trx.insertInto('report_assignment').values(rows.map((r) => ({ ...r, report_id: reportId, created_by: by, updated_by: by }))).execute();
}

export interface RunnableRow {
  id: number;
  code: string;
  names: Record<string, string>;
  display_order: number;
  version: number;
  spec: unknown;
}

/**
 * Published reports the user may run in the session's project: made in that project or assigned
 * to it, and, when the report names organizations or users, only for those.
 */
export function runnableReports(db: Kysely<DB>, user: SessionUser, id?: number): Promise<RunnableRow[]> {
  let query = db
    .selectFrom('report_definition as d')
    .innerJoin('report_version as v', (join) => join.onRef('v.report_id', '=', 'd.id').onRef('v.version', '=', 'd.published_version'))
    .select(['d.id', 'd.code', 'd.names', 'd.display_order', 'v.version', 'v.spec'])
    .where(sql<boolean>`(d.project_id = ${user.projectId} or exists (select 1 from report_assignment a where a.report_id = d.id and a.kind = 'project' and a.target_id = ${user.projectId}))`)
    .where(
      sql<boolean>`(not exists (select 1 from report_assignment a where a.report_id = d.id and a.kind in ('organization', 'user'))
        or exists (select 1 from report_assignment a where a.report_id = d.id and ((a.kind = 'organization' and a.target_id = ${user.organizationId}) or (a.kind = 'user' and a.target_id = ${user.userId}))))`,
    );
  if (id !== undefined) query = query.where('d.id', '=', id);
  return query.orderBy('d.display_order').orderBy('d.code').execute();
}

export function versionsOf(db: Kysely<DB>, reportId: number) {
  return db.selectFrom('report_version').select(['version', 'spec', 'created_at', 'created_by']).where('report_id', '=', reportId).orderBy('version', 'desc').execute();
}

export function dashboardOf(db: Kysely<DB>, projectId: number) {
  return db.selectFrom('report_dashboard').select(['id', 'draft', 'published', 'published_version']).where('project_id', '=', projectId).executeTakeFirst();
}

/** The ids among `ids` of projects the user holds. */
export async function heldProjects(db: Kysely<DB>, userId: number, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('user_project').select('project_id').where('user_id', '=', userId).where('project_id', 'in', ids).execute();
  return new Set(rows.map((r) => r.project_id));
}

export function reportIdByCode(trx: Kysely<DB>, projectId: number, code: string): Promise<{ id: number } | undefined> {
  return trx.selectFrom('report_definition').select('id').where('project_id', '=', projectId).where('code', '=', code).executeTakeFirst();
}

export interface DefinitionValues {
  code: string;
  names: Record<string, string>;
  displayOrder: number;
  draft: unknown;
  by: string;
}

function definitionColumns(values: DefinitionValues) {
  return { code: values.code, names: JSON.stringify(values.names), display_order: values.displayOrder, draft: JSON.stringify(values.draft), updated_by: values.by };
}

export async function insertDefinition(trx: Transaction<DB>, projectId: number, values: DefinitionValues): Promise<number> {
  const row = await trx.insertInto('report_definition').values({ ...definitionColumns(values), project_id: projectId, created_by: values.by }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateDefinition(trx: Transaction<DB>, id: number, values: DefinitionValues): Promise<void> {
  await trx.updateTable('report_definition').set({ ...definitionColumns(values), updated_at: sql`now()` }).where('id', '=', id).execute();
}

/** Stores a published version and makes it the one operators run; answers its number (one past every earlier version). */
export async function insertVersion(trx: Transaction<DB>, reportId: number, spec: unknown, by: string): Promise<number> {
  return publishNextVersion(trx, 'report_definition', reportId, { table: 'report_version', documentColumn: 'report_id', contentColumn: 'spec' }, spec, by);
}

export async function upsertDashboardDraft(trx: Transaction<DB>, projectId: number, widgets: unknown, by: string): Promise<void> {
  const draft = JSON.stringify(widgets);
  await trx
    .insertInto('report_dashboard')
    .values({ project_id: projectId, draft, created_by: by, updated_by: by })
    .onConflict((oc) => oc.column('project_id').doUpdateSet({ draft, updated_by: by, updated_at: sql`now()` }))
    .execute();
}

export async function publishDashboardDraft(trx: Transaction<DB>, id: number, draft: unknown, version: number, by: string): Promise<void> {
  await trx.updateTable('report_dashboard').set({ published: JSON.stringify(draft), published_version: version, updated_by: by, updated_at: sql`now()` }).where('id', '=', id).execute();
}
