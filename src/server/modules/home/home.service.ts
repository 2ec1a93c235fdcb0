import type { Kysely } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import type { SessionUser } from '../../http/access.js';
import { countOpenByStatus, findMostUsedPages, recordPageVisit, setNavLayout, tableColumns, type PageVisitRow } from './home.repository.js';

export type WorkKind = 'asn' | 'order' | 'task' | 'count' | 'putaway' | 'wave' | 'pick';

/**
 * Where the open work of a warehouse lives. The tables arrive with the inbound, outbound and task
 * issues; until one exists its kind is reported as not available, which the home page shows as
 * "no open work". Terminal statuses are those of spec section 4 (cancelled, deleted, closed),
 * plus the end of each flow (ASN put away, order delivered or billed, task done).
 */
const WORK_SOURCES: { kind: WorkKind; tables: string[]; terminal: string[] }[] = [
  { kind: 'asn', tables: ['asn_header', 'asn'], terminal: ['putaway', 'cancelled', 'deleted', 'closed'] },
  { kind: 'order', tables: ['so_header', 'sales_order'], terminal: ['shipped', 'delivered', 'billed', 'cancelled', 'deleted', 'closed'] },
  { kind: 'task', tables: ['wms_task', 'task'], terminal: ['done', 'completed', 'cancelled', 'deleted', 'closed'] },
  // Cycle-count tickets still to count or to approve.
  { kind: 'count', tables: ['count_ticket'], terminal: ['approved', 'closed', 'cancelled'] },
  // Receipt lines waiting for putaway (inbound area): open until put away.
  { kind: 'putaway', tables: ['receipt_line'], terminal: ['putaway'] },
  // Waves in progress and pick tasks still to pick (outbound area).
  { kind: 'wave', tables: ['wave'], terminal: ['picked', 'cancelled'] },
  { kind: 'pick', tables: ['pick_task'], terminal: ['picked', 'short', 'cancelled'] },
];

export interface WorkSummary {
  kind: WorkKind;
  /** False while no table of this kind exists yet. */
  available: boolean;
  total: number;
  byStatus: { status: string; count: number }[];
}

/** Open work of the session's warehouse by kind and status (issue 4, item 10). */
export async function summarizeOpenWork(db: Kysely<DB>, user: SessionUser): Promise<WorkSummary[]> {
  const summaries: WorkSummary[] = [];
  for (const source of WORK_SOURCES) {
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
      summaries.push({ kind: source.kind, available: Boolean(table), total: 0, byStatus: [] });
      continue;
    }
    const byStatus = await countOpenByStatus(db, table, user.warehouseId, source.terminal);
    summaries.push({ kind: source.kind, available: true, total: byStatus.reduce((sum, s) => sum + s.count, 0), byStatus });
  }
  return summaries;
}

export const MOST_USED_LIMIT = 8;

export function recordVisit(db: Kysely<DB>, user: SessionUser, route: string): Promise<void> {
  return recordPageVisit(db, user.userId, route, user.loginAccount);
}

export function mostUsedPages(db: Kysely<DB>, user: SessionUser): Promise<PageVisitRow[]> {
  return findMostUsedPages(db, user.userId, MOST_USED_LIMIT);
}

/**
 * The navigation layout is a warehouse setting, else a project setting (spec section 1): an
 * administrator sets it for the session's warehouse, or its project when it has no warehouse.
 */
export async function changeNavLayout(db: Kysely<DB>, user: SessionUser, navLayout: 'left' | 'top'): Promise<void> {
  if (user.warehouseId !== null) return setNavLayout(db, { warehouseId: user.warehouseId }, navLayout, user.loginAccount);
  if (user.projectId !== null) return setNavLayout(db, { projectId: user.projectId }, navLayout, user.loginAccount);
  throw new AppError('NO_RIGHTS_CONTACT_ADMIN');
}
