import { AppError } from '../../../common/errors.js';
import { defineWriter } from '../area.js';
import { nextDocumentNumber } from '../masterdata/index.js';

const textOf = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** A stored or sent time as milliseconds; null when empty or not a time. */
function timeOf(value: unknown): number | null {
  if (value instanceof Date) return value.getTime();
  if (typeof value !== 'string' || value === '') return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

/**
 * Delivery orders on the /tmsOrder page: a new one is unplanned in the session's project and
 * warehouse, numbered by the TMSDO rule when its number is left empty; its status, route and sales
 * order are the area's service's. Only an unplanned order may be changed or deleted (planning is the
 * route planner's, /doOrders).
 */
export const deliveryOrderWriter = defineWriter({
  name: 'transport.deliveryOrder',
  async beforeSave({ trx, old, values, merged, session }) {
    for (const column of ['project_id', 'warehouse_id', 'status', 'so_id', 'so_no']) delete values[column];
    if (old === null) {
      if (session.projectId === null || session.warehouseId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
      values.project_id = session.projectId;
      values.warehouse_id = session.warehouseId;
      values.status = 'unplanned';
      if (textOf(values.do_no) === '') values.do_no = await nextDocumentNumber(trx, 'TMSDO', { warehouseId: session.warehouseId });
    } else if (old.status !== 'unplanned') {
      throw new AppError('TMS_DO_LOCKED', { doNo: String(old.do_no), status: String(old.status) });
    }
    const from = timeOf(merged.window_from);
    const to = timeOf(merged.window_to);
    if (from !== null && to !== null && from > to) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'window_to', code: 'FIELD_RANGE', params: { min: new Date(from).toISOString(), max: '' } }]);
  },
  async beforeDelete({ old }) {
    if (old.status !== 'unplanned') throw new AppError('TMS_DO_LOCKED', { doNo: String(old.do_no), status: String(old.status) });
  },
});
