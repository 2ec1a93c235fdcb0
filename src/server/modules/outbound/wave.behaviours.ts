import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import type { EngineSession } from '../../../../engine/server/index.js';
import { defineBehaviour } from '../area.js';
import type { StockScope } from '../inventory/inventory.service.js';
import { findCandidateOrders, findOwnerByCode, SELECTION_CAP } from './wave.repository.js';
import { releaseWave, saveWave, unwaveWave } from './wave.service.js';

function scopeOf(session: EngineSession): StockScope {
  if (session.projectId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'project' });
  if (session.warehouseId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
  return { projectId: session.projectId, warehouseId: session.warehouseId, operator: session.loginAccount };
}

const OptText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
const OptDate = Type.Optional(Type.Union([Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), Type.Null()]));

/**
 * The create wave screen (spec section 2, a screen without a route): the orders without a wave that
 * match carrier, ship date, owner and zone, at most 100 of them (spec section 5), go on a new wave.
 */
export const createWaveBehaviour = defineBehaviour({
  name: 'outbound.wave.create',
  // Making a wave writes (as /so/wave/save): the wave page's view right is not enough.
  right: 'outbound.wave:edit',
  inputs: Type.Object({ carrierCode: OptText(60), shipDateFrom: OptDate, shipDateTo: OptDate, ownerCode: OptText(60), zone: OptText(60) }),
  async run({ trx, session, inputs }) {
    const scope = scopeOf(session);
    let ownerId: number | null = null;
    if (inputs.ownerCode?.trim()) {
      const owner = await findOwnerByCode(trx, scope.projectId, inputs.ownerCode.trim());
      if (owner === undefined) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'ownerCode', code: 'FIELD_FOREIGN' }]);
      ownerId = owner;
    }
    const filters = { carrierCode: inputs.carrierCode?.trim() || null, shipDateFrom: inputs.shipDateFrom ?? null, shipDateTo: inputs.shipDateTo ?? null, ownerId, zone: inputs.zone?.trim() || null };
    const orders = (await findCandidateOrders(trx, scope.projectId, scope.warehouseId, filters)).slice(0, SELECTION_CAP);
    if (orders.length === 0) throw new AppError('NO_RECORD');
    const result = await saveWave(trx, scope, { ...filters, orderIds: orders.map((o) => o.id) });
    return { result, messageCode: 'outbound.wave.created', messageParams: { waveNo: result.waveNo, orders: result.orders } };
  },
});

/** Release: allocates every order of the wave and creates its pick tasks. */
export const releaseWaveBehaviour = defineBehaviour({
  name: 'outbound.wave.release',
  inputs: Type.Object({}),
  right: 'outbound.wave:release',
  async run({ trx, session, rows }) {
    const scope = scopeOf(session);
    const results = [];
    for (const row of rows) results.push(await releaseWave(trx, scope, Number(row._key)));
    const short = results.reduce((n, r) => n + r.allocation.shortages.length, 0);
    return { result: results, messageCode: short ? 'outbound.wave.releasedShort' : 'outbound.wave.released', messageParams: { tasks: results.reduce((n, r) => n + r.tasks, 0), lines: short } };
  },
});

/** Unwave: every order of the selected waves leaves its wave while nothing of it is picked; open tasks are cancelled, allocation stays. */
export const unwaveBehaviour = defineBehaviour({
  name: 'outbound.wave.unwave',
  inputs: Type.Object({}),
  right: 'outbound.wave:release',
  async run({ trx, session, rows }) {
    const scope = scopeOf(session);
    let count = 0;
    for (const row of rows) count += (await unwaveWave(trx, scope, Number(row._key))).count;
    return { result: { count }, messageCode: 'outbound.wave.unwaved', messageParams: { count } };
  },
});

export const waveBehaviours = [createWaveBehaviour, releaseWaveBehaviour, unwaveBehaviour];
