import type { Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
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

/** What the line rules read of an order header. */
type LinesOrderHeader = { status: string; owner_id: number; project_id: number; warehouse_id: number };

/** How the lines of one kind of order (sales or pre-sales) reach their order. */
export interface LinesOrder<Header extends LinesOrderHeader> {
  /** The line's column naming its order. */
  column: 'so_id' | 'pso_id';
  find(trx: Transaction<DB>, id: number): Promise<Header | undefined>;
  orderNo(header: Header): string;
  nextLineNo(trx: Transaction<DB>, orderId: number): Promise<number>;
  /** The place columns a new line takes from its order; the page never writes them. */
  place: readonly ('project_id' | 'warehouse_id')[];
  /** Columns only the order's services write (the page's values are dropped). */
  serviceColumns?: readonly string[];
}

/**
 * The writer of an order's lines sub-page: lines change only while their order is new and never
 * move to another order, the SKU must be of the order's owner, and a new line takes the order's
 * place and, unless given, the next line number and the SKU's base unit.
 */
export function orderLineWriter<Header extends LinesOrderHeader>(name: string, order: LinesOrder<Header>) {
  const refuseUnlessNew = (header: Header | undefined) => {
    if (header && header.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { orderNo: order.orderNo(header), status: header.status });
  };
  return defineWriter({
    name,
    async beforeSave({ trx, old, values, merged }) {
      for (const column of [...(order.serviceColumns ?? []), ...order.place]) delete values[column];
      if (old !== null) delete values[order.column];
      const orderId = Number(old?.[order.column] ?? merged[order.column]);
      const header = Number.isSafeInteger(orderId) ? await order.find(trx, orderId) : undefined;
      if (!header) throw new AppError('VALIDATION_FAILED', {}, [{ field: order.column, code: 'FIELD_FOREIGN' }]);
      refuseUnlessNew(header);
      const sku = await findSkuOwner(trx, Number(merged.sku_id));
      if (!sku || sku.owner_id !== Number(header.owner_id)) throw new AppError('INVALID_SKU');
      if (old === null) {
        for (const column of order.place) values[column] = header[column];
        if (values.line_no === undefined || values.line_no === null || values.line_no === '') values.line_no = await order.nextLineNo(trx, orderId);
        if (values.uom === undefined || values.uom === null || values.uom === '') values.uom = sku.base_uom;
      }
    },
    async beforeDelete({ trx, old }) {
      refuseUnlessNew(await order.find(trx, Number(old[order.column])));
    },
  });
}

/** Rules on the order lines sub-page: lines change only while their order is new; quantities allocated and picked are the service's. */
export const soLineWriter = orderLineWriter('outbound.soLine', {
  column: 'so_id',
  find: findOrder,
  orderNo: (header) => header.order_no,
  nextLineNo,
  place: ['project_id'],
  serviceColumns: ['allocated_qty', 'picked_qty'],
});
