import { AppError } from '../../../common/errors.js';
import type { LocationType } from './masterdata.tables.js';
import type { GenerateLocationsInput } from './location-generator.service.js';

/** The registered action name the /loa definition's "generate" behaviour names. */
export const GENERATE_LOCATIONS_ACTION = 'masterdata.location.generate';

/**
 * Reads the inputs of the "generate locations" dialog (`inputs` of /api/generic/behavior):
 * aisleFrom/aisleTo, bayFrom/bayTo, levelFrom/levelTo (required), positionFrom/positionTo,
 * separator, zone, locationType, maxPallets, maxWeightKg, maxVolumeCm3 (optional). The warehouse is
 * always the session's, never an input.
 */
export function readGenerateLocationsInputs(inputs: Record<string, unknown> | undefined, warehouseId: number): GenerateLocationsInput {
  const values = inputs ?? {};
  const text = (name: string): string | undefined => {
    const value = values[name];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string' && typeof value !== 'number') throw new AppError('LOCATION_RANGE_INVALID', { reason: `${name} must be text` });
    return String(value).trim();
  };
  const required = (name: string): string => {
    const value = text(name);
    if (value === undefined) throw new AppError('LOCATION_RANGE_INVALID', { reason: `${name} is required` });
    return value;
  };
  const positionFrom = text('positionFrom');
  const positionTo = text('positionTo');
  if ((positionFrom === undefined) !== (positionTo === undefined)) {
    throw new AppError('LOCATION_RANGE_INVALID', { reason: 'positionFrom and positionTo go together' });
  }
  const maxPallets = text('maxPallets');
  if (maxPallets !== undefined && !/^\d+$/.test(maxPallets)) {
    throw new AppError('LOCATION_RANGE_INVALID', { reason: 'the pallet capacity must be a whole number of 0 or more' });
  }
  return {
    warehouseId,
    aisle: { from: required('aisleFrom'), to: required('aisleTo') },
    bay: { from: required('bayFrom'), to: required('bayTo') },
    level: { from: required('levelFrom'), to: required('levelTo') },
    position: positionFrom !== undefined && positionTo !== undefined ? { from: positionFrom, to: positionTo } : null,
    separator: text('separator') ?? '-',
    zone: text('zone') ?? null,
    locationType: (text('locationType') ?? 'storage') as LocationType,
    maxPallets: maxPallets === undefined ? null : Number(maxPallets),
    maxWeightKg: text('maxWeightKg') ?? null,
    maxVolumeCm3: text('maxVolumeCm3') ?? null,
  };
}
