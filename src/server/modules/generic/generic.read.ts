import type {
  DropdownRequest,
  ExportRequest,
  PageRef,
  PageViewResponse,
  SelectionRequest,
  SelectionResponse,
  TabRequest,
  TabResponse,
} from '../../../../engine/schema/api.js';
import { keyFieldOf, type FieldDefinition } from '../../../../engine/schema/index.js';
import {
  compileRowQuery,
  dropdownFill,
  dropdownOptions,
  findListedRow,
  iterateRows,
  parseRowKey,
  selectPage,
  type DropdownAnswer,
  type EngineRow,
} from '../../../../engine/server/index.js';
import { AppError } from '../../../common/errors.js';
import { actionRights, hasRight } from '../identity/index.js';
import { dropdownPorts, findUomOptions } from './code-master.repository.js';
import { engine, engineSession, labelText, openPage, pageRight, readOnly, type GenericContext } from './generic.context.js';
import { optionLabels, type OptionLabels } from './option-labels.js';

/** Largest export (rows) of one call. */
export const EXPORT_MAX_ROWS = 100_000;
const EXPORT_TIMEOUT_MS = 60_000;

/** `GET /api/generic/module/view`: the resolved definition and what the caller may do with it. */
export async function viewPage(ctx: GenericContext, ref: PageRef): Promise<PageViewResponse> {
  const rights = await actionRights(ctx.db, ctx.user, `${ref.moduleCode}.${ref.functionCode}`);
  if (!rights.view) throw new AppError('FORBIDDEN', { right: pageRight(ref, 'view') });
  const resolved = await ctx.store.resolve(ctx.user.projectId, ref.moduleCode, ref.functionCode);
  // Configurator SQL runs only on the server; operators never need to read it.
  const { sqls: _serverOnly, ...definition } = resolved.prepared.page;
  const deniedBehaviours = await behavioursWithoutVerb(ctx, definition.behaviours ?? []);
  return {
    definition,
    version: resolved.version,
    projectSpecific: resolved.projectSpecific,
    rights,
    ...(deniedBehaviours.length > 0 ? { deniedBehaviours } : {}),
  };
}

/**
 * The codes of the behaviours whose action needs a verb of its own (`outbound.wave:release`) that
 * the caller does not hold: a run would be refused whatever the page rights, so no button shows.
 */
async function behavioursWithoutVerb(ctx: GenericContext, behaviours: readonly { code: string; action: string }[]): Promise<string[]> {
  const denied: string[] = [];
  for (const behaviour of behaviours) {
    const right = ctx.areas.behaviour(behaviour.action)?.right;
    if (right && !(await hasRight(ctx.db, ctx.user, right))) denied.push(behaviour.code);
  }
  return denied;
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

export interface ExportPlan {
  title: string;
  columns: { field: FieldDefinition; header: string }[];
  /**
   * Streams every matching row, batch by batch, inside one read-only transaction, with what the
   * screen shows for the values of fields with choices.
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

/** `POST /api/generic/dropdown`: the choices of one field, or with `fillFrom` what the chosen one fills. */
export async function dropdown(ctx: GenericContext, request: DropdownRequest): Promise<DropdownAnswer> {
  const { prepared } = await openPage(ctx, request, 'view');
  const ports = dropdownPorts(ctx.db, ctx.language);
  if (request.fillFrom !== undefined) {
    const chosen = request.fillFrom;
    return engine(() => dropdownFill(ctx.db, prepared, engineSession(ctx), request.field, chosen, request.record ?? {}, ports));
  }
  return engine(() => dropdownOptions(ctx.db, prepared, engineSession(ctx), request.field, request.record ?? {}, request.search, ports));
}

/** `POST /api/generic/uom`: units of measure of a SKU of the session's project (by code or key), else all. */
export async function uomOptions(ctx: GenericContext, sku: { skuCode?: string; skuId?: number }): Promise<DropdownAnswer> {
  if (ctx.user.projectId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'project' });
  return { options: await findUomOptions(ctx.db, ctx.user.projectId, { code: sku.skuCode, id: sku.skuId }, ctx.language), truncated: false };
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
    // The header must be a row the parent page itself lists to this caller (its scope, row filter
    // and list SQL), whatever the sub-page: a key of another project's or warehouse's row, or of a
    // row the page does not list, is answered as missing.
    const header = await readOnly(ctx, parent.prepared, (trx) => findListedRow(trx, parent.prepared, session, key));
    if (!header) throw new AppError('NO_RECORD');
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
