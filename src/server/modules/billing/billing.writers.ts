import { AppError } from '../../../common/errors.js';
import { defineWriter } from '../area.js';
import { chargeTypeOf, contractOf, nextTariffLineNo } from './billing.repository.js';
import type { BillBase, ChargeMethod } from './billing.tables.js';

/** The charge methods each bill base can be counted by. */
export const METHODS_OF_BASE: Readonly<Record<BillBase, readonly ChargeMethod[]>> = {
  received_qty: ['per_unit', 'per_carton', 'per_pallet', 'per_order', 'per_line', 'per_cbm', 'per_kg'],
  shipped_qty: ['per_unit', 'per_carton', 'per_pallet', 'per_order', 'per_line', 'per_cbm', 'per_kg'],
  on_hand_snapshot: ['per_unit', 'per_carton', 'per_pallet', 'per_pallet_day', 'per_cbm', 'per_kg', 'per_line'],
  orders: ['per_order'],
  lines: ['per_line'],
  none: ['fixed'],
};

/**
 * A tariff line: its charge method fits its bill base (a fixed fee and a minimum charge take the
 * method `fixed` and the base `none`), the overflow threshold and rate come together, its currency
 * is the contract's, and its line number is the next free one when left out.
 */
export const tariffWriter = defineWriter({
  name: 'billing.tariff',
  async beforeSave({ trx, merged, values, operation, session }) {
    const projectId = session.projectId ?? 0;
    const method = merged.charge_method as ChargeMethod;
    const base = merged.bill_base as BillBase;
    const chargeType = await chargeTypeOf(trx, projectId, Number(merged.charge_code_id));
    const flatFee = chargeType === 'fixed' || chargeType === 'minimum';
    if (flatFee && (method !== 'fixed' || base !== 'none')) throw new AppError('TARIFF_INVALID', { reason: 'flat' });
    if (!flatFee && (base === 'none' || !(METHODS_OF_BASE[base] ?? []).includes(method))) throw new AppError('TARIFF_INVALID', { reason: 'method' });
    const hasThreshold = merged.overflow_threshold !== null && merged.overflow_threshold !== undefined && merged.overflow_threshold !== '';
    const hasOverflowRate = merged.overflow_rate !== null && merged.overflow_rate !== undefined && merged.overflow_rate !== '';
    if (hasThreshold !== hasOverflowRate) throw new AppError('TARIFF_INVALID', { reason: 'overflow' });
    const contract = await contractOf(trx, projectId, Number(merged.contract_id));
    if (!contract) throw new AppError('NO_RECORD');
    if (merged.currency_code && merged.currency_code !== contract.currency_code) throw new AppError('TARIFF_INVALID', { reason: 'currency' });
    if (operation !== 'update' && (merged.line_no === null || merged.line_no === undefined || merged.line_no === '')) {
      values.line_no = await nextTariffLineNo(trx, Number(contract.id));
    }
  },
});

/**
 * A bill is made by a billing run, never added on the page; a posted bill cannot be changed, and
 * only a draft can be deleted (its lines with it).
 */
export const billWriter = defineWriter({
  name: 'billing.bill',
  async beforeSave({ old, operation }) {
    if (operation !== 'update' || !old) throw new AppError('BILL_MADE_BY_RUN');
    if (old.status === 'posted') throw new AppError('BILL_POSTED_READ_ONLY', { billId: String(old.bill_id) });
  },
  async beforeDelete({ old }) {
    if (old.status !== 'draft') throw new AppError('BILL_NOT_DRAFT', { billId: String(old.bill_id) });
  },
});

export const billingWriters = [tariffWriter, billWriter];
