import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import { withIdempotency } from '../../area-kit/idempotency.js';
import { placeWriter, warehousePlaceOf } from '../../area-kit/route-scope.js';
import { Quantity } from '../../http/quantity-schema.js';
import { pageAccess, routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import type { StockScope } from '../inventory/index.js';
import { labelPrinters } from '../printing/index.js';
import { cartonIdOf, startPackingByCarton, withOpened } from './pack-by-carton.js';
import { packListPdf } from './pack-list.js';
import { addCartonToPallet, closePallet, createPallet, findScannedPallet, palletDetail, printScannedLabel, removeCartonFromPallet } from './pallet.service.js';
import { cancelCheckComplete, CARTON_TYPE, CartonOrders, checkComplete, closeCartonOf, codeList, openCarton, packItem, removeItem, reopenCartonOf, startPacking, WEIGHT_UOM } from './packing.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const route = routeOptions(['packing'], errors);

/** Reading what packing shows needs the pack page's view right; packing anything needs its edit right. */
const { view: PACK_VIEW, edit: PACK_EDIT } = pageAccess('packing.pack', 'warehouse', 'view', 'edit');
/** Pallets: the pallet page's view right to read one, its edit right to build one. */
const { view: PALLET_VIEW, edit: PALLET_EDIT } = pageAccess('packing.pallet', 'warehouse', 'view', 'edit');
const CartonScan = Type.String({ minLength: 1, maxLength: 100 });

const OptText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
const Scan = { cartonId: IdSchema, barcode: Type.String({ minLength: 1, maxLength: 200 }), qty: Type.Optional(Quantity()) };
/** The carton of a handheld's scan: its id, or the idempotency key of the scan that opened it (offline, before its id was known). */
const CartonRef = { cartonId: Type.Optional(IdSchema), cartonKey: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._:-]{1,100}$' })) };

const scopeOf: (request: FastifyRequest) => StockScope = warehousePlaceOf;

/**
 * The scan-and-pack calls: carton types and weight units, start packing an order, open a carton,
 * pack and take out scanned items, close a carton, check the order complete and cancel that
 * check-complete, and build pallets of closed cartons. All are limited
 * to the session's project and warehouse; each write is one transaction.
 */
export const packingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  // Which order each carton packs, as this server has seen it (a carton never changes order).
  const cartonOrders = new CartonOrders();
  const write = placeWriter(db, scopeOf);

  app.get(
    '/pack/list.pdf',
    {
      config: { access: PACK_VIEW },
      schema: {
        tags: ['packing'],
        summary: "The pack list of an order as PDF (only once something of it is packed in a closed carton): the project's published pack-list template, else the built-in layout",
        querystring: StrictObject({ soId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const { orderNo, pdf } = await packListPdf(db, scope, request.query.soId, scope.operator, request.language);
      const name = `pack-list-${orderNo.replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`;
      return reply.header('content-type', 'application/pdf').header('content-disposition', `inline; filename="${name}"`).send(pdf);
    },
  );

  app.get('/pack/carton/type', route(PACK_VIEW, 'The carton types (code master CARTON_TYPE) with their description'), async (request) => {
    scopeOf(request);
    return { rows: await codeList(db, CARTON_TYPE, request.language) };
  });

  app.get('/pack/scan/wgtUom', route(PACK_VIEW, 'The units a carton weight may be given in (code master WEIGHT_UOM)'), async (request) => {
    scopeOf(request);
    return { rows: await codeList(db, WEIGHT_UOM, request.language) };
  });

  app.post(
    '/scanPack',
    route(PACK_VIEW, 'Starts packing an order by its number (and the wave it must be on, when packing by wave): its lines with ordered, picked and packed qty, and its cartons; with checkCompleted, shows a check-completed order whose check-complete may be cancelled', {
      body: StrictObject({ orderNo: Type.String({ minLength: 1, maxLength: 100 }), waveNo: OptText(100), packPicked: Type.Optional(Type.Boolean()), checkCompleted: Type.Optional(Type.Boolean()) }),
    }),
    (request) => startPacking(db, scopeOf(request), request.body),
  );

  app.post(
    '/scanPack/carton',
    route(PACK_VIEW, 'Starts packing the order of a scanned open carton (its carton number, SSCC or GS1-128 label) to go on packing that carton: the order as /scanPack answers it, with the carton', {
      body: StrictObject({ code: CartonScan }),
    }),
    (request) => startPackingByCarton(db, scopeOf(request), request.body.code),
  );

  app.post(
    '/pack/scan/open',
    route(PACK_EDIT, 'Opens a new carton for the order, numbered by the carton numbering rule', {
      body: StrictObject({ soId: IdSchema, cartonType: OptText(30), packPicked: Type.Optional(Type.Boolean()), cardId: OptText(100) }),
    }),
    // Opened from a handheld's offline queue with its idempotency key: once, and the key names the carton to the scans after it.
    (request) => write(request, (trx, scope) => withIdempotency(request, trx, async () => withOpened(await openCarton(trx, scope, request.body)))),
  );

  app.post(
    '/pack/scan/sku',
    route(PACK_EDIT, 'Packs a scanned SKU code, barcode or GS1-128 label into an open carton, with the anti-counterfeit code and the collar barcode the item asks for', {
      body: StrictObject({ ...Scan, ...CartonRef, antiCounterfeitCode: OptText(100), collarBarcode: OptText(200) }),
    }),
    (request) =>
      write(request, (trx, scope) =>
        withIdempotency(request, trx, async () => {
          const { cartonKey, ...scan } = request.body;
          const cartonId = await cartonIdOf(trx, request, request.body);
          const answer = await packItem(trx, scope, { ...scan, cartonId }, { cartonOrders });
          // A carton named by its key: the answer says which carton it is.
          return cartonKey === undefined ? answer : { ...answer, cartonId };
        }),
      ),
  );

  app.post(
    '/pack/scan/reopen',
    route(PACK_EDIT, 'Opens a closed carton of the order being packed again to append to it, named by id or scanned by carton number or SSCC; it keeps its SSCC', {
      body: StrictObject({ soId: IdSchema, cartonId: Type.Optional(IdSchema), carton: Type.Optional(CartonScan) }),
    }),
    (request) => write(request, (trx, scope) => reopenCartonOf(trx, scope, request.body)),
  );

  app.post('/pack/scan/remove', route(PACK_EDIT, 'Takes a qty of a scanned item out of an open carton, back to where it was picked to', { body: StrictObject(Scan) }), (request) =>
    write(request, (trx, scope) => removeItem(trx, scope, request.body)),
  );

  app.post(
    '/pack/scan/close',
    route(PACK_EDIT, 'Closes an open carton with its gross and net weight and dimensions', {
      body: StrictObject({
        ...CartonRef,
        cartonType: OptText(30),
        grossWeight: Quantity(),
        netWeight: Quantity(),
        weightUom: Type.String({ minLength: 1, maxLength: 10 }),
        length: Type.Optional(Quantity({ nullable: true })),
        width: Type.Optional(Quantity({ nullable: true })),
        height: Type.Optional(Quantity({ nullable: true })),
      }),
    }),
    // A close sent again from a handheld's offline queue (its idempotency key) is answered as it was and closes nothing twice.
    (request) =>
      write(request, (trx, scope) =>
        withIdempotency(request, trx, async () => {
          const { cartonKey, ...close } = request.body;
          const cartonId = await cartonIdOf(trx, request, request.body);
          const answer = await closeCartonOf(trx, scope, { ...close, cartonId }, { sendWith: db, language: request.language });
          return cartonKey === undefined ? answer : { ...answer, cartonId };
        }),
      ),
  );

  app.get('/pack/label/printer', route(PACK_VIEW, 'The active printers of the warehouse a carton label may be printed on'), async (request) => {
    const scope = scopeOf(request);
    return { rows: await labelPrinters(db, scope.warehouseId) };
  });

  app.post(
    '/pack/label/print',
    route(PACK_EDIT, 'Prints the label of a closed carton (scanned by carton number or SSCC) or of a closed pallet (pallet number or SSCC) again, through the print queue, on the chosen printer (else the one for automatic labels)', {
      body: StrictObject({ code: CartonScan, printerId: Type.Optional(Type.Union([IdSchema, Type.Null()])) }),
    }),
    (request) => printScannedLabel(db, scopeOf(request), request.body, { language: request.language }),
  );

  app.post(
    '/scanPack/closeOrder',
    route(PACK_EDIT, 'Checks packing of the order complete: packed, or partially packed; with whenPacked only when it comes out packed (else PACK_NOT_ALL_PACKED and nothing changes)', {
      body: StrictObject({ soId: IdSchema, whenPacked: Type.Optional(Type.Boolean()) }),
    }),
    // Sent from a handheld's offline queue with its idempotency key, after the scans before it: applied once.
    (request) =>
      write(request, (trx, scope) =>
        withIdempotency(request, trx, async () => {
          const answer = await checkComplete(trx, scope, request.body.soId, app.events);
          if (request.body.whenPacked === true && answer.order.status !== 'packed') throw new AppError('PACK_NOT_ALL_PACKED', { orderNo: answer.order.orderNo });
          return answer;
        }),
      ),
  );

  app.post(
    '/so/cancelCheckComplete',
    route(PACK_EDIT, 'Cancels the check-complete of a packed order: optionally removes all packed cartons and moves the cancelled stock back to where it was picked from', {
      body: StrictObject({ soId: IdSchema, removeCartons: Type.Boolean(), moveStockBack: Type.Boolean() }),
    }),
    (request) => write(request, (trx, scope) => cancelCheckComplete(trx, scope, request.body)),
  );

  // ------------------------------------------------------------ pallets
  app.post(
    '/pallet/create',
    route(PALLET_EDIT, 'Makes a new open pallet at a location, numbered by the pallet numbering rule, with its own SSCC', {
      body: StrictObject({
        locationCode: Type.String({ minLength: 1, maxLength: 60 }),
        palletType: OptText(30),
        length: Type.Optional(Quantity({ nullable: true })),
        width: Type.Optional(Quantity({ nullable: true })),
        height: Type.Optional(Quantity({ nullable: true })),
        grossWeight: Type.Optional(Quantity({ nullable: true })),
        weightUom: OptText(10),
      }),
    }),
    (request) => write(request, (trx, scope) => createPallet(trx, scope, request.body)),
  );

  app.post('/pallet/detail', route(PALLET_VIEW, 'A pallet with its cartons', { body: StrictObject({ palletId: IdSchema }) }), (request) => palletDetail(db, scopeOf(request), request.body.palletId));

  app.post('/pallet/find', route(PALLET_VIEW, 'The pallet a scan names (its pallet number or SSCC, also as its GS1-128 label barcode) with its cartons', { body: StrictObject({ code: CartonScan }) }), (request) =>
    findScannedPallet(db, scopeOf(request), request.body.code),
  );

  app.post(
    '/pallet/addCarton',
    route(PALLET_EDIT, 'Puts a closed carton (scanned by carton number or SSCC) of the pallet\'s order onto an open pallet', { body: StrictObject({ palletId: IdSchema, carton: CartonScan }) }),
    (request) => write(request, (trx, scope) => addCartonToPallet(trx, scope, request.body)),
  );

  app.post(
    '/pallet/removeCarton',
    route(PALLET_EDIT, 'Takes a carton (scanned by carton number or SSCC) off an open pallet', { body: StrictObject({ palletId: IdSchema, carton: CartonScan }) }),
    (request) => write(request, (trx, scope) => removeCartonFromPallet(trx, scope, request.body)),
  );

  app.post(
    '/pallet/close',
    route(PALLET_EDIT, 'Closes an open pallet holding cartons, with its gross weight, and prints its label on the printer for automatic labels', {
      body: StrictObject({ palletId: IdSchema, grossWeight: Type.Optional(Quantity({ nullable: true })), weightUom: OptText(10) }),
    }),
    (request) => write(request, (trx, scope) => closePallet(trx, scope, request.body, { sendWith: db, language: request.language })),
  );
};
