import type { Kysely } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import type { DB } from '../../db/schema.js';
import { renderTableFile, TABLE_FILE_CONTENT_TYPES } from '../../files/table-file.js';
import { translate } from '../../http/i18n.js';
import { endOfDay, standardBalance, transactionLogBatches, transactionLogPage, warehouseTimeZone, type TransactionLogRow } from './query.repository.js';
import { transactionLogFilter, validDay, type ReportScope, type TransactionLogInput } from './query.service.js';

/*
 * The inventory reports as files (xlsx or csv) for the download center: the transaction log (its
 * rules: a type and a period within INV_TRANS_LOG_MAX_DAYS), the balance (now) and
 * the standard balance (at the end of a past day, from the ledger). The plan checks everything and
 * counts the rows before any file is stored; the file is written batch by batch afterwards.
 */

export type InventoryReport = 'transactionLog' | 'balance' | 'standardBalance';
export type ReportFormat = 'xlsx' | 'csv';

export const REPORT_RIGHTS: Record<InventoryReport, 'transaction:view' | 'stdBalanceReport:view'> = {
  transactionLog: 'transaction:view',
  balance: 'stdBalanceReport:view',
  standardBalance: 'stdBalanceReport:view',
};

type Row = Record<string, string | number | null>;

export interface ReportPlan {
  report: InventoryReport;
  title: string;
  /** The file's name without extension. */
  fileBase: string;
  columns: { key: string; header: string; numeric?: boolean }[];
  total: number;
  batches(): AsyncGenerator<Row[]>;
}

const BATCH = 1000;

/** The columns of a transaction-log export (streamed or in the background), with the `inv.field.*` text of each header. */
export const LOG_COLUMNS: [keyof TransactionLogRow, string][] = [
  ['trans_time', 'transTime'],
  ['trans_type', 'transType'],
  ['order_no', 'orderNo'],
  ['owner_code', 'owner'],
  ['sku_code', 'sku'],
  ['lot_no', 'lot'],
  ['location_code', 'location'],
  ['lpn', 'lpn'],
  ['qty', 'qty'],
  ['before_qty', 'beforeQty'],
  ['after_qty', 'afterQty'],
  ['uom', 'uom'],
  ['reason', 'reason'],
  ['operator', 'operator'],
];
export const NUMERIC = new Set(['qty', 'before_qty', 'after_qty', 'held_qty']);

const BALANCE_COLUMNS: [string, string][] = [
  ['owner_code', 'owner'],
  ['sku_code', 'sku'],
  ['sku_description', 'skuName'],
  ['lot_no', 'lot'],
  ['location_code', 'location'],
  ['lpn', 'lpn'],
  ['qty', 'qty'],
  ['held_qty', 'heldQty'],
  ['uom', 'uom'],
];

function columnsOf(pairs: [string, string][], language: Language) {
  return pairs.map(([key, label]) => ({ key, header: translate(language, `inv.field.${label}`), numeric: NUMERIC.has(key) }));
}

/** The transaction log of a type and a period, by the rules of the screen. */
export async function planTransactionLog(db: Kysely<DB>, scope: ReportScope, input: TransactionLogInput, language: Language): Promise<ReportPlan> {
  const filter = await transactionLogFilter(db, scope, input);
  const { total } = await transactionLogPage(db, filter, 1, 1);
  return {
    report: 'transactionLog',
    title: `${translate(language, 'menu.transaction')} ${input.transType} ${input.from} - ${input.to}`,
    fileBase: `transaction-log-${input.from}-${input.to}`,
    columns: columnsOf(LOG_COLUMNS, language),
    total,
    async *batches() {
      for await (const batch of transactionLogBatches(db, filter, BATCH)) {
        yield batch.map((row) => Object.fromEntries(LOG_COLUMNS.map(([key]) => [key, key === 'trans_time' ? row.trans_time.toISOString() : (row[key])])));
      }
    },
  };
}

export interface BalanceReportInput {
  /** The day whose closing balance is asked (YYYY-MM-DD, warehouse time zone); absent: now. */
  asOf?: string | null;
  skuCode?: string | null;
  ownerCode?: string | null;
  locationCode?: string | null;
}

/** The balance now, or the standard balance at the end of a past day. */
export async function planBalance(db: Kysely<DB>, scope: ReportScope, input: BalanceReportInput, language: Language): Promise<ReportPlan> {
  if (scope.projectId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'project' });
  if (scope.warehouseId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
  if (input.asOf && !validDay(input.asOf)) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'asOf', code: 'FIELD_TYPE' }]);
  const timeZone = await warehouseTimeZone(db, scope.warehouseId);
  // "Now" is the end of a day far ahead: no ledger row is later, so the balance is today's.
  const asOf = input.asOf ? await endOfDay(db, input.asOf, timeZone) : new Date(Date.now() + 86_400_000);
  const filter = {
    projectId: scope.projectId,
    warehouseId: scope.warehouseId,
    asOf,
    ...(input.skuCode ? { skuCode: input.skuCode } : {}),
    ...(input.ownerCode ? { ownerCode: input.ownerCode } : {}),
    ...(input.locationCode ? { locationCode: input.locationCode } : {}),
  };
  const { total } = await standardBalance(db, filter, 1, 0);
  const report: InventoryReport = input.asOf ? 'standardBalance' : 'balance';
  return {
    report,
    title: input.asOf ? `${translate(language, 'menu.stdBalanceReport')} ${input.asOf}` : translate(language, 'menu.balance'),
    fileBase: input.asOf ? `standard-balance-${input.asOf}` : 'balance',
    columns: columnsOf(BALANCE_COLUMNS, language),
    total,
    async *batches() {
      for (let offset = 0; ; offset += BATCH) {
        const { rows } = await standardBalance(db, filter, BATCH, offset);
        if (rows.length === 0) return;
        yield rows.map((row) => ({ ...row }));
        if (rows.length < BATCH) return;
      }
    },
  };
}

/** Writes the plan's rows as a file, reporting the rows written after every batch. */
export function renderReport(plan: ReportPlan, format: ReportFormat, progress: (rows: number) => void): Promise<{ content: Buffer; rows: number }> {
  return renderTableFile(plan.report, plan.columns, plan.batches(), format, progress);
}

export const CONTENT_TYPES: Record<ReportFormat, string> = TABLE_FILE_CONTENT_TYPES;
