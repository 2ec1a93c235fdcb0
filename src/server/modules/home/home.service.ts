import type { Kysely } from 'kysely';
import type { WorkSummary } from '../../../common/api-types.js';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import type { SessionUser } from '../../http/access.js';
import type { HomeWorkItem } from '../area.js';
import { setNavLayout } from '../identity/index.js';
import { countOpenByStatus, findMostUsedPages, recordPageVisit, tableColumns, type PageVisitRow } from './home.repository.js';

/**
 * Open work of the session's warehouse by kind and status: each area says in its manifest
 * (`homeItems`) which table holds its work and which statuses end it. Until the table exists its
 * kind is reported as not available, which the home page shows as "no open work".
 */
export async function summarizeOpenWork(db: Kysely<DB>, user: SessionUser, sources: readonly HomeWorkItem[]): Promise<WorkSummary[]> {
  const summaries: WorkSummary[] = [];
  for (const source of sources) {
    const shown = { kind: source.kind, statusTexts: source.statusTexts ?? `ui.home.status.${source.kind}`, ...(source.listRoute ? { listRoute: source.listRoute } : {}) };
    let table: string | undefined;
    for (const candidate of source.tables) {
      const columns = await tableColumns(db, candidate);
      // A table without a warehouse column cannot be scoped to the session: it is not counted.
      if (columns.includes('status') && columns.includes('warehouse_id')) {
        table = candidate;
        break;
      }
    }
    if (!table || user.warehouseId === null) {
      summaries.push({ ...shown, available: Boolean(table), total: 0, byStatus: [] });
      continue;
    }
    const byStatus = await countOpenByStatus(db, table, user.warehouseId, source.terminal);
    summaries.push({ ...shown, available: true, total: byStatus.reduce((sum, s) => sum + s.count, 0), byStatus });
  }
  return summaries;
}

export const MOST_USED_LIMIT = 8;

export function recordVisit(db: Kysely<DB>, user: SessionUser, route: string): Promise<void> {
  return inTransaction(db, (trx) => recordPageVisit(trx, user.userId, route, user.loginAccount));
}

export function mostUsedPages(db: Kysely<DB>, user: SessionUser): Promise<PageVisitRow[]> {
  return findMostUsedPages(db, user.userId, MOST_USED_LIMIT);
}

/**
 * The navigation layout is a warehouse setting, else a project setting: an
 * administrator sets it for the session's warehouse, or its project when it has no warehouse.
 */
export async function changeNavLayout(db: Kysely<DB>, user: SessionUser, navLayout: 'left' | 'top'): Promise<void> {
  let target: { warehouseId: number } | { projectId: number };
  if (user.warehouseId !== null) target = { warehouseId: user.warehouseId };
  else if (user.projectId !== null) target = { projectId: user.projectId };
  else throw new AppError('NO_RIGHTS_CONTACT_ADMIN');
  await inTransaction(db, (trx) => setNavLayout(trx, target, navLayout, user.loginAccount));
}
