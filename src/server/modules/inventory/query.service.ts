import type { Kysely } from 'kysely';
import { AppError, type FieldError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import type { SessionUser } from '../../http/access.js';
import type { StockActivity } from '../../../common/api-types.js';
import { stockActivity } from './activity.repository.js';
import { countOpenTickets } from './count.repository.js';
import { countOpenDocuments } from './document.repository.js';
import {
  endOfDay,
  standardBalance,
  startOfDay,
  systemParam,
  transactionLogBatches,
  transactionLogPage,
  warehouseTimeZone,
  type TransactionLogFilter,
} from './query.repository.js';

/**
 * The inventory queries that need rules besides a grid: the transaction log (a
 * type and a query period must be chosen, and the period must lie within a configured number of
 * days, the system parameter INV_TRANS_LOG_MAX_DAYS, 31 unless set) and the standard balance as
 * of a past date, computed from the ledger.
 */

export const TRANS_LOG_DAYS_PARAM = 'INV_TRANS_LOG_MAX_DAYS';
const DEFAULT_TRANS_LOG_DAYS = 31;

export const TRANS_TYPES = ['all', 'receive', 'putaway', 'move', 'adjust', 'hold', 'release', 'transfer_out', 'transfer_in', 'count', 'allocate', 'unallocate', 'pick', 'unpick', 'ship'] as const;

/** Whose rules and stock a query follows: a session's scope, or the one a scheduled report names. */
export type ReportScope = Pick<SessionUser, 'organizationId' | 'projectId' | 'warehouseId'>;

function scope(user: ReportScope): { projectId: number; warehouseId: number } {
  if (user.projectId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'project' });
  if (user.warehouseId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
  return { projectId: user.projectId, warehouseId: user.warehouseId };
}

export interface TransactionLogInput {
  transType?: string | null;
  /** Calendar days (YYYY-MM-DD) in the warehouse's time zone, both included. */
  from?: string | null;
  to?: string | null;
  skuCode?: string | null;
  locationCode?: string | null;
  orderNo?: string | null;
  ownerCode?: string | null;
  lotNo?: string | null;
  lpn?: string | null;
}

/** Optional text filters of the transaction log: those given, not empty. */
const LOG_TEXT_FILTERS = ['skuCode', 'locationCode', 'orderNo', 'ownerCode', 'lotNo', 'lpn'] as const;

/** A real calendar day written YYYY-MM-DD. */
export function validDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const at = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
}

export async function transLogMaxDays(db: Kysely<DB>, organizationId: number | null): Promise<number> {
  const value = Number(await systemParam(db, organizationId, TRANS_LOG_DAYS_PARAM));
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_TRANS_LOG_DAYS;
}

/** Checks the spec's rules and answers the ledger filter. */
export async function transactionLogFilter(db: Kysely<DB>, user: ReportScope, input: TransactionLogInput): Promise<TransactionLogFilter> {
  const { projectId, warehouseId } = scope(user);
  const errors: FieldError[] = [];
  if (!input.transType) errors.push({ field: 'transType', code: 'FIELD_REQUIRED' });
  if (!input.from) errors.push({ field: 'from', code: 'FIELD_REQUIRED' });
  if (!input.to) errors.push({ field: 'to', code: 'FIELD_REQUIRED' });
  for (const name of ['from', 'to'] as const) {
    if (input[name] && !validDay(input[name])) errors.push({ field: name, code: 'FIELD_TYPE' });
  }
  if (input.from && input.to && input.from > input.to) errors.push({ field: 'to', code: 'FIELD_RANGE' });
  if (errors.length > 0) throw new AppError('VALIDATION_FAILED', {}, errors);
  const days = Math.round((Date.parse(`${input.to}T00:00:00Z`) - Date.parse(`${input.from}T00:00:00Z`)) / 86_400_000) + 1;
  const maxDays = await transLogMaxDays(db, user.organizationId);
  if (days > maxDays) throw new AppError('TRANS_LOG_PERIOD_TOO_LONG', { days: maxDays });
  const timeZone = await warehouseTimeZone(db, warehouseId);
  return {
    projectId,
    warehouseId,
    transType: input.transType!,
    from: await startOfDay(db, input.from!, timeZone),
    to: await endOfDay(db, input.to!, timeZone),
    ...Object.fromEntries(LOG_TEXT_FILTERS.flatMap((name) => (input[name] ? [[name, input[name]]] : []))),
  };
}

export async function transactionLog(db: Kysely<DB>, user: SessionUser, input: TransactionLogInput & { page?: number; pageSize?: number }) {
  const filter = await transactionLogFilter(db, user, input);
  const pageSize = Math.min(input.pageSize ?? 50, 100);
  return transactionLogPage(db, filter, Math.max(input.page ?? 1, 1), pageSize);
}

export function transactionLogExport(db: Kysely<DB>, filter: TransactionLogFilter) {
  return transactionLogBatches(db, filter);
}

export interface StandardBalanceInput {
  /** The calendar day (YYYY-MM-DD, warehouse time zone) whose closing balance is asked. */
  asOf: string;
  skuCode?: string | null;
  ownerCode?: string | null;
  locationCode?: string | null;
  page?: number;
  pageSize?: number;
}

/** `getSTDBalanceList`: the balance at the end of a past day, from today's balance and the ledger since. */
export async function standardBalanceList(db: Kysely<DB>, user: SessionUser, input: StandardBalanceInput) {
  const { projectId, warehouseId } = scope(user);
  if (!validDay(input.asOf)) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'asOf', code: 'FIELD_TYPE' }]);
  const timeZone = await warehouseTimeZone(db, warehouseId);
  const asOf = await endOfDay(db, input.asOf, timeZone);
  const pageSize = Math.min(input.pageSize ?? 100, 100);
  const page = Math.max(input.page ?? 1, 1);
  return standardBalance(
    db,
    {
      projectId,
      warehouseId,
      asOf,
      ...(input.skuCode ? { skuCode: input.skuCode } : {}),
      ...(input.ownerCode ? { ownerCode: input.ownerCode } : {}),
      ...(input.locationCode ? { locationCode: input.locationCode } : {}),
    },
    pageSize,
    (page - 1) * pageSize,
  );
}

/** Open inventory work of the session's warehouse: documents by type and status, count tickets by status. */
export async function openInventoryWork(db: Kysely<DB>, user: SessionUser) {
  if (user.warehouseId === null) return { documents: [], counts: [] };
  return { documents: await countOpenDocuments(db, user.warehouseId), counts: await countOpenTickets(db, user.warehouseId) };
}

/**
 * The home page's charts of the session's project and warehouse (src/server/modules/inventory/activity.repository.ts),
 * days as `timeZone` (an IANA name such as Asia/Bangkok; UTC when not given) sees them.
 */
export async function homeStockActivity(db: Kysely<DB>, user: SessionUser, timeZone = 'UTC'): Promise<StockActivity> {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw new AppError('VALIDATION_FAILED', {}, [{ field: 'timeZone', code: 'FIELD_TYPE' }]);
  }
  return stockActivity(db, scope(user), timeZone);
}
