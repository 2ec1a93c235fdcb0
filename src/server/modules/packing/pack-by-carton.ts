import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import { appliedScan } from '../../area-kit/idempotency.js';
import type { DB } from '../../db/schema.js';
import type { StockScope } from '../inventory/index.js';
import { findPackingOrder } from '../outbound/index.js';
import * as repo from './packing.repository.js';
import { scannedUnitCode } from './pallet.service.js';
import { startPacking, type CartonAnswer, type PackAnswer } from './packing.service.js';

/**
 * Packing found by a carton, and cartons named by the scan that opened them (docs/packing.md,
 * "Handhelds"): a packer scans a carton (its number, its SSCC, or its GS1-128 label) to go on
 * packing it, and a handheld that opened a carton while offline names it by the idempotency key of
 * that opening until it knows the carton's id.
 */

/**
 * `/scanPack/carton`: starts packing the order of a scanned open carton of the scope (as `/scanPack`
 * does by the order's number), with that carton. A carton that is not there is NO_RECORD, a closed one
 * CARTON_CLOSED (it takes nothing until it is reopened). Reads only.
 */
export async function startPackingByCarton(db: Kysely<DB>, scope: StockScope, scanned: string): Promise<PackAnswer & { carton: CartonAnswer }> {
  const code = scannedUnitCode(scanned);
  if (!code) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'code', code: 'FIELD_REQUIRED' }]);
  const carton = await repo.findCartonByCode(db, scope, code);
  if (!carton) throw new AppError('NO_RECORD');
  if (carton.status !== 'open') throw new AppError('CARTON_CLOSED', { cartonNo: carton.carton_no });
  const order = await findPackingOrder(db, scope, { soId: Number(carton.so_id) });
  if (!order) throw new AppError('NO_RECORD');
  const answer = await startPacking(db, scope, { orderNo: order.orderNo });
  const found = answer.cartons.find((c) => c.id === Number(carton.id));
  if (!found) throw new AppError('NO_RECORD');
  return { ...answer, carton: found };
}

/** What `/pack/scan/open` answers: the order as packing sees it, with the carton it opened. */
export function withOpened(answer: PackAnswer): PackAnswer & { opened: CartonAnswer } {
  // The order is locked while the carton is opened: the carton it opened is its newest.
  const opened = answer.cartons.reduce((newest, c) => (c.id > newest.id ? c : newest));
  return { ...answer, opened };
}

/**
 * The carton a scan names: `cartonId`, or `cartonKey`, the idempotency key with which the same
 * user opened it (`/pack/scan/open`). A key that opened nothing (never sent, refused, another
 * scan's, purged) is PACK_CARTON_KEY_UNKNOWN; exactly one of the two is given.
 */
export async function cartonIdOf(trx: Transaction<DB>, request: FastifyRequest, input: { cartonId?: number; cartonKey?: string }): Promise<number> {
  if (input.cartonId !== undefined && input.cartonKey !== undefined) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'cartonKey', code: 'FIELD_RANGE' }]);
  if (input.cartonId !== undefined) return input.cartonId;
  if (input.cartonKey === undefined) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'cartonId', code: 'FIELD_REQUIRED' }]);
  if (!request.user) throw new AppError('UNAUTHENTICATED');
  const applied = await appliedScan(trx, request.user.userId, input.cartonKey);
  const opened = (applied?.answer as { opened?: { id?: unknown } } | null | undefined)?.opened?.id;
  if (typeof opened !== 'number') throw new AppError('PACK_CARTON_KEY_UNKNOWN');
  return opened;
}
