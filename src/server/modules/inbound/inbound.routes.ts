import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { Type } from 'typebox';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { requireProject, requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { Quantity } from '../../http/quantity-schema.js';
import { ErrorBodySchema, IdSchema } from '../../http/schemas.js';
import * as inbound from './inbound.service.js';
import type { Actor } from './inbound.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const Any = { 200: Type.Any(), ...errors };

/** A quantity above 0 (the one rule of every route: http/quantity-schema.ts). */
const Qty = Quantity();
const Text = (max = 100) => Type.String({ maxLength: max });
const OptText = (max = 100) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
const DateText = Type.Optional(Type.Union([Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), Type.Null()]));
const Code = Type.String({ minLength: 1, maxLength: 100 });

const LotFields = {
  lotNo: OptText(),
  manufactureDate: DateText,
  expiryDate: DateText,
  shelfDate: DateText,
  udf1: OptText(),
  udf2: OptText(),
  udf3: OptText(),
};

const ReceiveLine = Type.Object(
  {
    asnLineId: IdSchema,
    qty: Qty,
    locationCode: Type.String({ maxLength: 100 }),
    damageQty: Type.Optional(Quantity({ zero: true, nullable: true })),
    holdQty: Type.Optional(Quantity({ zero: true, nullable: true })),
    lpn: OptText(),
    palletId: OptText(),
    cartonId: OptText(),
    traceId: OptText(),
    ...LotFields,
  },
  { additionalProperties: false },
);

const AsnLine = Type.Object(
  {
    id: Type.Optional(IdSchema),
    skuCode: Code,
    expectedQty: Qty,
    uom: OptText(20),
    ...LotFields,
    cartons: Type.Optional(
      Type.Array(Type.Object({ containerId: Code, cartonId: Code, qty: Qty }, { additionalProperties: false }), { maxItems: 1000 }),
    ),
  },
  { additionalProperties: false },
);

function actorOf(request: FastifyRequest): Actor {
  const user = requireUser(request);
  return { projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId, login: user.loginAccount };
}

const ASN_VIEW = { right: 'inbound.asn:view', scope: 'warehouse' } as const;
const ASN_ADD = { right: 'inbound.asn:add', scope: 'warehouse' } as const;
const ASN_EDIT = { right: 'inbound.asn:edit', scope: 'warehouse' } as const;
const ASN_DELETE = { right: 'inbound.asn:delete', scope: 'warehouse' } as const;
const RECEIVE = { right: 'inbound.asn:receive', scope: 'warehouse' } as const;
const PUTAWAY_VIEW = { right: 'inbound.putaway:view', scope: 'warehouse' } as const;
const PUTAWAY_CONFIRM = { right: 'inbound.putaway:confirm', scope: 'warehouse' } as const;

/**
 * The inbound calls of spec section 7: /asn/* (list, getHeader, getDetail, saveHeader, saveDetail,
 * deletelist, plus cancel, close and creation from a purchase order), receiving (/rec/batch/editor,
 * /inbound/batch/receive), scan-in (/scan/*, /scanin/*, /scanIn/*), split (/rec/split, /split/table)
 * and putaway. All are limited to the session's project and warehouse.
 */
export const inboundRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const write = <T>(request: FastifyRequest, work: (trx: Transaction<DB>, actor: Actor) => Promise<T>) => {
    const actor = { ...actorOf(request), events: app.events };
    return inTransaction(db, (trx) => work(trx, actor));
  };

  // ------------------------------------------------------------ ASN
  app.post(
    '/asn/list',
    {
      config: { access: ASN_VIEW },
      schema: {
        tags: ['inbound'],
        summary: 'ASNs of the warehouse, newest first',
        body: Type.Object({ status: Type.Optional(Text(30)), text: Type.Optional(Text(100)), page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })), pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) }),
        response: Any,
      },
    },
    (request) => inbound.listAsns(db, actorOf(request), request.body),
  );

  app.post(
    '/asn/getHeader',
    { config: { access: ASN_VIEW }, schema: { tags: ['inbound'], summary: 'One ASN header with its totals', body: Type.Object({ id: IdSchema }), response: Any } },
    (request) => inbound.asnHeader(db, actorOf(request), request.body.id),
  );

  app.post(
    '/asn/getDetail',
    { config: { access: ASN_VIEW }, schema: { tags: ['inbound'], summary: 'The lines of one ASN', body: Type.Object({ id: IdSchema }), response: Any } },
    async (request) => ({ lines: await inbound.asnDetail(db, actorOf(request), request.body.id) }),
  );

  app.post(
    '/asn/saveHeader',
    {
      config: { access: ASN_EDIT },
      schema: {
        tags: ['inbound'],
        summary: 'Adds an ASN (no id) or changes its header',
        body: Type.Object({ id: Type.Optional(IdSchema), ownerCode: Type.Optional(Code), supplierCode: OptText(), expectedDate: DateText, remark: OptText(400) }, { additionalProperties: false }),
        response: Any,
      },
    },
    (request) => write(request, (trx, actor) => inbound.saveAsnHeader(trx, actor, request.body)),
  );

  app.post(
    '/asn/saveDetail',
    {
      config: { access: ASN_EDIT },
      schema: {
        tags: ['inbound'],
        summary: 'Adds, changes and deletes lines of a new ASN',
        body: Type.Object(
          { asnId: IdSchema, lines: Type.Array(AsnLine, { maxItems: 1000 }), deleteLineIds: Type.Optional(Type.Array(IdSchema, { maxItems: 1000 })) },
          { additionalProperties: false },
        ),
        response: Any,
      },
    },
    async (request) => {
      await write(request, (trx, actor) => inbound.saveAsnDetail(trx, actor, request.body.asnId, request.body.lines, request.body.deleteLineIds));
      return { lines: await inbound.asnDetail(db, actorOf(request), request.body.asnId) };
    },
  );

  app.post(
    '/asn/deletelist',
    {
      config: { access: ASN_DELETE },
      schema: { tags: ['inbound'], summary: 'Deletes new ASNs (status deleted)', body: Type.Object({ ids: Type.Array(IdSchema, { minItems: 1, maxItems: 100 }) }), response: Any },
    },
    async (request) => {
      await write(request, (trx, actor) => inbound.deleteAsns(trx, actor, request.body.ids));
      return { ok: true };
    },
  );

  app.post(
    '/asn/cancel',
    {
      config: { access: { right: 'inbound.asn:cancel', scope: 'warehouse' } },
      schema: { tags: ['inbound'], summary: 'Cancels an ASN with nothing received (cannot be undone)', body: Type.Object({ id: IdSchema }), response: Any },
    },
    async (request) => {
      await write(request, (trx, actor) => inbound.cancelAsn(trx, actor, request.body.id));
      return { ok: true };
    },
  );

  app.post(
    '/asn/close',
    {
      config: { access: { right: 'inbound.asn:close', scope: 'warehouse' } },
      schema: { tags: ['inbound'], summary: 'Closes a put-away ASN', body: Type.Object({ id: IdSchema }), response: Any },
    },
    async (request) => {
      await write(request, (trx, actor) => inbound.closeAsn(trx, actor, request.body.id));
      return { ok: true };
    },
  );

  app.post(
    '/asn/fromPo',
    {
      config: { access: ASN_ADD },
      schema: {
        tags: ['inbound'],
        summary: 'Creates an ASN from what is still open on a purchase order',
        body: Type.Object(
          { poId: IdSchema, lines: Type.Optional(Type.Array(Type.Object({ poLineId: IdSchema, qty: Qty }, { additionalProperties: false }), { minItems: 1, maxItems: 1000 })) },
          { additionalProperties: false },
        ),
        response: Any,
      },
    },
    (request) => write(request, (trx, actor) => inbound.createAsnFromPo(trx, actor, request.body.poId, request.body.lines)),
  );

  // ------------------------------------------------------------ receiving
  app.post(
    '/rec/batch/editor',
    {
      config: { access: ASN_VIEW },
      schema: { tags: ['inbound'], summary: 'Batch receive lines matching a query text (more than 4 characters)', body: Type.Object({ text: Text(100) }), response: Any },
    },
    async (request) => ({ lines: await inbound.batchReceiveLines(db, actorOf(request), request.body.text) }),
  );

  app.post(
    '/inbound/batch/receive',
    {
      config: { access: RECEIVE },
      schema: {
        tags: ['inbound'],
        summary: 'Receives ASN lines (batch receive, handheld receiving)',
        body: Type.Object({ lines: Type.Array(ReceiveLine, { minItems: 1, maxItems: 1000 }) }, { additionalProperties: false }),
        response: Any,
      },
    },
    async (request) => ({ receipts: await write(request, (trx, actor) => inbound.batchReceive(trx, actor, request.body.lines)) }),
  );

  app.post(
    '/rec/split',
    {
      config: { access: RECEIVE },
      schema: {
        tags: ['inbound'],
        summary: 'Splits part of a receipt line into a new line with changed fields',
        body: Type.Object(
          {
            receiptLineId: IdSchema,
            qty: Qty,
            changes: Type.Array(Type.Object({ field: Text(40), fromValue: OptText(), toValue: OptText() }, { additionalProperties: false }), { maxItems: 10 }),
          },
          { additionalProperties: false },
        ),
        response: Any,
      },
    },
    (request) => write(request, (trx, actor) => inbound.splitReceiptLine(trx, actor, request.body.receiptLineId, request.body.qty, request.body.changes)),
  );

  app.post(
    '/split/table',
    { config: { access: ASN_VIEW }, schema: { tags: ['inbound'], summary: 'Open receipt lines of an ASN and the fields a split may change', body: Type.Object({ asnId: IdSchema }), response: Any } },
    (request) => inbound.splitTable(db, actorOf(request), request.body.asnId),
  );

  // ------------------------------------------------------------ scan-in
  app.get(
    '/scanIn/way',
    { config: { access: ASN_VIEW }, schema: { tags: ['inbound'], summary: 'The ways to scan in', response: Any } },
    () => ({ ways: ['container', 'carton'] }),
  );

  app.post(
    '/scanin/id',
    { config: { access: RECEIVE }, schema: { tags: ['inbound'], summary: 'Scans a container or carton id', body: Type.Object({ code: Code }), response: Any } },
    (request) => write(request, (trx, actor) => inbound.scanInId(trx, actor, request.body.code)),
  );

  app.post(
    '/scan/table',
    { config: { access: ASN_VIEW }, schema: { tags: ['inbound'], summary: 'The cartons of a container', body: Type.Object({ containerId: Code }), response: Any } },
    async (request) => ({ cartons: await inbound.containerCartons(db, actorOf(request), request.body.containerId) }),
  );

  app.post(
    '/scan/show',
    { config: { access: ASN_VIEW }, schema: { tags: ['inbound'], summary: 'The scanned and received quantities of a container by SKU', body: Type.Object({ containerId: Code }), response: Any } },
    async (request) => ({ skus: await inbound.containerSkus(db, actorOf(request), request.body.containerId) }),
  );

  app.post(
    '/scanIn/listSku',
    { config: { access: ASN_VIEW }, schema: { tags: ['inbound'], summary: 'The SKUs of a container', body: Type.Object({ containerId: Code }), response: Any } },
    async (request) => ({ skus: await inbound.containerSkus(db, actorOf(request), request.body.containerId) }),
  );

  app.post(
    '/scan/cancel',
    { config: { access: RECEIVE }, schema: { tags: ['inbound'], summary: 'Undoes the scan of a carton or container', body: Type.Object({ code: Code }), response: Any } },
    async (request) => ({ cancelled: await write(request, (trx, actor) => inbound.cancelScan(trx, actor, request.body.code)) }),
  );

  app.post(
    '/scan/deleteContainerId',
    { config: { access: RECEIVE }, schema: { tags: ['inbound'], summary: 'Removes a container id and its cartons not yet received', body: Type.Object({ containerId: Code }), response: Any } },
    async (request) => ({ deleted: await write(request, (trx, actor) => inbound.deleteContainer(trx, actor, request.body.containerId)) }),
  );

  app.post(
    '/scanin/convertToRec',
    {
      config: { access: RECEIVE },
      schema: {
        tags: ['inbound'],
        summary: 'Receives the scanned cartons of a container at a location',
        body: Type.Object({ containerId: Code, locationCode: Type.String({ maxLength: 100 }), lpn: OptText() }, { additionalProperties: false }),
        response: Any,
      },
    },
    async (request) => ({ receipts: await write(request, (trx, actor) => inbound.convertContainerToReceipt(trx, actor, request.body.containerId, request.body.locationCode, request.body.lpn)) }),
  );

  // ------------------------------------------------------------ putaway
  app.get(
    '/putaway/tasks',
    { config: { access: PUTAWAY_VIEW }, schema: { tags: ['inbound'], summary: 'Open putaway tasks with their suggested locations', response: Any } },
    async (request) => ({ tasks: await inbound.putawayTasks(db, actorOf(request)) }),
  );

  app.post(
    '/putaway/find',
    { config: { access: PUTAWAY_VIEW }, schema: { tags: ['inbound'], summary: 'The open task of a scanned LPN, pallet or carton id', body: Type.Object({ code: Code }), response: Any } },
    async (request) => ({ taskId: await inbound.findTaskByScan(db, actorOf(request), request.body.code) }),
  );

  app.post(
    '/putaway/confirm',
    {
      config: { access: PUTAWAY_CONFIRM },
      schema: {
        tags: ['inbound'],
        summary: 'Confirms a putaway task (or part of it) at the scanned location',
        body: Type.Object({ taskId: IdSchema, locationCode: Type.String({ maxLength: 100 }), lpn: OptText(), reason: OptText(200), qty: Type.Optional(Qty) }, { additionalProperties: false }),
        response: Any,
      },
    },
    (request) => write(request, (trx, actor) => inbound.confirmPutaway(trx, actor, request.body)),
  );

  app.get(
    '/inbound/openWork',
    { config: { access: ASN_VIEW }, schema: { tags: ['inbound'], summary: 'ASNs by status and receipts waiting for putaway', response: Any } },
    (request) => inbound.inboundOpenWork(db, actorOf(request)),
  );
};
