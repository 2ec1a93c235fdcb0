import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdSchema, StrictObject } from '../../http/schemas.js';
import * as asns from './asn.service.js';
import { ASN_ADD, ASN_CANCEL, ASN_CLOSE, ASN_DELETE, ASN_EDIT, ASN_VIEW, actorOf, Code, DateText, LotFields, OptText, Qty, route, Text, writerOf } from './inbound.http.js';
import { createAsnFromPo } from './po.service.js';

const AsnLine = StrictObject({
  id: Type.Optional(IdSchema),
  skuCode: Code,
  expectedQty: Qty,
  uom: OptText(20),
  ...LotFields,
  cartons: Type.Optional(Type.Array(StrictObject({ containerId: Code, cartonId: Code, qty: Qty }), { maxItems: 1000 })),
});

/**
 * The ASN calls: /asn/* (list, getHeader, getDetail, saveHeader, saveDetail, deletelist, cancel,
 * close and creation from a purchase order) and the warehouse's open inbound work. All are limited
 * to the session's project and warehouse.
 */
export const asnRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const write = writerOf(app);

  app.post(
    '/asn/list',
    route(ASN_VIEW, 'ASNs of the warehouse, newest first', {
      body: Type.Object({ status: Type.Optional(Text(30)), text: Type.Optional(Text(100)), page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })), pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) }),
    }),
    (request) => asns.listAsns(db, actorOf(request), request.body),
  );

  app.post('/asn/getHeader', route(ASN_VIEW, 'One ASN header with its totals', { body: Type.Object({ id: IdSchema }) }), (request) => asns.asnHeader(db, actorOf(request), request.body.id));

  app.post('/asn/getDetail', route(ASN_VIEW, 'The lines of one ASN', { body: Type.Object({ id: IdSchema }) }), async (request) => ({
    lines: await asns.asnDetail(db, actorOf(request), request.body.id),
  }));

  app.post(
    '/asn/saveHeader',
    route(ASN_EDIT, 'Adds an ASN (no id) or changes its header', {
      body: StrictObject({ id: Type.Optional(IdSchema), ownerCode: Type.Optional(Code), supplierCode: OptText(), expectedDate: DateText, remark: OptText(400) }),
    }),
    (request) => write(request, (trx, actor) => asns.saveAsnHeader(trx, actor, request.body)),
  );

  app.post(
    '/asn/saveDetail',
    route(ASN_EDIT, 'Adds, changes and deletes lines of a new ASN', {
      body: StrictObject({ asnId: IdSchema, lines: Type.Array(AsnLine, { maxItems: 1000 }), deleteLineIds: Type.Optional(Type.Array(IdSchema, { maxItems: 1000 })) }),
    }),
    async (request) => {
      await write(request, (trx, actor) => asns.saveAsnDetail(trx, actor, request.body.asnId, request.body.lines, request.body.deleteLineIds));
      return { lines: await asns.asnDetail(db, actorOf(request), request.body.asnId) };
    },
  );

  app.post('/asn/deletelist', route(ASN_DELETE, 'Deletes new ASNs (status deleted)', { body: Type.Object({ ids: Type.Array(IdSchema, { minItems: 1, maxItems: 100 }) }) }), async (request) => {
    await write(request, (trx, actor) => asns.deleteAsns(trx, actor, request.body.ids));
    return { ok: true };
  });

  // Cancel and close: one ASN each, answered { ok: true }.
  for (const [url, access, summary, change] of [
    ['/asn/cancel', ASN_CANCEL, 'Cancels an ASN with nothing received (cannot be undone)', asns.cancelAsn],
    ['/asn/close', ASN_CLOSE, 'Closes a put-away ASN', asns.closeAsn],
  ] as const) {
    app.post(url, route(access, summary, { body: Type.Object({ id: IdSchema }) }), async (request) => {
      await write(request, (trx, actor) => change(trx, actor, request.body.id));
      return { ok: true };
    });
  }

  app.post(
    '/asn/fromPo',
    route(ASN_ADD, 'Creates an ASN from what is still open on a purchase order', {
      body: StrictObject({ poId: IdSchema, lines: Type.Optional(Type.Array(StrictObject({ poLineId: IdSchema, qty: Qty }), { minItems: 1, maxItems: 1000 })) }),
    }),
    (request) => write(request, (trx, actor) => createAsnFromPo(trx, actor, request.body.poId, request.body.lines)),
  );

  app.get('/inbound/openWork', route(ASN_VIEW, 'ASNs by status and receipts waiting for putaway'), (request) => asns.inboundOpenWork(db, actorOf(request)));
};
