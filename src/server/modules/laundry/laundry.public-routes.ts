import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import { LAUNDRY_DEVICE_HEADER } from '../../../common/laundry-api.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import type { Transaction } from 'kysely';
import { hashDeviceKey, isDeviceKeyShaped } from './laundry.device-key.js';
import {
  addToBatch,
  customerInfo,
  findDevice,
  finishBatch,
  laundryCounts,
  laundryView,
  openBatches,
  receiveGarment,
  returnGarment,
  startBatch,
  touchDevice,
  type LaundryDb,
  type LaundryDevice,
} from './laundry.repository.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The laundry device of a public /moose call, once its key was checked. */
    laundryDevice?: LaundryDevice;
  }
}

/**
 * The public routes' limits, per minute: one device (a person scanning does not reach it) and one
 * address (the phones of one shop behind one router, and every guess of a key from it).
 */
export const LAUNDRY_RATE_LIMITS = { perDevice: 120, perAddress: 300, windowMs: 60_000 } as const;

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 429: ErrorBodySchema };
const route = routeOptions(['laundry'], errors);
const PUBLIC = { public: true } as const;

const Tag = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._/-]+$' });
const CustomerCode = Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9]+$' });

function deviceOf(request: FastifyRequest): LaundryDevice {
  if (!request.laundryDevice) throw new AppError('LAUNDRY_DEVICE_KEY_MISSING');
  return request.laundryDevice;
}

/**
 * The laundry's public screens (docs/laundry.md): no session, but every call carries a device key
 * in `X-Laundry-Device`, checked before the body is read; the device's project and warehouse bound
 * everything the call reads or writes, and a customer's data needs that customer's code. The
 * services see only the laundry's tables. Each write is one transaction, recorded with the device.
 */
export const laundryPublicRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = laundryView(app.database.db);
  // Two counters on one request: `createRateLimit` counts without the plugin's once-per-request
  // mark, which would let only the first of two `rateLimit` hooks count.
  const limit = (by: 'device' | 'address', max: number, key: (request: FastifyRequest) => string) => {
    const count = app.createRateLimit({ max, timeWindow: LAUNDRY_RATE_LIMITS.windowMs, keyGenerator: key });
    return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const state = await count(request);
      if (state.isAllowed || !state.isExceeded) return;
      void reply.header('retry-after', state.ttlInSeconds);
      throw new AppError(by === 'device' ? 'LAUNDRY_TOO_MANY_FROM_DEVICE' : 'LAUNDRY_TOO_MANY_FROM_ADDRESS', { seconds: state.ttlInSeconds });
    };
  };
  const perAddress = limit('address', LAUNDRY_RATE_LIMITS.perAddress, (request) => `laundry|ip|${request.ip}`);
  const perDevice = limit('device', LAUNDRY_RATE_LIMITS.perDevice, (request) => `laundry|device|${request.laundryDevice?.id ?? 'none'}`);

  async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const header = request.headers[LAUNDRY_DEVICE_HEADER];
    const key = typeof header === 'string' ? header.trim() : '';
    if (!key) throw new AppError('LAUNDRY_DEVICE_KEY_MISSING');
    const device = isDeviceKeyShaped(key) ? await findDevice(db, hashDeviceKey(key)) : undefined;
    if (!device) throw new AppError('LAUNDRY_DEVICE_UNKNOWN');
    if (device.revoked_at !== null) throw new AppError('LAUNDRY_DEVICE_REVOKED');
    request.laundryDevice = { id: Number(device.id), name: device.name, projectId: Number(device.project_id), warehouseId: Number(device.warehouse_id) };
    const lastUsed = device.last_used_at ? new Date(device.last_used_at).getTime() : 0;
    if (Date.now() - lastUsed > 60_000) await touchDevice(db, Number(device.id));
  }

  // The address is counted before the key is looked at, so guessing keys is limited too.
  const guarded = { onRequest: [perAddress, authenticate, perDevice] };
  const write = <T>(request: FastifyRequest, work: (trx: Transaction<LaundryDb>, device: LaundryDevice) => Promise<T>) => {
    const device = deviceOf(request);
    return inTransaction(app.database.db, (trx: Transaction<DB>) => work(laundryView(trx), device));
  };

  app.post('/moose/device', { ...route(PUBLIC, 'The calling laundry device (checks its key)', { body: Type.Optional(StrictObject({})) }), ...guarded }, (request) => ({
    name: deviceOf(request).name,
  }));

  app.post('/moose/counts', { ...route(PUBLIC, "Today's received and returned garments, and those washing and cleaned now, of the device's warehouse", { body: Type.Optional(StrictObject({})) }), ...guarded }, (request) =>
    laundryCounts(db, deviceOf(request)),
  );

  app.post('/moose/query', { ...route(PUBLIC, "A customer by their code, with their garments and each garment's status", { body: StrictObject({ customerCode: CustomerCode }) }), ...guarded }, (request) =>
    customerInfo(db, deviceOf(request), request.body.customerCode),
  );

  app.post('/moose/receive', { ...route(PUBLIC, 'Receives a garment by its tag for a customer (status received)', { body: StrictObject({ customerCode: CustomerCode, tag: Tag }) }), ...guarded }, (request) =>
    write(request, (trx, device) => receiveGarment(trx, device, request.body)),
  );

  app.post('/moose/batches', { ...route(PUBLIC, "The warehouse's washing batches still washing, with their tags", { body: Type.Optional(StrictObject({})) }), ...guarded }, (request) =>
    openBatches(db, deviceOf(request)).then((rows) => ({ rows })),
  );

  app.post('/moose/batch/start', { ...route(PUBLIC, 'Starts a washing batch', { body: Type.Optional(StrictObject({})) }), ...guarded }, (request) =>
    write(request, (trx, device) => startBatch(trx, device)),
  );

  app.post('/moose/batch/add', { ...route(PUBLIC, 'Puts a received garment into a washing batch (status washing)', { body: StrictObject({ batchId: IdSchema, tag: Tag }) }), ...guarded }, (request) =>
    write(request, (trx, device) => addToBatch(trx, device, request.body)),
  );

  app.post('/moose/clean', { ...route(PUBLIC, 'Finishes washing a batch: its garments are cleaned', { body: StrictObject({ batchId: IdSchema }) }), ...guarded }, (request) =>
    write(request, (trx, device) => finishBatch(trx, device, request.body.batchId)),
  );

  app.post('/moose/return', { ...route(PUBLIC, 'Returns a cleaned garment to its customer (status returned)', { body: StrictObject({ customerCode: CustomerCode, tag: Tag }) }), ...guarded }, (request) =>
    write(request, (trx, device) => returnGarment(trx, device, request.body)),
  );
};
