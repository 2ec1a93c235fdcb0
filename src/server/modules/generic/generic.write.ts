import type { Transaction } from 'kysely';
import type { AddingRequest, DeletionRequest, DeletionResponse, GenericRow, ImportResponse, PageRef, UpdatingRequest } from '../../../../engine/schema/api.js';
import {
  EngineError,
  checkRecordInDatabase,
  databaseWriteError,
  deleteRow,
  findRowsByKeys,
  insertRow,
  mapImportRows,
  parseRowKey,
  prepareRecord,
  readSheetRows,
  runValidationSql,
  throwIfFieldErrors,
  updateRow,
  type EngineFieldError,
  type EngineRow,
  type EngineSession,
  type ForeignCheckOptions,
  type ImportRecord,
  type PreparedPage,
  type PreparedRecord,
} from '../../../../engine/server/index.js';
import { AppError } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import type { DB } from '../../db/schema.js';
import { inTransaction, withSavepoint } from '../../db/transaction.js';
import { FOREIGN_ROW_FILTERS } from '../identity/index.js';
import type { WriterDefinition, WriterOperation } from '../area.js';
import { engine, engineSession, labelText, openPage, refuseReadOnly, rowByKey, type GenericContext } from './generic.context.js';
import { findCodeMasterOptions } from './code-master.repository.js';
import { optionLabels } from './option-labels.js';

/** Largest import (rows) of one call. */
export const IMPORT_MAX_ROWS = 10_000;

/*
 * The engine's writes: add, update, delete and import, each one
 * transaction opened by inTransaction, with every field rule and the page's validation SQL inside
 * it, and the page's writer around the write.
 */

/** The page's writer, when it names one (a name no area defines was refused at publish). */
function writerOf(ctx: GenericContext, prepared: PreparedPage): WriterDefinition | undefined {
  const name = prepared.page.writer;
  if (name === undefined) return undefined;
  const writer = ctx.areas.writer(name);
  if (!writer) {
    ctx.log.error({ writer: name }, 'page names a writer no area defines');
    throw new AppError('SYSTEM_CONFIG');
  }
  return writer;
}

/** Which rows of the access masters a foreign value may name: those the dropdowns offer. */
const foreignRowFilter = (table: string) => FOREIGN_ROW_FILTERS.get(table);

/**
 * Field rules that need the database, validation SQL and the scope of foreign values included, all
 * inside the write's transaction. On update, `stored` is the row as read and `ownKey` its key.
 */
async function databaseChecks(
  trx: Transaction<DB>,
  prepared: PreparedPage,
  session: EngineSession,
  record: PreparedRecord,
  options: ForeignCheckOptions & { ownKey?: string | number } = {},
): Promise<EngineFieldError[]> {
  const sqlErrors = await runValidationSql(trx, prepared, session, record);
  const codeMaster = (codeType: string) => findCodeMasterOptions(trx, codeType, session.language as Language);
  // A field its validation SQL already refused gets no second error.
  const failed = new Set([...record.failed, ...sqlErrors.map((e) => e.field)]);
  const dbErrors = await checkRecordInDatabase(trx, prepared, session, { ...record, failed }, { codeMaster, ...options, rowFilters: foreignRowFilter });
  return [...record.errors, ...sqlErrors, ...dbErrors];
}

/** beforeSave, the insert or update, afterSave: the writer sees the old row and the new one. */
async function saveRecord(
  ctx: GenericContext,
  trx: Transaction<DB>,
  prepared: PreparedPage,
  record: PreparedRecord,
  operation: Exclude<WriterOperation, 'delete'>,
  existing?: { key: string | number; version: string | null; old: EngineRow },
): Promise<string | number> {
  const session = engineSession(ctx);
  const writer = writerOf(ctx, prepared);
  const hookBase = { trx, events: ctx.events, page: prepared.page, session, user: ctx.user, operation };
  const old = existing?.old ?? null;
  if (writer?.beforeSave) {
    await writer.beforeSave({ ...hookBase, old, values: record.values, merged: record.merged, unstored: record.unstored });
  }
  let key: string | number;
  try {
    if (existing) {
      await updateRow(trx, prepared, session, existing.key, existing.version, record.values);
      key = existing.key;
    } else {
      key = await insertRow(trx, prepared, session, record.values);
    }
  } catch (error) {
    throw databaseWriteError(error);
  }
  if (writer?.afterSave) {
    // Read back as written: the writer's own rules (a project grant, say) may be what makes it visible to the caller.
    const [row] = await findRowsByKeys(trx, prepared, session, [key], { rowFilter: false });
    if (!row) throw new AppError('NO_RECORD');
    await writer.afterSave({ ...hookBase, old, row, unstored: record.unstored });
  }
  return key;
}

/** `POST /api/generic/adding`: every field rule on the server, all errors at once, one transaction. */
export async function addRow(ctx: GenericContext, request: AddingRequest): Promise<{ row: GenericRow }> {
  const { prepared } = await openPage(ctx, request, 'add');
  refuseReadOnly(prepared.page);
  const session = engineSession(ctx);
  return engine(async () => {
    const record = prepareRecord(prepared, 'add', request.record);
    return inTransaction(ctx.db, async (trx) => {
      throwIfFieldErrors(await databaseChecks(trx, prepared, session, record));
      const key = await saveRecord(ctx, trx, prepared, record, 'add');
      return { row: await rowByKey(trx, prepared, session, key) };
    });
  });
}

/** `POST /api/generic/updating`: refused STALE_UPDATE when the row changed since the caller read it. */
export async function updateRowOfPage(ctx: GenericContext, request: UpdatingRequest): Promise<{ row: GenericRow }> {
  const { prepared } = await openPage(ctx, request, 'edit');
  refuseReadOnly(prepared.page);
  const session = engineSession(ctx);
  return engine(async () => {
    const key = parseRowKey(prepared, request.key);
    if (key === undefined) throw new AppError('NO_RECORD');
    return inTransaction(ctx.db, async (trx) => {
      const stored = await rowByKey(trx, prepared, session, key);
      if (stored._version !== null && stored._version !== request.version) throw new AppError('STALE_UPDATE');
      const record = prepareRecord(prepared, 'update', request.record, stored);
      // Nothing changeable was sent: nothing is written and the version stays (unchanged data needs no save).
      if (!record.errors.length && !Object.keys(record.values).length && !Object.keys(record.unstored).length) return { row: stored };
      throwIfFieldErrors(await databaseChecks(trx, prepared, session, record, { ownKey: key, stored }));
      await saveRecord(ctx, trx, prepared, record, 'update', { key, version: request.version, old: stored });
      return { row: await rowByKey(trx, prepared, session, key) };
    });
  });
}

/** `POST /api/generic/deletion`: all rows or none; each at the version the caller read. */
export async function deleteRows(ctx: GenericContext, request: DeletionRequest): Promise<DeletionResponse> {
  const { prepared } = await openPage(ctx, request, 'delete');
  refuseReadOnly(prepared.page);
  const session = engineSession(ctx);
  const writer = writerOf(ctx, prepared);
  return engine(() =>
    inTransaction(ctx.db, async (trx) => {
      for (const row of request.rows) {
        if (writer?.beforeDelete) {
          const [old] = await findRowsByKeys(trx, prepared, session, [row.key]);
          if (!old) throw new AppError('NO_RECORD');
          await writer.beforeDelete({ trx, events: ctx.events, page: prepared.page, session, user: ctx.user, operation: 'delete', old });
        }
        try {
          await deleteRow(trx, prepared, session, row.key, row.version);
        } catch (error) {
          // A row other records still point to cannot go (not allowed to delete).
          if ((error as { code?: unknown }).code === '23503') throw new AppError('DELETE_CANCEL_NOT_ALLOWED');
          throw databaseWriteError(error);
        }
      }
      return { deleted: request.rows.length };
    }),
  );
}

export interface ImportUpload {
  moduleCode: string;
  functionCode: string;
  fieldMap: string;
  fileName: string;
  data: Buffer;
}

/**
 * `POST /api/generic/import`: the file's rows through the page's field map, all added in one
 * transaction or none; a refusal lists every problem of every row (`row <n>: <field>`).
 */
export async function importRows(ctx: GenericContext, upload: ImportUpload): Promise<ImportResponse> {
  const { prepared } = await openPage(ctx, upload, 'add');
  refuseReadOnly(prepared.page);
  const map = (prepared.page.fieldMaps ?? []).find((m) => m.code === upload.fieldMap);
  if (!map) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'fieldMap', code: 'FIELD_UNKNOWN', params: { name: upload.fieldMap.slice(0, 64) } }]);
  return engine(async () => {
    const cells = await readSheetRows(upload.fileName, upload.data, map.delimiter ?? ',');
    // The export writes each column under the field's label in the user's language.
    const labels: Record<string, string[]> = {};
    for (const column of map.columns) {
      const field = prepared.page.fields.find((f) => f.name === column.field);
      if (field) labels[column.field] = [labelText(prepared.page, field.labelCode, ctx.language), labelText(prepared.page, field.labelCode, 'en')];
    }
    const mapped = mapImportRows(map, cells, labels);
    if (mapped.errors.length) throw new AppError('IMPORT_REJECTED', {}, mapped.errors);
    return saveImportedRecords(ctx, prepared, mapped.records);
  });
}

/**
 * Adds records read from a file (by a field map or an import template) to the page, all in one
 * transaction or none: every row goes through the page's field rules, database checks and writer,
 * and a refusal lists every problem of every row (`row <n>: <field>`). The caller has opened the
 * page with its add right.
 */
export async function importRecordsToPage(ctx: GenericContext, ref: PageRef, records: ImportRecord[]): Promise<ImportResponse> {
  const { prepared } = await openPage(ctx, ref, 'add');
  refuseReadOnly(prepared.page);
  return engine(() => saveImportedRecords(ctx, prepared, records));
}

async function saveImportedRecords(ctx: GenericContext, prepared: PreparedPage, records: ImportRecord[]): Promise<ImportResponse> {
  const session = engineSession(ctx);
  // A file exported from the screen holds the labels of choices; one typed by hand may hold the codes.
  const present = new Set(records.flatMap((r) => Object.keys(r.record)));
  for (const name of present) {
    const field = prepared.fieldsByName.get(name);
    if (!field?.options) continue;
    const texts = records.map((r) => r.record[field.name]).filter((v): v is string => typeof v === 'string');
    const choices = await optionLabels(ctx.db, prepared, session, ctx.language, field, { labels: texts });
    if (choices) for (const r of records) r.record[field.name] = choices.valueOf(r.record[field.name]);
  }
  if (!records.length) throw new AppError('IMPORT_FILE_INVALID', { reason: 'no rows' });
  if (records.length > IMPORT_MAX_ROWS) throw new AppError('IMPORT_FILE_INVALID', { reason: `more than ${IMPORT_MAX_ROWS} rows` });

  const candidates = records.map((r) => ({ row: r.row, record: prepareRecord(prepared, 'add', r.record) }));
  return inTransaction(ctx.db, async (trx) => {
    const problems: EngineFieldError[] = [];
    const rowProblem = (row: number, error: EngineFieldError): EngineFieldError => ({
      field: `row ${row}: ${error.field}`,
      code: error.code,
      params: { ...error.params, row, name: error.field },
    });
    let inserted = 0;
    // Foreign values found in scope once need no second look in the rows that follow.
    const found = new Set<string>();
    for (const { row, record } of candidates) {
      const errors = await databaseChecks(trx, prepared, session, record, { found });
      if (errors.length) {
        problems.push(...errors.map((e) => rowProblem(row, e)));
        continue;
      }
      // A savepoint per row: a constraint the checks missed, or the writer's refusal, fails its row, not the whole report.
      try {
        await withSavepoint(trx, 'import_row', () => saveRecord(ctx, trx, prepared, record, 'import'));
        inserted += 1;
      } catch (error) {
        if (error instanceof AppError) {
          const details = error.details?.length ? error.details : [{ field: '(record)', code: error.code }];
          problems.push(...details.map((e) => rowProblem(row, { field: e.field, code: e.code, ...(e.params ? { params: e.params } : {}) })));
          continue;
        }
        if (!(error instanceof EngineError)) throw error;
        const details = error.details ?? [{ field: '(record)', code: error.code }];
        problems.push(...details.map((e) => rowProblem(row, e)));
      }
    }
    if (problems.length) throw new AppError('IMPORT_REJECTED', { rows: candidates.length }, problems);
    return { inserted };
  });
}