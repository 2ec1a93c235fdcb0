import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { placeWriter, warehousePlaceOf } from '../../area-kit/route-scope.js';
import { Type } from 'typebox';
import { readSheetRows } from '../../../../engine/server/index.js';
import { AppError } from '../../../common/errors.js';
import { withIdempotency } from '../../area-kit/idempotency.js';
import { inTransaction } from '../../db/transaction.js';
import { registerMultipart } from '../../http/multipart.js';
import { pageAccess, routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import { attachmentMultipartLimits, readPlacedUpload } from '../attachment/index.js';
import {
  attachDeliveryPhoto,
  createLoad,
  deliverOrder,
  getLoad,
  importCodes,
  listLoads,
  loadTable,
  removeOrder,
  saveLoad,
  scanOntoLoad,
  setLoadOpen,
  shipConfirm,
  waveCartons,
} from './loading.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 413: ErrorBodySchema, 415: ErrorBodySchema };
const route = routeOptions(['loading'], errors);

/** Reading loads needs the loading screen's view right; loading, shipping and delivering its edit right. */
const { view: LOAD_VIEW, edit: LOAD_EDIT } = pageAccess('loading.load', 'warehouse', 'view', 'edit');

const OptText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
const OptTime = Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.String({ format: 'date' }), Type.Literal(''), Type.Null()]));
const Code = Type.String({ minLength: 1, maxLength: 100 });
const HeaderFields = {
  containerNo: OptText(30),
  sealNo: OptText(30),
  containerType: OptText(30),
  vessel: OptText(100),
  voyage: OptText(50),
  mbl: OptText(50),
  hbl: OptText(50),
  driver: OptText(100),
  etd: OptTime,
  eta: OptTime,
  portOfLoading: OptText(100),
  portOfDischarge: OptText(100),
  portOfDestination: OptText(100),
  loadFrom: OptText(200),
  loadTo: OptText(200),
  remarks: OptText(1000),
};
/** Rows of an SSCC file: at most this many codes in one upload. */
const MAX_IMPORT_ROWS = 5000;

/** The codes of an uploaded file, one a row from its first column, with their row numbers; empty rows and a header row that is not a code are skipped. */
async function codesOfFile(fileName: string, data: Buffer): Promise<Array<{ row: number; code: string }>> {
  // A file that is no readable xlsx or csv is the user's mistake, answered as such.
  const rows = await readSheetRows(fileName, data).catch(() => {
    throw new AppError('IMPORT_FILE_INVALID', { reason: 'not a readable xlsx or csv file' });
  });
  const codes: Array<{ row: number; code: string }> = [];
  rows.forEach((cells, index) => {
    const value = cells[0];
    const code = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
    if (!code) return;
    if (index === 0 && /^[A-Za-z ]+$/.test(code) && /sscc|carton|code|pallet/i.test(code)) return;
    codes.push({ row: index + 1, code });
  });
  if (codes.length > MAX_IMPORT_ROWS) throw new AppError('UPLOAD_TOO_LARGE');
  return codes;
}

/**
 * Loading and shipping: loads and their header, scanning cartons and pallets onto a load (by wave
 * too), a file of SSCCs, the load's cartons, a wave's cartons, taking an order off a load, ship
 * confirm and delivery with its proof. All are limited to the session's project and warehouse;
 * each write is one transaction.
 */
export const loadingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const limitBytes = app.config.attachmentLimitBytes;
  await registerMultipart(app, attachmentMultipartLimits(limitBytes));
  /** Runs a route's work in one transaction, in the caller's project and warehouse. */
  const write = placeWriter(db, warehousePlaceOf);

  app.post(
    '/loading/list',
    route(LOAD_VIEW, 'The loads of the warehouse that are not shipped (all with `all`), newest first', { body: StrictObject({ all: Type.Optional(Type.Boolean()) }) }),
    async (request) => ({ rows: await listLoads(db, warehousePlaceOf(request), request.body.all === true) }),
  );

  app.post(
    '/loading/getLoadByUid',
    route(LOAD_VIEW, 'A load by its id or its load number, with its header and loaded carton qty', {
      body: StrictObject({ loadId: Type.Optional(IdSchema), loadNo: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })) }),
    }),
    (request) => getLoad(db, warehousePlaceOf(request), request.body),
  );

  app.post('/loading/create', route(LOAD_EDIT, 'Creates an open load numbered by the LOAD numbering rule, with its header', { body: StrictObject(HeaderFields) }), (request) =>
    write(request, (trx, scope) => createLoad(trx, scope, request.body)),
  );

  app.post('/loading/save', route(LOAD_EDIT, 'Saves the header of a load that is not shipped', { body: StrictObject({ loadId: IdSchema, ...HeaderFields }) }), (request) =>
    write(request, (trx, scope) => saveLoad(trx, scope, request.body)),
  );

  app.post('/loading/close', route(LOAD_EDIT, 'Closes an open load holding cartons for loading (status loaded)', { body: StrictObject({ loadId: IdSchema }) }), (request) =>
    write(request, (trx, scope) => setLoadOpen(trx, scope, request.body.loadId, false)),
  );

  app.post('/loading/reopen', route(LOAD_EDIT, 'Opens a closed load again for loading', { body: StrictObject({ loadId: IdSchema }) }), (request) =>
    write(request, (trx, scope) => setLoadOpen(trx, scope, request.body.loadId, true)),
  );

  app.post(
    '/loading/scan',
    route(LOAD_EDIT, 'Loads a closed carton (by carton number or SSCC) or every carton of a pallet (by pallet SSCC) onto an open load', { body: StrictObject({ loadId: IdSchema, code: Code }) }),
    (request) => write(request, (trx, scope) => withIdempotency(request, trx, () => scanOntoLoad(trx, scope, request.body))),
  );

  app.post(
    '/loading/scanByWave',
    route(LOAD_EDIT, "Loads a scanned carton or pallet onto an open load, only when its order is on the wave", { body: StrictObject({ loadId: IdSchema, waveNo: Type.String({ minLength: 1, maxLength: 50 }), code: Code }) }),
    (request) => write(request, (trx, scope) => withIdempotency(request, trx, () => scanOntoLoad(trx, scope, request.body))),
  );

  app.post(
    '/loading/importSscc',
    route(LOAD_EDIT, 'Loads every carton or pallet SSCC of an xlsx or csv file (multipart: loadId, file) onto an open load; all or nothing, each failing row answered'),
    async (request) => {
      const { place, ids, file } = await readPlacedUpload(request, limitBytes, warehousePlaceOf, { ids: ['loadId'], file: true });
      const codes = await codesOfFile(file.fileName, file.data);
      return inTransaction(db, (trx) => importCodes(trx, place, ids.loadId, codes));
    },
  );

  app.post('/loading/table', route(LOAD_VIEW, "The load's cartons with their orders and pallets, and its orders", { body: StrictObject({ loadId: IdSchema }) }), (request) =>
    loadTable(db, warehousePlaceOf(request), request.body.loadId),
  );

  app.post(
    '/loading/searchWaveCarton',
    route(LOAD_VIEW, "The cartons of a wave's orders, loaded or not, with the load each is on", { body: StrictObject({ waveNo: Type.String({ minLength: 1, maxLength: 50 }) }) }),
    (request) => waveCartons(db, warehousePlaceOf(request), request.body.waveNo),
  );

  app.post(
    '/loading/removeOrder',
    route(LOAD_EDIT, "Takes every carton of an order off a load that is not shipped; the order's status goes back", { body: StrictObject({ loadId: IdSchema, soId: IdSchema }) }),
    (request) => write(request, (trx, scope) => removeOrder(trx, scope, request.body)),
  );

  app.post(
    '/loading/shipConfirm',
    route(LOAD_EDIT, "Ships a load: every carton's stock leaves the warehouse, its orders become shipped or partially shipped", { body: StrictObject({ loadId: IdSchema }) }),
    (request) => write(request, (trx, scope) => shipConfirm(trx, scope, app.events, request.body.loadId)),
  );

  app.post(
    '/loading/deliver',
    route(LOAD_EDIT, "A shipped order is delivered: the time and the receiver's name", {
      body: StrictObject({
        soId: IdSchema,
        deliveredAt: Type.String({ format: 'date-time' }),
        receiverName: Type.String({ minLength: 1, maxLength: 100 }),
        remarks: OptText(1000),
      }),
    }),
    (request) => write(request, (trx, scope) => deliverOrder(trx, scope, request.body)),
  );

  app.post(
    '/loading/deliver/photo',
    route(LOAD_EDIT, 'A photo of a delivered order as proof of delivery (multipart: soId, photo)'),
    async (request) => {
      const { place, upload, ids } = await readPlacedUpload(request, limitBytes, warehousePlaceOf, { ids: ['soId'] });
      return inTransaction(db, (trx) => attachDeliveryPhoto(trx, place, ids.soId, upload.files, limitBytes));
    },
  );
};
