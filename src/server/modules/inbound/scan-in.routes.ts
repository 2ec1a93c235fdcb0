import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { CancelScanAnswer, ContainerCartonsAnswer, ContainerSkusAnswer, DeleteContainerAnswer, ReceiveAnswer, ScanInAnswer, ScanWaysAnswer } from '../../../common/inbound-api.js';
import { withIdempotency } from '../../area-kit/idempotency.js';
import { StrictObject } from '../../http/schemas.js';
import { ASN_VIEW, actorOf, Code, OptText, RECEIVE, route, writerOf } from './inbound.http.js';
import { cancelScan, containerCartons, containerSkus, convertContainerToReceipt, deleteContainer, scanInId } from './scan-in.service.js';

const Container = Type.Object({ containerId: Code });

/** Scan-in: /scanIn/*, /scanin/* and /scan/*, by container or carton id. */
export const scanInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const write = writerOf(app);

  app.get('/scanIn/way', route(ASN_VIEW, 'The ways to scan in'), (): ScanWaysAnswer => ({ ways: ['container', 'carton'] }));

  app.post(
    '/scanin/id',
    route(RECEIVE, 'Scans a container or carton id (a carton with its EPC, carton type and anti-counterfeit code; a container with those of each carton)', {
      body: StrictObject({
        code: Code,
        epc: OptText(),
        cartonType: OptText(40),
        antiCounterfeitCode: OptText(),
        cartons: Type.Optional(Type.Array(StrictObject({ cartonId: Code, epc: OptText(), cartonType: OptText(40), antiCounterfeitCode: OptText() }), { maxItems: 1000 })),
      }),
    }),
    (request): Promise<ScanInAnswer> => write(request, (trx, actor) => withIdempotency(request, trx, () => scanInId(trx, actor, request.body.code, request.body))),
  );

  app.post(
    '/scan/table',
    route(ASN_VIEW, 'The cartons of a container', { body: Container }),
    async (request): Promise<ContainerCartonsAnswer> => ({ cartons: await containerCartons(db, actorOf(request), request.body.containerId) }),
  );

  // The scanned and received quantities by SKU, under both of the screen's names.
  for (const [url, summary] of [
    ['/scan/show', 'The scanned and received quantities of a container by SKU'],
    ['/scanIn/listSku', 'The SKUs of a container'],
  ] as const) {
    app.post(url, route(ASN_VIEW, summary, { body: Container }), async (request): Promise<ContainerSkusAnswer> => ({
      skus: await containerSkus(db, actorOf(request), request.body.containerId),
    }));
  }

  app.post(
    '/scan/cancel',
    route(RECEIVE, 'Undoes the scan of a carton or container', { body: Type.Object({ code: Code }) }),
    async (request): Promise<CancelScanAnswer> => ({ cancelled: await write(request, (trx, actor) => cancelScan(trx, actor, request.body.code)) }),
  );

  app.post(
    '/scan/deleteContainerId',
    route(RECEIVE, 'Removes a container id and its cartons not yet received', { body: Container }),
    async (request): Promise<DeleteContainerAnswer> => ({ deleted: await write(request, (trx, actor) => deleteContainer(trx, actor, request.body.containerId)) }),
  );

  app.post(
    '/scanin/convertToRec',
    route(RECEIVE, 'Receives the scanned cartons of a container at a location', {
      body: StrictObject({ containerId: Code, locationCode: Type.String({ maxLength: 100 }), lpn: OptText() }),
    }),
    async (request): Promise<ReceiveAnswer> => ({
      receipts: await write(request, (trx, actor) => withIdempotency(request, trx, () => convertContainerToReceipt(trx, actor, request.body.containerId, request.body.locationCode, request.body.lpn))),
    }),
  );
};
