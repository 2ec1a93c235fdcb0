import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { loadExcel } from '../../files/excel.js';
import { spreadsheetCell } from '../../files/spreadsheet-cell.js';
import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import type { RightName } from '../../../common/rights.js';
import { withIdempotency } from '../../area-kit/idempotency.js';
import { inTransaction } from '../../db/transaction.js';
import { requireUser } from '../../http/access-plugin.js';
import { translate } from '../../http/i18n.js';
import { Quantity } from '../../http/quantity-schema.js';
import { approveTicket, closeTickets, countLinesEmpty, createCountOrder, enterCount, recountTicket } from './count.service.js';
import { reasonCodeList } from './document.repository.js';
import {
  DOC_PAGES,
  cancelDocument,
  cancelRequest,
  cancelTransit,
  confirmDocument,
  confirmVerb,
  requestApproval,
  transitDocument,
} from './document.service.js';
import { barcodeRoutes } from './barcode.routes.js';
import { handheldRoutes } from './handheld.routes.js';
import { LOG_COLUMNS, NUMERIC } from './report.service.js';
import { Day, errors, LogQuery, ShortText, tags } from './inventory.schemas.js';
import type { DocType } from './inventory.tables.js';
import { lookupLocations, lookupSkus } from './lookup.repository.js';
import { homeStockActivity, openInventoryWork, standardBalanceList, transactionLog, transactionLogExport, transactionLogFilter, TRANS_TYPES } from './query.service.js';

const IdBody = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) }, { additionalProperties: false });
const Done = Type.Object({ ok: Type.Literal(true), ledgerRows: Type.Optional(Type.Integer()) });

/** The header paths (`/inventory/invAdjHeader/confirm`...) by document type. */
const HEADER_PATHS: Record<DocType, string> = { adjust: 'invAdjHeader', move: 'invMoveHeader', transfer: 'invTransferHeader', hold: 'invHoldHeader' };

const editRight = (type: DocType) => `inventory.${DOC_PAGES[type]}:edit` as RightName;
const viewRight = (type: DocType) => `inventory.${DOC_PAGES[type]}:view` as RightName;

/**
 * The inventory calls: the header actions of adjustment, move, transfer and
 * hold documents, the look-ups the operation screens use, the transaction log and its streamed
 * export, the standard balance as of a date, the cycle-count ticket calls and the count master's
 * count order. Each is one transaction in the session's warehouse; the same rules run behind the
 * pages' buttons (inventory.behaviours.ts).
 */
export const inventoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  await app.register(handheldRoutes);
  await app.register(barcodeRoutes);

  for (const type of Object.keys(HEADER_PATHS) as DocType[]) {
    const base = `/inventory/${HEADER_PATHS[type]}`;
    const actions: { path: string; right: RightName; summary: string; run: (user: ReturnType<typeof requireUser>, id: number) => Promise<unknown> }[] = [
      {
        path: 'confirm',
        right: confirmVerb(type),
        summary: 'Confirm the document (approves a requested one): its stock changes are written',
        run: (user, id) => inTransaction(db, (trx) => confirmDocument(trx, { user }, type, id)),
      },
      { path: 'cancel', right: editRight(type), summary: 'Cancel the document (cannot be undone)', run: (user, id) => inTransaction(db, (trx) => cancelDocument(trx, { user }, type, id)) },
      { path: 'requestApproval', right: editRight(type), summary: 'Request approval', run: (user, id) => inTransaction(db, (trx) => requestApproval(trx, { user, events: app.events }, type, id)) },
      { path: 'cancelRequest', right: editRight(type), summary: 'Withdraw the approval request', run: (user, id) => inTransaction(db, (trx) => cancelRequest(trx, { user }, type, id)) },
    ];
    if (type === 'transfer') {
      actions.push(
        { path: 'transit', right: confirmVerb(type), summary: 'Send the transfer in transit (stock held at the transit location)', run: (user, id) => inTransaction(db, (trx) => transitDocument(trx, { user }, id)) },
        { path: 'cancelTransit', right: confirmVerb(type), summary: 'Bring the stock in transit back', run: (user, id) => inTransaction(db, (trx) => cancelTransit(trx, { user }, id)) },
      );
    }
    for (const action of actions) {
      app.post(
        `${base}/${action.path}`,
        { config: { access: { right: action.right, scope: 'warehouse' } }, schema: { tags, summary: action.summary, body: IdBody, response: { 200: Done, ...errors } } },
        async (request) => {
          const outcome = (await action.run(requireUser(request), request.body.id)) as { ledgerRows?: number } | undefined;
          return { ok: true as const, ...(outcome?.ledgerRows !== undefined ? { ledgerRows: outcome.ledgerRows } : {}) };
        },
      );
    }
  }

  app.get(
    '/inventory/location',
    {
      config: { access: { right: viewRight('move'), scope: 'warehouse' } },
      schema: { tags, summary: "Locations of the session's warehouse whose code starts with the text", querystring: Type.Object({ code: Type.String({ maxLength: 40 }) }), response: { 200: Type.Any(), ...errors } },
    },
    async (request) => ({ items: await lookupLocations(db, requireUser(request).warehouseId!, request.query.code) }),
  );

  app.get(
    '/inventory/sku',
    {
      config: { access: { right: viewRight('move'), scope: 'project' } },
      schema: { tags, summary: "SKUs of the session's project whose code starts with the text", querystring: Type.Object({ code: Type.String({ maxLength: 60 }) }), response: { 200: Type.Any(), ...errors } },
    },
    async (request) => ({ items: await lookupSkus(db, requireUser(request).projectId!, request.query.code) }),
  );

  // The reason dropdown of every document page: the caller needs the view right of the type's page
  // (an adjustment's for adjust, the count's for count), checked once the type is read.
  app.get(
    '/inventory/reasonCode',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary: "Reason codes of a document type (/invCode); needs the view right of that type's page",
        querystring: Type.Object({ type: Type.Union([Type.Literal('adjust'), Type.Literal('move'), Type.Literal('transfer'), Type.Literal('hold'), Type.Literal('count')]) }),
        response: { 200: Type.Any(), ...errors },
      },
    },
    async (request) => {
      const type = request.query.type;
      const right: RightName = type === 'count' ? 'inventory.cycleCount:view' : viewRight(type);
      if (!(await app.areas.rightChecker?.hasRight(db, requireUser(request), right))) throw new AppError('FORBIDDEN', { right });
      return { items: await reasonCodeList(db, type) };
    },
  );

  const LogBody = Type.Object(
    {
      ...LogQuery,
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
      pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    },
    { additionalProperties: false },
  );

  app.post(
    '/inventory/transactionLog',
    {
      config: { access: { right: 'transaction:view', scope: 'warehouse' } },
      schema: { tags, summary: 'The transaction log of a type and a period (within the configured days)', body: LogBody, response: { 200: Type.Any(), ...errors } },
    },
    async (request) => transactionLog(db, requireUser(request), request.body),
  );

  app.post(
    '/inventory/exportInvTranLog',
    {
      config: { access: { right: 'transaction:view', scope: 'warehouse' } },
      schema: { tags, summary: 'The transaction log of a type and a period as an xlsx file, streamed', body: LogBody, response: { 200: Type.Unknown(), ...errors } },
    },
    async (request, reply) => {
      const filter = await transactionLogFilter(db, requireUser(request), request.body);
      const stream = new PassThrough();
      const workbook = new (await loadExcel()).stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
      const sheet = workbook.addWorksheet('transactions');
      const columns = LOG_COLUMNS.map(([key]) => key);
      sheet.columns = LOG_COLUMNS.map(([key, label]) => ({ header: translate(request.language, `inv.field.${label}`), key, width: 16 }));
      // The header row goes out first; rows follow batch by batch as they are read.
      const finished = (async () => {
        try {
          for await (const batch of transactionLogExport(db, filter)) {
            for (const row of batch) {
              sheet.addRow(columns.map((c) => spreadsheetCell(c === 'trans_time' ? row.trans_time.toISOString() : NUMERIC.has(c) ? Number(row[c]) : row[c], 'xlsx'))).commit();
            }
            await new Promise((resolve) => setImmediate(resolve));
          }
        } catch (error) {
          request.log.error({ err: error }, 'transaction log export failed while streaming');
          sheet.addRow([translate(request.language, 'errors.EXPORT_INCOMPLETE')]).commit();
        }
        sheet.commit();
        await workbook.commit();
      })();
      finished.catch((error: unknown) => request.log.error({ err: error }, 'transaction log export could not be finished'));
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="transaction-log.xlsx"')
        .send(stream);
    },
  );

  app.post(
    '/inventory/getSTDBalanceList',
    {
      config: { access: { right: 'stdBalanceReport:view', scope: 'warehouse' } },
      schema: {
        tags,
        summary: 'The standard balance at the end of a past day, computed from the ledger',
        body: Type.Object(
          {
            asOf: Day,
            skuCode: ShortText(60),
            ownerCode: ShortText(40),
            locationCode: ShortText(40),
            page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
            pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Any(), ...errors },
      },
    },
    async (request) => standardBalanceList(db, requireUser(request), request.body),
  );

  app.get(
    '/inventory/msg',
    {
      config: { access: { right: 'inventory.balance:view', scope: 'warehouse' } },
      schema: { tags, summary: "Open inventory work of the session's warehouse", response: { 200: Type.Any(), ...errors } },
    },
    async (request) => openInventoryWork(db, requireUser(request)),
  );

  app.get(
    '/inventory/activity',
    {
      config: { access: { right: 'inventory.balance:view', scope: 'warehouse' } },
      schema: {
        tags,
        summary: "The home page's charts: quantities received and shipped per day of the last two weeks and on hand per owner, in the session's project and warehouse",
        querystring: Type.Object({ timeZone: Type.Optional(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_+/-]{0,63}$' })) }, { additionalProperties: false }),
        response: { 200: Type.Any(), ...errors },
      },
    },
    async (request) => homeStockActivity(db, requireUser(request), request.query.timeZone),
  );

  // Cycle count tickets (the handheld's blind count entry and the header actions).
  app.post(
    '/inventory/cycleCount/count',
    {
      config: { access: { right: 'inventory.cycleCount:edit', scope: 'warehouse' } },
      schema: {
        tags,
        summary: 'Blind count entry of one ticket line (its recount when sent to recount)',
        body: Type.Object({ lineId: Type.Integer({ minimum: 1, maximum: 2147483647 }), qty: Quantity() }, { additionalProperties: false }),
        response: { 200: Done, ...errors },
      },
    },
    async (request) => {
      await inTransaction(db, (trx) => withIdempotency(request, trx, () => enterCount(trx, { user: requireUser(request), events: app.events }, request.body.lineId, request.body.qty)));
      return { ok: true as const };
    },
  );

  app.post(
    '/inventory/cycleCount/empty',
    {
      config: { access: { right: 'inventory.cycleCount:edit', scope: 'warehouse' } },
      schema: {
        tags,
        summary: 'Location is empty: these ticket lines are counted (or recounted) as zero',
        body: Type.Object({ lineIds: Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { minItems: 1, maxItems: 100 }) }, { additionalProperties: false }),
        response: { 200: Type.Object({ lines: Type.Integer() }), ...errors },
      },
    },
    async (request) => inTransaction(db, (trx) => countLinesEmpty(trx, { user: requireUser(request), events: app.events }, request.body.lineIds)),
  );

  app.post(
    '/inventory/cycleCount/recount',
    { config: { access: { right: 'inventory.cycleCount:edit', scope: 'warehouse' } }, schema: { tags, summary: 'Send the lines that differ to recount', body: IdBody, response: { 200: Type.Any(), ...errors } } },
    async (request) => inTransaction(db, (trx) => recountTicket(trx, { user: requireUser(request) }, request.body.id)),
  );

  app.post(
    '/inventory/cycleCount/approve',
    { config: { access: { right: 'inventory.count:approve', scope: 'warehouse' } }, schema: { tags, summary: 'Approve a counted ticket: variances become count adjustments', body: IdBody, response: { 200: Type.Any(), ...errors } } },
    async (request) => inTransaction(db, (trx) => approveTicket(trx, { user: requireUser(request) }, request.body.id)),
  );

  app.post(
    '/inventory/cycleCount/close',
    {
      config: { access: { right: 'inventory.cycleCount:edit', scope: 'warehouse' } },
      schema: { tags, summary: 'Close open tickets', body: Type.Object({ ids: Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { minItems: 1, maxItems: 100 }) }, { additionalProperties: false }), response: { 200: Type.Any(), ...errors } },
    },
    async (request) => inTransaction(db, (trx) => closeTickets(trx, { user: requireUser(request) }, request.body.ids)),
  );

  app.post(
    '/inventory/cycleCountMaster/createCountOrder',
    {
      config: { access: { right: 'inventory.count:create', scope: 'warehouse' } },
      schema: {
        tags,
        summary: 'A count ticket from a plan of the count master',
        body: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }), ignoreCommitted: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
        response: { 200: Type.Any(), ...errors },
      },
    },
    async (request) => inTransaction(db, (trx) => createCountOrder(trx, { user: requireUser(request) }, request.body.id, { ignoreCommitted: request.body.ignoreCommitted !== false })),
  );
};

export { TRANS_TYPES };
