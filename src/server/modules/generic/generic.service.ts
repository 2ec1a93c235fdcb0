import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type {
  AddingRequest,
  BehaviourRequest,
  BehaviourResponse,
  DeletionRequest,
  DeletionResponse,
  DropdownRequest,
  ExportRequest,
  GenericRow,
  ImportResponse,
  PageRef,
  PageViewResponse,
  SelectionRequest,
  SelectionResponse,
  TabRequest,
  TabResponse,
  UpdatingRequest,
} from '../../../../engine/schema/api.js';
import { rowsEnableBehaviour } from '../../../../engine/core/index.js';
import { keyFieldOf, type FieldDefinition, type PageDefinition, type RightActionName } from '../../../../engine/schema/index.js';
import {
  EngineError,
  bindNamedSql,
  checkBehaviourInputs,
  checkRecordInDatabase,
  compileRowQuery,
  configuratorSqlFailure,
  databaseWriteError,
  deleteRow,
  dropdownOptions,
  findRowsByKeys,
  enterConfiguratorRole,
  inPageReadTransaction,
  requireAllowedSql,
  insertRow,
  iterateRows,
  mapImportRows,
  parseRowKey,
  prepareRecord,
  readSheetRows,
  runValidationSql,
  selectPage,
  sessionSqlParams,
  throwIfFieldErrors,
  updateRow,
  type DropdownAnswer,
  type EngineFieldError,
  type EngineRow,
  type EngineSession,
  type PreparedPage,
} from '../../../../engine/server/index.js';
import { AppError, isErrorCode } from '../../../common/errors.js';
import type { Language } from '../../../common/languages.js';
import type { DB } from '../../db/schema.js';
import type { RightName, SessionUser } from '../../http/access.js';
import { actionRights, hasRight } from '../../http/access-plugin.js';
import { translate } from '../../http/i18n.js';
import { behaviourRegistry } from './behaviours.js';
import { dropdownPorts, findUomOptions } from './code-master.repository.js';
import { optionLabels, type OptionLabels } from './option-labels.js';
import type { DefinitionStore, ResolvedPage } from '../../definitions/definition-store.js';
import { inTransaction } from '../../db/transaction.js';

/** Everything a generic call needs: database, definitions, the caller. */
export interface GenericContext {
  db: Kysely<DB>;
  store: DefinitionStore;
  user: SessionUser;
  language: Language;
  log: FastifyBaseLogger;
}

/** Largest import (rows) and export (rows) of one call. */
export const IMPORT_MAX_ROWS = 10_000;
export const EXPORT_MAX_ROWS = 100_000;
const EXPORT_TIMEOUT_MS = 60_000;

function engineSession(ctx: GenericContext): EngineSession {
  const { user } = ctx;
  return {
    userId: user.userId,
    loginAccount: user.loginAccount,
    isAdmin: user.isAdmin,
    language: ctx.language,
    organizationId: user.organizationId,
    projectId: user.projectId,
    projectCode: user.projectCode,
    warehouseId: user.warehouseId,
    warehouseCode: user.warehouseCode,
  };
}

/** The engine's refusals become our AppErrors, answered by the one error handler. */
function toAppError(error: unknown): unknown {
  if (error instanceof EngineError) {
    return new AppError(isErrorCode(error.code) ? error.code : 'INTERNAL', error.params, error.details);
  }
  return error;
}

async function engine<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toAppError(error);
  }
}

/**
 * Role rights on a page (issue 5; spec section 6: per-module and per-sub-module rights), checked
 * before anything of the page runs: `<moduleCode>.<functionCode>:<action>`, which the access rules
 * answer from the page's own sub-module rows when a role has them, else from `<moduleCode>:<action>`.
 */
function pageRight(ref: PageRef, action: RightActionName): RightName {
  return `${ref.moduleCode}.${ref.functionCode}:${action}`;
}

async function requirePageRight(ctx: GenericContext, ref: PageRef, action: RightActionName): Promise<void> {
  if (!(await hasRight(ctx.db, ctx.user, pageRight(ref, action)))) {
    throw new AppError('FORBIDDEN', { right: pageRight(ref, action) });
  }
}

async function openPage(ctx: GenericContext, ref: PageRef, action: RightActionName): Promise<ResolvedPage> {
  await requirePageRight(ctx, ref, action);
  return ctx.store.resolve(ctx.user.projectId, ref.moduleCode, ref.functionCode);
}

function refuseReadOnly(page: PageDefinition): void {
  if (page.readOnly === true) throw new AppError('PAGE_READ_ONLY');
}

/** `GET /api/generic/module/view`: the resolved definition and what the caller may do with it. */
export async function viewPage(ctx: GenericContext, ref: PageRef): Promise<PageViewResponse> {
  const rights = await actionRights(ctx.db, ctx.user, `${ref.moduleCode}.${ref.functionCode}`);
  if (!rights.view) throw new AppError('FORBIDDEN', { right: pageRight(ref, 'view') });
  const resolved = await ctx.store.resolve(ctx.user.projectId, ref.moduleCode, ref.functionCode);
  // Configurator SQL runs only on the server; operators never need to read it (DESIGN.md section 8).
  const { sqls: _serverOnly, ...definition } = resolved.prepared.page;
  return {
    definition,
    version: resolved.version,
    projectSpecific: resolved.projectSpecific,
    rights,
  };
}

/** `POST /api/generic/selection`: one page of rows (read-only transaction with a timeout). */
export async function selectRows(ctx: GenericContext, request: SelectionRequest): Promise<SelectionResponse> {
  const { prepared } = await openPage(ctx, request, 'view');
  return engine(() =>
    readOnly(ctx, prepared, (trx) =>
      selectPage(trx, prepared, engineSession(ctx), {
        conditions: request.conditions,
        sort: request.sort,
        inputs: request.inputs,
        page: request.page,
        pageSize: request.pageSize,
      }),
    ),
  );
}

async function readOnly<T>(
  ctx: GenericContext,
  prepared: PreparedPage,
  work: (trx: Kysely<DB>) => Promise<T>,
  options: { statementTimeoutMs?: number } = {},
): Promise<T> {
  try {
    return await inPageReadTransaction(ctx.db, prepared, engineSession(ctx), (trx) => work(trx as unknown as Kysely<DB>), options);
  } catch (error) {
    if (error instanceof EngineError || error instanceof AppError) throw error;
    // A list SQL that fails or times out is the configuration's fault, not the caller's.
    if (typeof (error as { code?: unknown }).code === 'string') throw configuratorSqlFailure(error);
    throw error;
  }
}

async function rowByKey(db: Kysely<DB>, prepared: PreparedPage, session: EngineSession, key: string | number): Promise<EngineRow> {
  const [row] = await findRowsByKeys(db, prepared, session, [key]);
  if (!row) throw new AppError('NO_RECORD');
  return row;
}

/** `POST /api/generic/adding`: every field rule on the server, all errors at once, one transaction. */
export async function addRow(ctx: GenericContext, request: AddingRequest): Promise<{ row: GenericRow }> {
  const { prepared } = await openPage(ctx, request, 'add');
  refuseReadOnly(prepared.page);
  const session = engineSession(ctx);
  return engine(async () => {
    const record = prepareRecord(prepared, 'add', request.record);
    const sqlErrors = await runValidationSql(ctx.db, prepared, session, record);
    const key = await inTransaction(ctx.db, async (trx) => {
      const dbErrors = await checkRecordInDatabase(trx, prepared, session, record);
      throwIfFieldErrors([...record.errors, ...sqlErrors, ...dbErrors]);
      try {
        return await insertRow(trx, prepared, session, record.values);
      } catch (error) {
        throw databaseWriteError(error);
      }
    });
    return { row: await rowByKey(ctx.db, prepared, session, key) };
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
    const stored = await rowByKey(ctx.db, prepared, session, key);
    if (stored._version !== null && stored._version !== request.version) throw new AppError('STALE_UPDATE');
    const record = prepareRecord(prepared, 'update', request.record, stored);
    // Nothing changeable was sent: nothing is written and the version stays (spec section 5: unchanged data needs no save).
    if (!record.errors.length && !Object.keys(record.values).length) return { row: stored };
    const sqlErrors = await runValidationSql(ctx.db, prepared, session, record);
    await inTransaction(ctx.db, async (trx) => {
      const dbErrors = await checkRecordInDatabase(trx, prepared, session, record, key);
      throwIfFieldErrors([...record.errors, ...sqlErrors, ...dbErrors]);
      try {
        await updateRow(trx, prepared, session, key, request.version, record.values);
      } catch (error) {
        throw databaseWriteError(error);
      }
    });
    return { row: await rowByKey(ctx.db, prepared, session, key) };
  });
}

/** `POST /api/generic/deletion`: all rows or none; each at the version the caller read. */
export async function deleteRows(ctx: GenericContext, request: DeletionRequest): Promise<DeletionResponse> {
  const { prepared } = await openPage(ctx, request, 'delete');
  refuseReadOnly(prepared.page);
  const session = engineSession(ctx);
  return engine(() =>
    inTransaction(ctx.db, async (trx) => {
      for (const row of request.rows) {
        try {
          await deleteRow(trx, prepared, session, row.key, row.version);
        } catch (error) {
          // A row other records still point to cannot go (spec section 8: not allowed to delete).
          if ((error as { code?: unknown }).code === '23503') throw new AppError('DELETE_CANCEL_NOT_ALLOWED');
          throw databaseWriteError(error);
        }
      }
      return { deleted: request.rows.length };
    }),
  );
}

/** Text of a label code: the page's own multilingual texts first, then the locale files. */
export function labelText(page: PageDefinition, code: string, language: Language): string {
  const own = page.texts?.[code];
  if (own) return own[language] ?? own.en;
  return translate(language, code);
}

export interface ExportPlan {
  title: string;
  columns: { field: FieldDefinition; header: string }[];
  /**
   * Streams every matching row, batch by batch, inside one read-only transaction, with what the
   * screen shows for the values of fields with choices (issue 11, item 7).
   */
  run(write: (rows: EngineRow[], labelOf: (field: FieldDefinition, value: unknown) => string | undefined) => Promise<void>): Promise<void>;
}

/**
 * `POST /api/generic/export`: checks rights, filters and columns before anything is sent (so a
 * refusal is still a JSON error), then hands back a plan the route streams into an xlsx file.
 */
export async function planExport(ctx: GenericContext, request: ExportRequest): Promise<ExportPlan> {
  const { prepared } = await openPage(ctx, request, 'view');
  const { page } = prepared;
  const session = engineSession(ctx);
  const query = { conditions: request.conditions, sort: request.sort, inputs: request.inputs };
  await engine(async () => compileRowQuery(prepared, session, query));
  let fields = page.fields.filter((f) => f.displayable !== false);
  if (request.fields) {
    const unknown = request.fields.filter((name) => !prepared.fieldsByName.has(name));
    if (unknown.length) {
      throw new AppError('VALIDATION_FAILED', {}, unknown.map((name) => ({ field: name.slice(0, 64), code: 'FIELD_UNKNOWN' })));
    }
    fields = request.fields.map((name) => prepared.fieldsByName.get(name)!);
  }
  const columns = fields.map((field) => ({ field, header: labelText(page, field.labelCode, ctx.language) }));
  return {
    title: labelText(page, page.titleCode, ctx.language),
    columns,
    run: (write) =>
      engine(() =>
        readOnly(
          ctx,
          prepared,
          async (trx) => {
            for await (const batch of iterateRows(trx, prepared, session, query, { maxRows: EXPORT_MAX_ROWS })) {
              const labels = new Map<string, OptionLabels | undefined>();
              for (const { field } of columns) {
                // Inside the export's own transaction: the embedded database has one session, and a
                // second connection would wait for this one for ever.
                if (field.options) labels.set(field.name, await optionLabels(trx, prepared, session, ctx.language, field, { values: batch.map((row) => row[field.name]) }));
              }
              await write(batch, (field, value) => labels.get(field.name)?.labelOf(value));
            }
          },
          { statementTimeoutMs: EXPORT_TIMEOUT_MS },
        ),
      ),
  };
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
  const session = engineSession(ctx);
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
    // A file exported from the screen holds the labels of choices; one typed by hand may hold the codes.
    for (const column of map.columns) {
      const field = prepared.fieldsByName.get(column.field);
      if (!field?.options) continue;
      const texts = mapped.records.map((r) => r.record[field.name]).filter((v): v is string => typeof v === 'string');
      const choices = await optionLabels(ctx.db, prepared, session, ctx.language, field, { labels: texts });
      if (choices) for (const r of mapped.records) r.record[field.name] = choices.valueOf(r.record[field.name]);
    }
    if (!mapped.records.length) throw new AppError('IMPORT_FILE_INVALID', { reason: 'no rows' });
    if (mapped.records.length > IMPORT_MAX_ROWS) throw new AppError('IMPORT_FILE_INVALID', { reason: `more than ${IMPORT_MAX_ROWS} rows` });

    const candidates = mapped.records.map((r) => ({ row: r.row, record: prepareRecord(prepared, 'add', r.record) }));
    const sqlErrors = new Map<number, EngineFieldError[]>();
    for (const { row, record } of candidates) sqlErrors.set(row, await runValidationSql(ctx.db, prepared, session, record));

    return inTransaction(ctx.db, async (trx) => {
      const problems: EngineFieldError[] = [];
      const rowProblem = (row: number, error: EngineFieldError): EngineFieldError => ({
        field: `row ${row}: ${error.field}`,
        code: error.code,
        params: { ...error.params, row, name: error.field },
      });
      let inserted = 0;
      for (const { row, record } of candidates) {
        const dbErrors = await checkRecordInDatabase(trx, prepared, session, record);
        const errors = [...record.errors, ...(sqlErrors.get(row) ?? []), ...dbErrors];
        if (errors.length) {
          problems.push(...errors.map((e) => rowProblem(row, e)));
          continue;
        }
        // A savepoint per row: a constraint the checks missed fails its row, not the whole report.
        await sql`savepoint import_row`.execute(trx);
        try {
          await insertRow(trx, prepared, session, record.values);
          await sql`release savepoint import_row`.execute(trx);
          inserted += 1;
        } catch (error) {
          await sql`rollback to savepoint import_row`.execute(trx);
          const mapped = databaseWriteError(error);
          if (!(mapped instanceof EngineError)) throw error;
          const details = mapped.details ?? [{ field: '(record)', code: mapped.code }];
          problems.push(...details.map((e) => rowProblem(row, e)));
        }
      }
      if (problems.length) throw new AppError('IMPORT_REJECTED', { rows: candidates.length }, problems);
      return { inserted };
    });
  });
}

/** `POST /api/generic/dropdown`: the choices of one field. */
export async function dropdown(ctx: GenericContext, request: DropdownRequest): Promise<DropdownAnswer> {
  const { prepared } = await openPage(ctx, request, 'view');
  return engine(() =>
    dropdownOptions(ctx.db, prepared, engineSession(ctx), request.field, request.record ?? {}, request.search, dropdownPorts(ctx.db, ctx.language)),
  );
}

/** `POST /api/generic/uom`: units of measure of a SKU of the session's project, else all. */
export async function uomOptions(ctx: GenericContext, skuCode: string | undefined): Promise<DropdownAnswer> {
  if (ctx.user.projectId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'project' });
  return { options: await findUomOptions(ctx.db, ctx.user.projectId, skuCode, ctx.language), truncated: false };
}

/**
 * `POST /api/generic/behavior`: dispatches a behaviour of the page to its registered action or
 * named SQL, after its right, its selection rule and its enabled-by status were checked, inside
 * one transaction.
 */
export async function runBehaviour(ctx: GenericContext, request: BehaviourRequest): Promise<BehaviourResponse> {
  await requirePageRight(ctx, request, 'view');
  const { prepared } = await ctx.store.resolve(ctx.user.projectId, request.moduleCode, request.functionCode);
  const { page } = prepared;
  const behaviour = (page.behaviours ?? []).find((b) => b.code === request.behaviour);
  if (!behaviour) throw new AppError('BEHAVIOUR_UNKNOWN', { behaviour: request.behaviour });
  await requirePageRight(ctx, request, behaviour.right);
  const count = new Set(request.keys.map(String)).size;
  if ((behaviour.selection === 'one' && count !== 1) || (behaviour.selection === 'many' && count < 1) || (behaviour.selection === 'none' && count > 0)) {
    throw new AppError('BEHAVIOUR_SELECTION', { selection: behaviour.selection });
  }
  const session = engineSession(ctx);
  const named = behaviour.action.startsWith('sql:') ? (page.sqls ?? []).find((s) => s.name === behaviour.action.slice(4)) : undefined;
  const handler = named ? undefined : behaviourRegistry.get(behaviour.action);
  if (!named && !handler) {
    ctx.log.error({ action: behaviour.action }, 'behaviour names an action nobody registered');
    throw new AppError('SYSTEM_CONFIG');
  }
  // Declared inputs are checked with the field rules, every problem at once, before anything runs.
  let inputs = request.inputs ?? {};
  if (behaviour.inputs) {
    const checked = checkBehaviourInputs(behaviour.inputs, inputs);
    if (checked.errors.length > 0) throw new AppError('VALIDATION_FAILED', {}, checked.errors);
    inputs = checked.values;
  }
  if (named) await engine(() => requireAllowedSql(named.name, named.text, named.mode === 'write' ? 'write' : 'read'));
  return engine(() =>
    inTransaction(ctx.db, async (trx) => {
      if (named && named.mode !== 'write') await sql`set transaction read only`.execute(trx);
      const rows = await findRowsByKeys(trx, prepared, session, request.keys);
      if (rows.length !== count) throw new AppError('NO_RECORD');
      if (!rowsEnableBehaviour(behaviour.enabledBy, rows)) throw new AppError('BEHAVIOUR_NOT_ENABLED');
      if (named) {
        // The selected rows were read as the engine; the configurator's statement runs as its role.
        await enterConfiguratorRole(trx, session, named.mode === 'write' ? 'write' : 'read');
        const params = {
          ...Object.fromEntries(Object.entries(inputs).filter(([name]) => !(name in sessionSqlParams(session)))),
          ...sessionSqlParams(session),
          keys: rows.map((row) => row._key),
        };
        try {
          const result = await bindNamedSql(named.text, params).execute(trx);
          const affected = Number(result.numAffectedRows ?? result.rows.length);
          return { result: { affected }, messageCode: 'ui.engineServer.behaviourDone', messageParams: { count: affected } };
        } catch (error) {
          throw configuratorSqlFailure(error);
        }
      }
      const outcome = await handler!({ trx, page, session, rows, inputs, user: ctx.user });
      return { result: outcome?.result ?? null, ...(outcome?.messageCode ? { messageCode: outcome.messageCode } : {}), ...(outcome?.messageParams ? { messageParams: outcome.messageParams } : {}) };
    }),
  );
}

/** `POST /api/generic/tab`: the rows of a sub-page that belong to one header row. */
export async function tabRows(ctx: GenericContext, request: TabRequest): Promise<TabResponse> {
  const parent = await openPage(ctx, request, 'view');
  const subPage = (parent.prepared.page.subPages ?? []).find((s) => s.code === request.subPage);
  if (!subPage) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'subPage', code: 'FIELD_UNKNOWN', params: { name: request.subPage } }]);
  const child = await openPage(ctx, subPage, 'view');
  const session = engineSession(ctx);
  return engine(async () => {
    const key = parseRowKey(parent.prepared, request.parentKey);
    if (key === undefined) throw new AppError('NO_RECORD');
    const header = await rowByKey(ctx.db, parent.prepared, session, key);
    const links = subPage.links.map((link) => ({
      field: link.childField,
      value: link.parentField === keyFieldOf(parent.prepared.page) ? header._key : header[link.parentField],
    }));
    const result = await readOnly(ctx, child.prepared, (trx) =>
      selectPage(trx, child.prepared, session, {
        conditions: request.conditions,
        sort: request.sort,
        links,
        page: request.page,
        pageSize: request.pageSize,
      }),
    );
    return { ...(result), moduleCode: subPage.moduleCode, functionCode: subPage.functionCode };
  });
}
