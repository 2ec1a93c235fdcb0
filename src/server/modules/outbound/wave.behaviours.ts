import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import { defineBehaviour } from '../area.js';
import { defineSelectionBehaviour, keys, scopeOf } from './selection-behaviour.js';
import { findOwnerByCode } from './so-documents.repository.js';
import { findCandidateOrders, SELECTION_CAP } from './wave.repository.js';
import { batchUpdateReference, releaseWave, saveWave, unwaveWave } from './wave.service.js';

const OptText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
const OptDate = Type.Optional(Type.Union([Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), Type.Null()]));

/**
 * The create wave screen (a screen without a route): the orders without a wave that
 * match carrier, ship date, owner and zone, at most 100 of them, go on a new wave.
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
export const releaseWaveBehaviour = defineSelectionBehaviour({
  name: 'outbound.wave.release',
  right: 'outbound.wave:release',
  async run(trx, scope, waveIds) {
    const results = [];
    for (const waveId of waveIds) results.push(await releaseWave(trx, scope, waveId));
    const short = results.reduce((n, r) => n + r.allocation.shortages.length, 0);
    return { result: results, messageCode: short ? 'outbound.wave.releasedShort' : 'outbound.wave.released', messageParams: { tasks: results.reduce((n, r) => n + r.tasks, 0), lines: short } };
  },
});

/** Unwave: every order of the selected waves leaves its wave while nothing of it is picked; open tasks are cancelled, allocation stays. */
export const unwaveBehaviour = defineSelectionBehaviour({
  name: 'outbound.wave.unwave',
  right: 'outbound.wave:release',
  async run(trx, scope, waveIds) {
    let count = 0;
    for (const waveId of waveIds) count += (await unwaveWave(trx, scope, waveId)).count;
    return { result: { count }, messageCode: 'outbound.wave.unwaved', messageParams: { count } };
  },
});

/** Update reference: the reference typed in the dialog (empty clears it) is set on every selected wave, all or none. */
export const updateWaveReferenceBehaviour = defineBehaviour({
  name: 'outbound.wave.batchUpdateRef',
  right: 'outbound.wave:edit',
  inputs: Type.Object({ reference: OptText(100) }),
  async run({ trx, session, inputs, rows }) {
    const reference = inputs.reference?.trim() || null;
    const { count } = await batchUpdateReference(trx, scopeOf(session), keys(rows), reference);
    return { result: { count }, messageCode: reference ? 'outbound.wave.referenceUpdated' : 'outbound.wave.referenceCleared', messageParams: { count, reference: reference ?? '' } };
  },
});

export const waveBehaviours = [createWaveBehaviour, releaseWaveBehaviour, unwaveBehaviour, updateWaveReferenceBehaviour];
