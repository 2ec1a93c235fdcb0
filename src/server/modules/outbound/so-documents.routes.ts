import { PassThrough } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { Type } from 'typebox';
import { readSheetRows } from '../../../../engine/server/index.js';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { requireProject, requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { loadExcel } from '../../files/excel.js';
import { spreadsheetCell } from '../../files/spreadsheet-cell.js';
import { translate } from '../../http/i18n.js';
import { readMultipart } from '../../http/multipart.js';
import { Quantity } from '../../http/quantity-schema.js';
import { pageAccess } from '../../http/route-options.js';
import { IdSchema, StrictObject } from '../../http/schemas.js';
import { assertInputs } from './input-checks.js';
import { OptDate, OptText, route } from './outbound.http.js';
import { allocateOrders, ordersOfLines, unallocateOrders } from './outbound.service.js';
import { exportOrderLines } from './so-documents.repository.js';
import * as so from './so-documents.service.js';
import type { Actor } from './so-documents.service.js';
import { SO_STATUSES } from './so-status.js';

/** A quantity above 0 (the one rule of every route: http/quantity-schema.ts). */
const Qty = Quantity();
const Code = Type.String({ minLength: 1, maxLength: 100 });
const Ids = Type.Array(IdSchema, { minItems: 1, maxItems: 100 });

const Line = {
  skuCode: Code,
  qty: Qty,
  uom: OptText(20),
  lotNo: OptText(60),
  expiryFrom: OptDate,
  expiryTo: OptDate,
  udf1: OptText(60),
  udf2: OptText(60),
  udf3: OptText(60),
  requiredDate: OptDate,
};

const { view: VIEW, add: ADD, edit: EDIT, allocate: ALLOCATE } = pageAccess('outbound.so', 'warehouse', 'view', 'add', 'edit', 'allocate');
const { view: SHIPMENT_VIEW, edit: SHIPMENT_EDIT } = pageAccess('outbound.shipmentOrder', 'warehouse', 'view', 'edit');

/** Largest file the order and store-arrival imports read. */
const IMPORT_LIMIT_BYTES = 10 * 1024 * 1024;

/** The dates and quantity of an order line, by their field names under `prefix`, for `assertInputs`. */
function lineFields(line: { qty: unknown; expiryFrom?: string | null; expiryTo?: string | null; requiredDate?: string | null }, prefix: string) {
  return {
    dates: { [`${prefix}expiryFrom`]: line.expiryFrom, [`${prefix}expiryTo`]: line.expiryTo, [`${prefix}requiredDate`]: line.requiredDate },
    qtys: { [`${prefix}qty`]: line.qty as string | number },
  };
}

function actorOf(request: FastifyRequest): Actor {
  const user = requireUser(request);
  return { projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId, login: user.loginAccount };
}

async function uploadedRows(request: FastifyRequest): Promise<unknown[][]> {
  const { files } = await readMultipart(request);
  const file = files.find((f) => f.fieldName === 'file') ?? files[0];
  if (!file) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'file', code: 'FIELD_REQUIRED' }]);
  try {
    return await readSheetRows(file.fileName, file.data);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('IMPORT_FILE_INVALID', { reason: 'not a readable xlsx or csv file' });
  }
}

/**
 * The sales order calls that the /so pages do not make through the engine:
 * lines (/so/create/soDetail, /so/save/soDetail, split), look-ups (/so/sku, /so/balance), allocation
 * by order and line and by hand (/so/header/allocation, /so/detail/allocation, /so/findAllocation,
 * /so/manualAllocation), the order import and export, importStoreArrival, the maintenance list and
 * shipment orders, and the read-only pre-checks before cancel, close and pack
 * (/so/cancelCloseCheck, /so/checkPartialPack); /so/cancelCheckComplete itself is packing's. All are limited to the session's project and warehouse.
 */
export const soDocumentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  if (!app.hasRequestDecorator('isMultipart')) {
    await app.register(fastifyMultipart, { limits: { fileSize: IMPORT_LIMIT_BYTES, files: 1, fields: 10 } });
  }
  const write = <T>(request: FastifyRequest, work: (trx: Transaction<DB>, actor: Actor) => Promise<T>) => {
    const actor = actorOf(request);
    return inTransaction(db, (trx) => work(trx, actor));
  };
  /** A field's declared length in the project's published /so pages (the order import keeps its texts to it). */
  const lengthOf = (request: FastifyRequest) => async (functionCode: 'so' | 'soDetail', field: string) =>
    (await app.definitions.resolve(actorOf(request).projectId, 'outbound', functionCode)).prepared.fieldsByName.get(field)?.length;
  const scopeOf = (actor: Actor) => ({ projectId: actor.projectId, warehouseId: actor.warehouseId, operator: actor.login });

  // ------------------------------------------------------------ lines
  app.post(
    '/so/create/soDetail',
    route(EDIT, 'Adds one line to a new sales order', { body: StrictObject({ soId: IdSchema, ...Line }) }),
    async (request) => {
      const { soId, ...line } = request.body;
      const fields = lineFields(line, '');
      assertInputs(fields.dates, fields.qtys);
      const [lineId] = await write(request, (trx, actor) => so.saveLines(trx, actor, soId, [line]));
      return { lineId, lines: await so.orderLines(db, actorOf(request), soId) };
    },
  );

  app.post(
    '/so/save/soDetail',
    route(EDIT, 'Adds, changes and deletes lines of a new sales order (all or none)', {
      body: StrictObject({
        soId: IdSchema,
        lines: Type.Array(StrictObject({ id: Type.Optional(IdSchema), ...Line }), { maxItems: 1000 }),
        deleteLineIds: Type.Optional(Type.Array(IdSchema, { maxItems: 1000 })),
      }),
    }),
    async (request) => {
      const fields = request.body.lines.map((line, i) => lineFields(line, `lines[${i}].`));
      assertInputs(Object.fromEntries(fields.flatMap((x) => Object.entries(x.dates))), Object.fromEntries(fields.flatMap((x) => Object.entries(x.qtys))));
      await write(request, (trx, actor) => so.saveLines(trx, actor, request.body.soId, request.body.lines, request.body.deleteLineIds));
      return { lines: await so.orderLines(db, actorOf(request), request.body.soId) };
    },
  );

  app.post(
    '/so/split',
    route(EDIT, 'Splits part of an order line into a new line with changed fields', {
      body: StrictObject({ lineId: IdSchema, qty: Qty, changes: Type.Array(StrictObject({ field: Type.String({ maxLength: 40 }), fromValue: OptText(), toValue: OptText() }), { maxItems: 10 }) }),
    }),
    (request) => {
      assertInputs({}, { qty: request.body.qty });
      return write(request, (trx, actor) => so.splitLine(trx, actor, request.body.lineId, request.body.qty, request.body.changes));
    },
  );

  // ------------------------------------------------------------ look-ups
  app.post(
    '/so/sku',
    route(VIEW, "SKUs of the order's owner (or an owner) matching a text, with what is available", {
      body: StrictObject({ soId: Type.Optional(IdSchema), ownerCode: Type.Optional(Code), text: Type.String({ maxLength: 100 }), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) }),
    }),
    async (request) => ({ skus: await so.skuLookup(db, actorOf(request), request.body) }),
  );

  app.post('/so/balance', route(VIEW, 'Per line of an order: open qty, available stock and shortage', { body: StrictObject({ soId: IdSchema }) }), (request) =>
    so.orderBalance(db, actorOf(request), request.body.soId),
  );

  // ------------------------------------------------------------ allocation
  app.post(
    '/so/header/allocation',
    route(ALLOCATE, 'Allocates (or unallocates) whole orders by their rules; shortages per line', {
      body: StrictObject({ soIds: Ids, unallocate: Type.Optional(Type.Boolean()) }),
    }),
    (request) =>
      write<unknown>(request, (trx, actor) => (request.body.unallocate ? unallocateOrders(trx, scopeOf(actor), request.body.soIds) : allocateOrders(trx, scopeOf(actor), request.body.soIds))),
  );

  app.post(
    '/so/detail/allocation',
    route(ALLOCATE, 'Allocates (or unallocates) order lines by their rules; shortages per line', {
      body: StrictObject({ lineIds: Ids, unallocate: Type.Optional(Type.Boolean()) }),
    }),
    (request) =>
      write<unknown>(request, async (trx, actor) => {
        const soIds = await ordersOfLines(trx, actor.projectId, request.body.lineIds);
        return request.body.unallocate ? unallocateOrders(trx, scopeOf(actor), soIds, request.body.lineIds) : allocateOrders(trx, scopeOf(actor), soIds, request.body.lineIds);
      }),
  );

  app.post('/so/findAllocation', route(VIEW, 'The balance rows an order line may be allocated from by hand', { body: StrictObject({ lineId: IdSchema }) }), (request) =>
    so.findAllocation(db, actorOf(request), request.body.lineId),
  );

  app.post(
    '/so/manualAllocation',
    route(ALLOCATE, 'Allocates chosen quantities of candidate balance rows to an order line', {
      body: StrictObject({
        lineId: IdSchema,
        allocations: Type.Array(StrictObject({ balanceId: IdSchema, qty: Type.Optional(Quantity({ nullable: true })) }), { maxItems: 100 }),
      }),
    }),
    (request) => {
      assertInputs({}, Object.fromEntries(request.body.allocations.map((a, i) => [`allocations[${i}].qty`, a.qty])));
      return write(request, (trx, actor) => so.allocateManually(trx, actor, request.body.lineId, request.body.allocations));
    },
  );

  // ------------------------------------------------------------ pre-checks (read only)
  const withMessage = <T extends { reason: so.Refusal | null }>(request: FastifyRequest, check: T) =>
    check.reason ? { ...check, reason: { ...check.reason, message: translate(request.language, `errors.${check.reason.code}`, check.reason.params) } } : check;

  app.post(
    '/so/cancelCloseCheck',
    route(VIEW, 'Per order: whether cancel and close are allowed, and what they would undo (allocation, picked stock, open pick tasks, wave)', {
      body: StrictObject({ soIds: Ids }),
    }),
    async (request) => ({
      orders: (await so.cancelCloseCheck(db, actorOf(request), request.body.soIds)).map((o) => ({ ...o, cancel: withMessage(request, o.cancel), close: withMessage(request, o.close) })),
    }),
  );

  app.post(
    '/so/checkPartialPack',
    route(VIEW, 'Per order: ordered against picked qty per line, and whether packing now would ship less than ordered', {
      body: StrictObject({ soIds: Ids }),
    }),
    async (request) => ({ orders: (await so.checkPartialPack(db, actorOf(request), request.body.soIds)).map((o) => withMessage(request, o)) }),
  );

  // ------------------------------------------------------------ import and export
  app.post(
    '/so/import',
    route(ADD, 'Imports sales orders from an xlsx or csv file (multipart; all or none)'),
    async (request) => {
      const rows = so.orderImportRows(await uploadedRows(request));
      const lengths = await so.declaredImportLengths(lengthOf(request));
      return write(request, (trx, actor) => so.importOrders(trx, actor, rows, lengths));
    },
  );

  app.post(
    '/so/importStoreArrival',
    route(EDIT, 'Store-arrival times (order no, arrival) from an xlsx or csv file onto orders (multipart; all or none)'),
    async (request) => {
      const cells = await uploadedRows(request);
      const rows = cells.slice(1).flatMap((values, i) => (values.some((v) => so.cellText(v) !== '') ? [{ row: i + 2, orderNo: values[0], arrival: values[1] }] : []));
      const orderNoLength = (await lengthOf(request)('so', 'order_no')) ?? so.LONGEST_DECLARED_TEXT;
      return { updated: await write(request, (trx, actor) => so.importStoreArrival(trx, actor, rows, orderNoLength)) };
    },
  );

  app.post(
    '/so/export',
    route(
      VIEW,
      'The orders of the warehouse with their lines as an xlsx or csv file, streamed',
      { body: StrictObject({ status: Type.Optional(Type.Union(SO_STATUSES.map((s) => Type.Literal(s)))), format: Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')])) }) },
      Type.Unknown(),
    ),
    async (request, reply) => {
      const actor = actorOf(request);
      const columns = ['order_no', 'status', 'owner_code', 'customer_order_no', 'ship_to_name', 'carrier_code', 'required_ship_date', 'store_arrival_at', 'line_no', 'sku_code', 'qty', 'uom', 'allocated_qty', 'picked_qty'] as const;
      const titles = columns.map((c) => translate(request.language, `outbound.export.${c}`));
      const stream = new PassThrough();
      const csv = request.body.format === 'csv';
      const quote = (v: unknown) => spreadsheetCell(typeof v === 'string' || typeof v === 'number' ? v : null, 'csv');
      const workbook = csv ? null : new (await loadExcel()).stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
      const sheet = workbook?.addWorksheet('orders');
      if (sheet) sheet.columns = columns.map((c, i) => ({ header: titles[i], key: c, width: 16 }));
      else stream.write(`${titles.map(quote).join(',')}\r\n`);
      const numeric = new Set(['qty', 'allocated_qty', 'picked_qty']);
      const finished = (async () => {
        try {
          for await (const batch of exportOrderLines(db, actor, request.body.status)) {
            for (const row of batch) {
              const values = columns.map((c) => (numeric.has(c) ? Number(row[c]) : row[c]));
              if (sheet) sheet.addRow(values.map((v) => spreadsheetCell(typeof v === 'string' || typeof v === 'number' ? v : null, 'xlsx'))).commit();
              else stream.write(`${values.map(quote).join(',')}\r\n`);
            }
            await new Promise((resolve) => setImmediate(resolve));
          }
        } catch (error) {
          request.log.error({ err: error }, 'order export failed while streaming');
          const text = translate(request.language, 'errors.EXPORT_INCOMPLETE');
          if (sheet) sheet.addRow([text]).commit();
          else stream.write(`${quote(text)}\r\n`);
        }
        if (sheet && workbook) {
          sheet.commit();
          await workbook.commit();
        } else stream.end();
      })();
      finished.catch((error: unknown) => request.log.error({ err: error }, 'order export could not be finished'));
      return reply
        .header('content-type', csv ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="sales-orders.${csv ? 'csv' : 'xlsx'}"`)
        .send(stream);
    },
  );

  // ------------------------------------------------------------ maintenance list
  app.post('/so/getMaintenanceList', route(VIEW, 'Orders and SKUs on the maintenance list of the warehouse', { body: StrictObject({}) }), async (request) => ({
    entries: await so.getMaintenanceList(db, actorOf(request)),
  }));

  app.post(
    '/so/addMaintenanceList',
    route(EDIT, 'Puts orders or SKUs on the maintenance list', {
      body: StrictObject({ entries: Type.Array(StrictObject({ orderNo: OptText(), skuCode: OptText(), reason: OptText(200) }), { minItems: 1, maxItems: 100 }) }),
    }),
    async (request) => ({ added: await write(request, (trx, actor) => so.addMaintenanceList(trx, actor, request.body.entries)) }),
  );

  app.post('/so/deleteMaintenanceList', route(EDIT, 'Takes entries off the maintenance list', { body: StrictObject({ ids: Ids }) }), async (request) => ({
    deleted: await write(request, (trx, actor) => so.deleteMaintenanceList(trx, actor, request.body.ids)),
  }));

  // ------------------------------------------------------------ shipment orders
  app.post(
    '/so/addOrderToShipmentId',
    route(SHIPMENT_EDIT, 'Puts orders on an open shipment order', { body: StrictObject({ shipmentOrderId: IdSchema, soIds: Ids }) }),
    async (request) => ({ added: await write(request, (trx, actor) => so.addOrdersToShipment(trx, actor, request.body.shipmentOrderId, request.body.soIds)) }),
  );

  app.post(
    '/so/removeOrderFromShipmentId',
    route(SHIPMENT_EDIT, 'Takes orders off an open shipment order', { body: StrictObject({ shipmentOrderId: IdSchema, soIds: Ids }) }),
    async (request) => ({ removed: await write(request, (trx, actor) => so.removeOrdersFromShipment(trx, actor, request.body.shipmentOrderId, request.body.soIds)) }),
  );

  app.post(
    '/so/findShipmentReference',
    route(SHIPMENT_VIEW, 'A shipment order by its number, with its orders', { body: StrictObject({ shipmentNo: Code }) }),
    (request) => so.findShipmentReference(db, actorOf(request), request.body.shipmentNo),
  );
};
