import { AppError } from '../../../common/errors.js';
import type { EngineSession } from '../../../../engine/server/index.js';
import { defineWriter } from '../area.js';
import { assertShipmentComplete } from '../outbound/index.js';
import { saveCredential } from './carrier.repository.js';

/** What the carrier was told when the shipment was booked: it does not change afterwards. */
const BOOKED_FIELDS = ['carrier_account_id', 'shipment_reference', 'expected_delivery_date', 'gateway', 'service', 'service_provider', 'battery'] as const;

function placeOf(session: EngineSession): { projectId: number; warehouseId: number | null } {
  if (session.projectId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'project' });
  return { projectId: session.projectId, warehouseId: session.warehouseId };
}

/** A stored or sent value as text to compare: a day (a date column read as a Date) as YYYY-MM-DD. */
function textOf(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

const same = (a: unknown, b: unknown) => textOf(a) === textOf(b);

/**
 * Carrier shipments (/shipment): a new one is open in the session's warehouse; it must carry what
 * the carrier needs (the shipment order rule of the outbound area); once booked, what the carrier
 * was told stays, and a booked shipment is cancelled (at the carrier) before it may be deleted.
 * Its carrier id and status are the area's service's.
 */
export const carrierShipmentWriter = defineWriter({
  name: 'carrier.shipment',
  async beforeSave({ old, values, merged, session }) {
    delete values.project_id;
    delete values.warehouse_id;
    delete values.carrier_shipment_id;
    delete values.status;
    if (old === null) {
      const place = placeOf(session);
      if (place.warehouseId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
      values.project_id = place.projectId;
      values.warehouse_id = place.warehouseId;
      values.status = 'open';
    } else if (old.status !== 'open') {
      const changed = BOOKED_FIELDS.find((field) => field in values && !same(values[field], old[field]));
      if (changed || old.status === 'cancelled') throw new AppError('CARRIER_SHIPMENT_STATE', { shipmentNo: String(old.shipment_no), status: String(old.status) });
    }
    assertShipmentComplete(merged);
  },
  async beforeDelete({ old }) {
    if (old.status === 'booked') throw new AppError('CARRIER_SHIPMENT_STATE', { shipmentNo: String(old.shipment_no), status: String(old.status) });
  },
});

/**
 * Carrier accounts (/carrierAccount): of the session's project. The credential is a field that is
 * not a column (`api_key`): written to the credential table, which no page reads, and never shown;
 * left empty on a change, the stored one stays.
 */
export const carrierAccountWriter = defineWriter({
  name: 'carrier.account',
  async beforeSave({ old, values, unstored, session }) {
    delete values.project_id;
    if (old === null) values.project_id = placeOf(session).projectId;
    const key = typeof unstored.api_key === 'string' ? unstored.api_key.trim() : '';
    if (old === null && key === '') throw new AppError('VALIDATION_FAILED', {}, [{ field: 'api_key', code: 'FIELD_REQUIRED' }]);
  },
  async afterSave({ trx, row, unstored, user }) {
    const key = typeof unstored.api_key === 'string' ? unstored.api_key.trim() : '';
    if (key !== '') await saveCredential(trx, Number(row._key), key, user.loginAccount);
  },
});
