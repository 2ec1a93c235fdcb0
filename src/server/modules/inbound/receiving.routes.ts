import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ReceivableLinesAnswer, ReceiveAnswer } from '../../../common/inbound-api.js';
import { withIdempotency } from '../../area-kit/idempotency.js';
import { Quantity } from '../../http/quantity-schema.js';
import { IdSchema, StrictObject } from '../../http/schemas.js';
import { ASN_VIEW, actorOf, LotFields, OptText, Qty, RECEIVE, route, Text, writerOf } from './inbound.http.js';
import { batchReceive, batchReceiveLines } from './receiving.service.js';
import { splitReceiptLine, splitTable } from './split.service.js';

const ReceiveLine = StrictObject({
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
});

/** Receiving: the batch receive search and receipt (also the handheld's), and the split of a receipt line. */
export const receivingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const write = writerOf(app);

  app.post(
    '/rec/batch/editor',
    route(ASN_VIEW, 'Batch receive lines matching a query text (more than 4 characters)', { body: Type.Object({ text: Text(100) }) }),
    async (request): Promise<ReceivableLinesAnswer> => ({ lines: await batchReceiveLines(db, actorOf(request), request.body.text) }),
  );

  app.post(
    '/inbound/batch/receive',
    route(RECEIVE, 'Receives ASN lines (batch receive, handheld receiving; an Idempotency-Key applies it once)', { body: StrictObject({ lines: Type.Array(ReceiveLine, { minItems: 1, maxItems: 1000 }) }) }),
    async (request): Promise<ReceiveAnswer> => ({ receipts: await write(request, (trx, actor) => withIdempotency(request, trx, () => batchReceive(trx, actor, request.body.lines))) }),
  );

  app.post(
    '/rec/split',
    route(RECEIVE, 'Splits part of a receipt line into a new line with changed fields', {
      body: StrictObject({
        receiptLineId: IdSchema,
        qty: Qty,
        changes: Type.Array(StrictObject({ field: Text(40), fromValue: OptText(), toValue: OptText() }), { maxItems: 10 }),
      }),
    }),
    (request) => write(request, (trx, actor) => splitReceiptLine(trx, actor, request.body.receiptLineId, request.body.qty, request.body.changes)),
  );

  app.post('/split/table', route(ASN_VIEW, 'Open receipt lines of an ASN and the fields a split may change', { body: Type.Object({ asnId: IdSchema }) }), (request) =>
    splitTable(db, actorOf(request), request.body.asnId),
  );
};
