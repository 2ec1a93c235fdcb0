import Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { ContainerCarton, ContainerSku, ReceiveResult, ScanInAnswer } from '../../../common/inbound-api.js';
import type { DB } from '../../db/schema.js';
import { RECEIVABLE } from './asn-status.js';
import { findAsn } from './asn.repository.js';
import * as repo from './carton.repository.js';
import { assertCartonIdPattern, type Actor, type Scope } from './inbound.common.js';
import { receiveAsnLines } from './receiving.service.js';

/**
 * Scan-in (/scanin/*, /scan/*): the cartons announced on ASN lines are scanned by carton or by
 * container, and the scanned cartons of a container are received at a location in one go.
 */

/** What the operator records of a carton scanned in: its EPC and carton type, and the anti-counterfeit code unless the item is a gift. */
export interface CartonScanDetails {
  epc?: string | null;
  cartonType?: string | null;
  antiCounterfeitCode?: string | null;
}

/**
 * Scanning a carton id marks it scanned, recording its EPC, carton type and anti-counterfeit code
 * (each required, the code not for a gift); scanning a container id marks all its open cartons. An
 * unknown code must still look like a carton id before it is reported as not existing.
 */
export async function scanInId(trx: Transaction<DB>, actor: Actor, code: string, details: CartonScanDetails = {}): Promise<ScanInAnswer> {
  const id = code.trim();
  const carton = await repo.lockCarton(trx, actor, id);
  if (carton) {
    if (carton.status === 'received') throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
    await assertAsnReceivable(trx, actor, carton.asn_id);
    const epc = details.epc?.trim() ?? '';
    const cartonType = details.cartonType?.trim() ?? '';
    const antiCounterfeitCode = details.antiCounterfeitCode?.trim() ?? '';
    if (!epc) throw new AppError('EPC_REQUIRED', {}, [{ field: 'epc', code: 'EPC_REQUIRED' }]);
    if (!cartonType) throw new AppError('CARTON_TYPE_REQUIRED', {}, [{ field: 'cartonType', code: 'CARTON_TYPE_REQUIRED' }]);
    if (!antiCounterfeitCode && !(await repo.isGiftLine(trx, carton.asn_line_id))) {
      throw new AppError('ANTI_COUNTERFEIT_REQUIRED', {}, [{ field: 'antiCounterfeitCode', code: 'ANTI_COUNTERFEIT_REQUIRED' }]);
    }
    if (carton.status === 'open') await repo.setCartonStatus(trx, [carton.id], 'scanned', actor.login);
    await repo.recordCartonScan(trx, carton.id, { epc, carton_type: cartonType, anti_counterfeit_code: antiCounterfeitCode || null });
    return { kind: 'carton', containerId: carton.container_id, cartons: await repo.cartonsOfContainer(trx, actor, carton.container_id) };
  }
  const cartons = await repo.lockCartonsOfContainer(trx, actor, id, ['open', 'scanned']);
  if (cartons.length === 0) {
    assertCartonIdPattern(id, 'code');
    throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
  }
  for (const asnId of new Set(cartons.map((c) => c.asn_id))) await assertAsnReceivable(trx, actor, asnId);
  await repo.setCartonStatus(trx, cartons.filter((c) => c.status === 'open').map((c) => c.id), 'scanned', actor.login);
  return { kind: 'container', containerId: id, cartons: await repo.cartonsOfContainer(trx, actor, id) };
}

async function assertAsnReceivable(db: Kysely<DB>, actor: Scope, asnId: number) {
  const asn = await findAsn(db, actor, asnId);
  if (!asn || !(RECEIVABLE as readonly string[]).includes(asn.status)) throw new AppError('ORDER_STATUS_ERROR', { status: asn?.status ?? '' });
}

export async function containerCartons(db: Kysely<DB>, actor: Scope, containerId: string): Promise<ContainerCarton[]> {
  const cartons = await repo.cartonsOfContainer(db, actor, containerId.trim());
  if (cartons.length === 0) throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
  return cartons;
}

/** The SKUs of a container with their quantities: announced, scanned and received. */
export async function containerSkus(db: Kysely<DB>, actor: Scope, containerId: string): Promise<ContainerSku[]> {
  const cartons = await containerCartons(db, actor, containerId);
  const bySku = new Map<string, { skuCode: string; description: string; cartons: number; qty: Decimal; scannedQty: Decimal; receivedQty: Decimal }>();
  for (const c of cartons) {
    const entry = bySku.get(c.sku_code) ?? { skuCode: c.sku_code, description: c.sku_description, cartons: 0, qty: new Decimal(0), scannedQty: new Decimal(0), receivedQty: new Decimal(0) };
    entry.cartons += 1;
    entry.qty = entry.qty.plus(c.qty);
    if (c.status === 'scanned') entry.scannedQty = entry.scannedQty.plus(c.qty);
    if (c.status === 'received') entry.receivedQty = entry.receivedQty.plus(c.qty);
    bySku.set(c.sku_code, entry);
  }
  return [...bySku.values()].map((e) => ({ ...e, qty: e.qty.toString(), scannedQty: e.scannedQty.toString(), receivedQty: e.receivedQty.toString() }));
}

/** Undoes the scan of a carton, or of every scanned carton of a container. */
export async function cancelScan(trx: Transaction<DB>, actor: Actor, code: string): Promise<number> {
  const carton = await repo.lockCarton(trx, actor, code.trim());
  const cartons = carton ? [carton] : await repo.lockCartonsOfContainer(trx, actor, code.trim(), ['scanned']);
  const scanned = cartons.filter((c) => c.status === 'scanned');
  if (scanned.length === 0) throw new AppError('NO_PICKED_STOCK');
  await repo.setCartonStatus(trx, scanned.map((c) => c.id), 'open', actor.login);
  return scanned.length;
}

/** Removes a container id and its cartons that are not received yet. */
export async function deleteContainer(trx: Transaction<DB>, actor: Actor, containerId: string): Promise<number> {
  const cartons = await repo.lockCartonsOfContainer(trx, actor, containerId.trim(), ['open', 'scanned']);
  if (cartons.length === 0) throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
  for (const asnId of new Set(cartons.map((c) => c.asn_id))) await assertAsnReceivable(trx, actor, asnId);
  return repo.deleteCartons(trx, cartons.map((c) => c.id));
}

/**
 * Converts the scanned cartons of a container into a receipt at a location: one receipt line per
 * carton (carton id kept on the lot). A container with no scanned carton has nothing to receive:
 * "no picked stock in this container".
 */
export async function convertContainerToReceipt(trx: Transaction<DB>, actor: Actor, containerId: string, locationCode: string, lpn?: string | null): Promise<ReceiveResult[]> {
  const cartons = await repo.lockCartonsOfContainer(trx, actor, containerId.trim(), ['open', 'scanned']);
  const scanned = cartons.filter((c) => c.status === 'scanned');
  if (scanned.length === 0) {
    if (cartons.length === 0 && (await repo.cartonsOfContainer(trx, actor, containerId.trim())).length === 0) throw new AppError('CONTAINER_NOT_FOUND_OR_RECEIVED');
    throw new AppError('NO_PICKED_STOCK');
  }
  const results: ReceiveResult[] = [];
  for (const asnId of [...new Set(scanned.map((c) => c.asn_id))].sort((a, b) => a - b)) {
    const mine = scanned.filter((c) => c.asn_id === asnId);
    const cartonOf = new Map(mine.map((c, i) => [i, [c.id]]));
    const lines = mine.map((c) => ({ asnLineId: c.asn_line_id, qty: c.qty, locationCode, cartonId: c.carton_id, lpn: lpn ?? null }));
    results.push(await receiveAsnLines(trx, actor, asnId, lines, 'scan', cartonOf));
  }
  return results;
}
