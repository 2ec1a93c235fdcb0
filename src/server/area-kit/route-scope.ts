import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import { requireProject, requireUser, requireWarehouse } from '../http/access-plugin.js';

/** The session's project and warehouse with the caller's login: the place a warehouse route works in. */
export interface WarehousePlace {
  projectId: number;
  warehouseId: number;
  operator: string;
}

/**
 * The place of a route limited to the session's warehouse. A caller without a chosen project or
 * warehouse is refused (OUT_OF_SCOPE) before anything is read or written.
 */
export function warehousePlaceOf(request: FastifyRequest): WarehousePlace {
  const user = requireUser(request);
  return { projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId, operator: user.loginAccount };
}

/**
 * A route's write runner: the caller's place is read from the request first (so a caller out of
 * scope is refused before a transaction opens), then the work runs in one transaction with it.
 */
export function placeWriter<Place>(db: Kysely<DB>, placeOf: (request: FastifyRequest) => Place) {
  return <T>(request: FastifyRequest, work: (trx: Transaction<DB>, place: Place) => Promise<T>): Promise<T> => {
    const place = placeOf(request);
    return inTransaction(db, (trx) => work(trx, place));
  };
}
