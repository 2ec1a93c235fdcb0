import { AppError } from '../../../common/errors.js';
import { defineWriter } from '../area.js';
import { checkAddress } from './address.js';
import { countLines, findOrder, findSkuOwner, nextLineNo } from './outbound.repository.js';
import { TERMINAL_STATUSES, type SoStatus } from './so-status.js';

/**
 * Domain rules on the /so header page's saves: a new order starts in status new in the session's
 * project; the status changes only through the order's behaviours; the ship-to address follows
 * the address rule; a terminal order refuses every change; deletion only while new.
 */
export const soHeaderWriter = defineWriter({
  name: 'outbound.so',
  async beforeSave({ trx, old, values, merged, session }) {
    delete values.status;
    delete values.project_id;
    if (old === null) {
      if (session.projectId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'project' });
      values.project_id = session.projectId;
      values.status = 'new';
    } else {
      if (TERMINAL_STATUSES.includes(old.status as SoStatus)) throw new AppError('ORDER_STATUS_ERROR', { orderNo: String(old.order_no), status: String(old.status) });
      if ('owner_id' in values && Number(values.owner_id) !== Number(old.owner_id) && (await countLines(trx, Number(old._key))) > 0) {
        throw new AppError('ORDER_STATUS_ERROR', { orderNo: String(old.order_no), status: String(old.status) });
      }
      if ('wave_id' in values && (values.wave_id ?? null) !== (old.wave_id ?? null) && old.wave_id) throw new AppError('WAVE_ID_EXISTS', { orderNo: String(old.order_no) });
    }
    checkAddress(merged);
  },
  async beforeDelete({ old }) {
    if (old.status !== 'new') throw new AppError('DELETE_CANCEL_NOT_ALLOWED', { orderNo: String(old.order_no) });
  },
});

/** Rules on the order lines sub-page: lines change only while their order is new; quantities allocated and picked are the service's. */
export const soLineWriter = defineWriter({
  name: 'outbound.soLine',
  async beforeSave({ trx, old, values, merged }) {
    delete values.allocated_qty;
    delete values.picked_qty;
    delete values.project_id;
    if (old !== null) delete values.so_id;
    const soId = Number(old?.so_id ?? merged.so_id);
    const header = Number.isSafeInteger(soId) ? await findOrder(trx, soId) : undefined;
    if (!header) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'so_id', code: 'FIELD_FOREIGN' }]);
    if (header.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { orderNo: header.order_no, status: header.status });
    const sku = await findSkuOwner(trx, Number(merged.sku_id));
    if (!sku || sku.owner_id !== Number(header.owner_id)) throw new AppError('INVALID_SKU');
    if (old === null) {
      values.project_id = header.project_id;
      if (values.line_no === undefined || values.line_no === null || values.line_no === '') values.line_no = await nextLineNo(trx, soId);
      if (values.uom === undefined || values.uom === null || values.uom === '') values.uom = sku.base_uom;
    }
  },
  async beforeDelete({ trx, old }) {
    const header = await findOrder(trx, Number(old.so_id));
    if (header && header.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { orderNo: header.order_no, status: header.status });
  },
});
