import { AppError } from '../../../../common/errors.js';

const LIMITS = { latitude: 90, longitude: 180 } as const;
const DECIMAL = /^-?\d{1,3}(\.\d{1,7})?$/;

/**
 * A user's position (the latitude and longitude of the /user form and of `POST /api/user/save`):
 * each empty, or a decimal with at most 7 places within -90..90 and -180..180. Problems are refused
 * together as VALIDATION_FAILED with one detail per field; `fields` names the answer's field keys.
 */
export function assertCoordinates(values: Record<string, unknown>, fields: { latitude: string; longitude: string } = { latitude: 'latitude', longitude: 'longitude' }): void {
  const problems: { field: string; code: string }[] = [];
  for (const column of ['latitude', 'longitude'] as const) {
    const value = values[column];
    if (value === undefined || value === null || value === '') continue;
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !DECIMAL.test(text.trim()) || Math.abs(Number(text)) > LIMITS[column]) {
      problems.push({ field: fields[column], code: 'VALIDATION_FAILED' });
    }
  }
  if (problems.length) throw new AppError('VALIDATION_FAILED', {}, problems);
}
