import type Decimal from 'decimal.js';
import type { Transaction } from 'kysely';
import { DEFAULT_LANGUAGE, type Language } from '../../../common/languages.js';
import type { ShortPickHold } from '../../../common/outbound-api.js';
import type { RightName } from '../../../common/rights.js';
import type { DB } from '../../db/schema.js';
import type { EventBus } from '../../events/events.js';
import { translate } from '../../http/i18n.js';
import { countHeldStock, warehouseRightHolders, type BalanceKey, type StockScope } from '../inventory/index.js';
import { raiseNotification } from '../notification/index.js';
import type { SoHeaderRow } from './outbound.repository.js';
import { taskLabels, updateTask, type PickTaskRow } from './wave.repository.js';

/** Who confirms a pick, as far as the exception flow of a short pick needs: the bus its notice goes out on, the picker's language. */
export interface PickContext {
  /** The bus the supervisor's notice goes out on; without it (the demonstration data) nobody is told. */
  events?: EventBus;
  /** The picker's language, for the answer's message. */
  language?: Language;
}

/**
 * The supervisors of a short pick's hold: the holders of the count's approve verb in the
 * warehouse, since approving the count that is raised with the hold is what settles it.
 */
export const SHORT_HOLD_RIGHT = 'inventory.count:approve' as RightName;

/**
 * The exception flow of a short pick that looks for the rest elsewhere, in its transaction, once
 * what the picker did not find has been held at the task's location: a count ticket for that
 * location is raised through the inventory area (its approval releases the hold, the counted
 * quantity staying), the supervisors of the warehouse are notified with SKU, lot, location,
 * quantity, order and wave (never the picker), the task records the hold and its ticket, and the
 * picker gets what was held in their language. A rollback leaves no hold, ticket or notice.
 */
export async function reportShortHold(
  trx: Transaction<DB>,
  scope: StockScope,
  context: PickContext,
  input: { header: SoHeaderRow; task: PickTaskRow; key: BalanceKey; qty: Decimal; reason: string },
): Promise<{ held: ShortPickHold; message: string }> {
  const { header, task, key, qty } = input;
  const labels = await taskLabels(trx, Number(task.id));
  const count = await countHeldStock(trx, scope, { key, heldQty: qty });
  const params = {
    qty: qty.toString(),
    sku: labels.sku_code,
    description: labels.sku_description ?? '',
    lot: labels.lot_no,
    location: labels.location_code,
    orderNo: header.order_no,
    waveNo: labels.wave_no ?? '',
    ticketNo: count.ticketNo,
    reason: input.reason,
    by: scope.operator,
  };
  let notified: number[] = [];
  if (context.events) {
    notified = await warehouseRightHolders(trx, { warehouseId: scope.warehouseId, projectId: scope.projectId, right: SHORT_HOLD_RIGHT, exceptLogin: scope.operator });
    if (notified.length > 0) {
      await raiseNotification(trx, context.events, {
        userIds: notified,
        category: 'inventory',
        title: { key: 'outbound.notice.shortPickHeld' },
        body: { key: labels.wave_no ? 'outbound.notice.shortPickHeldWaveBody' : 'outbound.notice.shortPickHeldBody' },
        params,
        link: `cycleCount?ticketNo=${encodeURIComponent(count.ticketNo)}`,
        projectId: scope.projectId,
        by: scope.operator,
      });
    }
  }
  await updateTask(trx, Number(task.id), { held_qty: qty.plus(task.held_qty).toString(), count_ticket_no: count.ticketNo }, scope.operator);
  const held: ShortPickHold = {
    skuCode: labels.sku_code,
    skuDescription: labels.sku_description,
    locationCode: labels.location_code,
    lotNo: labels.lot_no,
    expiryDate: labels.expiry_date,
    qty: qty.toString(),
    orderNo: header.order_no,
    waveNo: labels.wave_no,
    countTicketNo: count.ticketNo,
    notified: notified.length,
  };
  const text = notified.length > 0 ? 'outbound.pick.heldForCount' : 'outbound.pick.heldForCountNobody';
  return { held, message: translate(context.language ?? DEFAULT_LANGUAGE, text, params) };
}
