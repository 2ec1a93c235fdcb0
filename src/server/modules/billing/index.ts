/**
 * The public entry of the billing area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export { CHARGE_METHODS, BILL_BASES, CHARGE_TYPES } from './billing.tables.js';
export type { BillBase, ChargeMethod, ChargeType } from './billing.tables.js';
