import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { placeWriter, warehousePlaceOf } from '../../area-kit/route-scope.js';
import { Type } from 'typebox';
import { withIdempotency } from '../../area-kit/idempotency.js';
import { pageAccess, routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import {
  addOrdersToShipmentOrder,
  addPallet,
  batchUpdate,
  cancelReasonList,
  cancelWithReason,
  checkOrderStatus,
  findContainer,
  findPallet,
  scanIn,
  scanInOrder,
  scanLoad,
  scanPack,
} from './cfs.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const route = routeOptions(['cfs'], errors);

/** Reading needs the CFS screen's view right; scanning, pallets and order changes its edit right. */
const { view: CFS_VIEW, edit: CFS_EDIT } = pageAccess('cfs.cfs', 'warehouse', 'view', 'edit');

const Code = Type.String({ minLength: 1, maxLength: 100 });
const OrderNo = Type.String({ minLength: 1, maxLength: 50 });
const OrderNos = Type.Array(OrderNo, { minItems: 1, maxItems: 100 });
const OptText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
/** Rows of one batch update at most. */
const MAX_BATCH_ROWS = 500;

/**
 * The container freight station (docs/cfs.md): scan-in of shippers' cartons against orders,
 * scan-pack onto CFS pallets, scan-load onto containers, and the order tools (shipment, batch
 * update of the CFS fields, cancel with a reason, status check). All are limited to the session's
 * project and warehouse; each write is one transaction.
 */
export const cfsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  /** Runs a route's work in one transaction, in the caller's project and warehouse. */
  const write = placeWriter(db, warehousePlaceOf);

  app.post('/cfs/scanIn/order', route(CFS_VIEW, 'An order of the warehouse with its CFS fields and the cartons scanned in against it', { body: StrictObject({ orderNo: OrderNo }) }), (request) =>
    scanInOrder(db, warehousePlaceOf(request), request.body.orderNo),
  );

  app.post(
    '/cfs/scanIn/scan',
    route(CFS_EDIT, "Receives a shipper's carton (number or SSCC) against an order; a code once, never for a cancelled order", { body: StrictObject({ orderNo: OrderNo, code: Code }) }),
    (request) => write(request, (trx, scope) => withIdempotency(request, trx, () => scanIn(trx, scope, request.body))),
  );

  app.post('/cfs/add/pallet', route(CFS_EDIT, 'Makes an open CFS pallet numbered by the CFS_PALLET rule, with its own SSCC', { body: StrictObject({}) }), (request) =>
    write(request, (trx, scope) => addPallet(trx, scope)),
  );

  app.post('/cfs/scanPack/pallet', route(CFS_VIEW, 'The CFS pallet a scan names (number or SSCC), with its cartons', { body: StrictObject({ code: Code }) }), (request) =>
    findPallet(db, warehousePlaceOf(request), request.body.code),
  );

  app.post(
    '/cfs/scanPack/scan',
    route(CFS_EDIT, 'Puts a scanned-in carton onto an open CFS pallet', { body: StrictObject({ palletId: IdSchema, code: Code }) }),
    (request) => write(request, (trx, scope) => withIdempotency(request, trx, () => scanPack(trx, scope, request.body))),
  );

  app.post(
    '/cfs/scanLoad/container',
    route(CFS_VIEW, 'The load (container) a scan names (load or container number), with the CFS cartons and pallets on it', { body: StrictObject({ code: Code }) }),
    (request) => findContainer(db, warehousePlaceOf(request), request.body.code),
  );

  app.post(
    '/cfs/scanLoad/scan',
    route(CFS_EDIT, 'Puts a CFS pallet (all its cartons) or a carton not on a pallet onto an open container', { body: StrictObject({ loadId: IdSchema, code: Code }) }),
    (request) => write(request, (trx, scope) => withIdempotency(request, trx, () => scanLoad(trx, scope, request.body))),
  );

  app.post(
    '/cfs/add/order/shipment',
    route(CFS_EDIT, 'Puts orders of the warehouse on an open shipment order, by their numbers', { body: StrictObject({ shipmentNo: Type.String({ minLength: 1, maxLength: 50 }), orderNos: OrderNos }) }),
    (request) => write(request, (trx, scope) => addOrdersToShipmentOrder(trx, scope, request.body)),
  );

  app.post(
    '/cfs/batchUpdate',
    route(CFS_EDIT, 'Sets reference, vessel, voyage and ETD of many orders at once; all or nothing, each failing row named', {
      body: StrictObject({
        rows: Type.Array(
          StrictObject({
            orderNo: Type.String({ maxLength: 50 }),
            reference: OptText(100),
            vessel: OptText(100),
            voyage: OptText(50),
            etd: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.Literal(''), Type.Null()])),
          }),
          { minItems: 1, maxItems: MAX_BATCH_ROWS },
        ),
      }),
    }),
    (request) => write(request, (trx, scope) => batchUpdate(trx, scope, request.body.rows)),
  );

  app.post('/cfs/cancelReasonCodeList', route(CFS_VIEW, 'The reasons an order may be cancelled for (code master CANCEL_REASON)', { body: StrictObject({}) }), (request) =>
    cancelReasonList(db, request.language),
  );

  app.post(
    '/cfs/cancelWithReason',
    route(CFS_EDIT, 'Cancels orders with a reason of the cancel reason list and a remark; none with a carton on a container', {
      body: StrictObject({ orderNos: OrderNos, reasonCode: Type.String({ minLength: 1, maxLength: 50 }), remark: OptText(500) }),
    }),
    (request) => write(request, (trx, scope) => cancelWithReason(trx, scope, request.body)),
  );

  app.post('/cfs/checkOrderStatus', route(CFS_VIEW, 'Each order number with its status, CFS fields and cartons, or not found', { body: StrictObject({ orderNos: OrderNos }) }), (request) =>
    checkOrderStatus(db, warehousePlaceOf(request), request.body.orderNos),
  );
};
