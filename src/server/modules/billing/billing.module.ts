import { defineModule } from '../area.js';
import * as m0292 from './migrations/0292_billing_unbilled_view.js';
import * as m0365 from './migrations/0365_billing_run_events.js';
import * as m0366 from './migrations/0366_billing_currency_amounts.js';
import * as m0367 from './migrations/0367_billing_unbilled_by_ship_date.js';
import * as m0368 from './migrations/0368_billing_run.js';
import * as m0360 from './migrations/0360_billing.js';
import * as m0361 from './migrations/0361_billing_menu.js';
import * as m0362 from './migrations/0362_billing_exchange_rate.js';
import * as m0363 from './migrations/0363_exchange_rate_menu.js';
import { billingBehaviours } from './billing.behaviours.js';
import { billingErrors } from './billing.errors.js';
import { billingRunJob } from './billing.jobs.js';
import { billingRoutes } from './billing.routes.js';
import { billingWriters } from './billing.writers.js';
import './billing.tables.js';

/**
 * 3PL billing: charge codes, customer contracts with their tariff lines, the billing run (a route,
 * a form on the bill page and the job `billing.run`), and bills with their lines, the drill-down of
 * what each line counted, confirmation and posting. It reads the ledger and the storage snapshot
 * through the inventory area's public entry and orders through the outbound area's.
 */
const BILLING = { definitionOf: 'billing' } as const;

/** Every page of the area, by function code: the menu pages and the sub-pages under them. */
const PAGES = ['billingMaintance', 'billingLine', 'billingLineSource', 'chargeCode', 'billingContract', 'billingTariff', 'exchangeRate'] as const;
const VERBS = ['billing.billingMaintance:run', 'billing.billingMaintance:confirm', 'billing.billingMaintance:post'] as const;

export const billingModule = defineModule({
  name: 'billing',
  migrations: { '0292_billing_unbilled_view': m0292, '0360_billing': m0360, '0361_billing_menu': m0361, '0362_billing_exchange_rate': m0362, '0363_exchange_rate_menu': m0363, '0365_billing_run_events': m0365, '0366_billing_currency_amounts': m0366, '0367_billing_unbilled_by_ship_date': m0367, '0368_billing_run': m0368 },
  routes: billingRoutes,
  behaviours: billingBehaviours,
  writers: billingWriters,
  jobs: [billingRunJob],
  errors: billingErrors,
  rights: [
    { right: 'billing.billingMaintance:run', labelCode: 'billing.verb.run' },
    { right: 'billing.billingMaintance:confirm', labelCode: 'billing.verb.confirm' },
    { right: 'billing.billingMaintance:post', labelCode: 'billing.verb.post' },
  ],
  pages: [
    { route: 'billingMaintance', group: 'billingJobs', opens: BILLING },
    { route: 'chargeCode', group: 'billingJobs', opens: BILLING },
    { route: 'billingContract', group: 'billingJobs', opens: BILLING },
    // The currency list of the master data, where the bills' currencies and their decimals are kept.
    { route: 'currency', group: 'billingJobs', opens: { definitionOf: 'masterdata' } },
    // Exchange rates by date, from the contract currency into a bill's currency.
    { route: 'exchangeRate', group: 'billingJobs', opens: BILLING, after: 'currency' },
  ],
  // Administrators and supervisors run billing: every page, the run, confirmation and posting.
  defaultGrants: (['Administrator', 'Supervisor'] as const).map((role) => ({
    role,
    rights: [...PAGES.flatMap((p) => ['view', 'add', 'edit', 'delete'].map((a) => `billing.${p}:${a}` as const)), ...VERBS, 'masterdata.currency:view'],
  })),
  // Unbilled activity of this month: orders shipped this month (by their shipped time), shipped or delivered and not yet billed (the view of migration 0367).
  homeItems: [{ kind: 'unbilled', tables: ['billing_unbilled_activity'], terminal: [], position: 90, statusTexts: 'outbound.status', listRoute: 'billingMaintance' }],
  readModels: [
    {
      name: 'billing.masters',
      files: ['billing.repository.ts'],
      reads: ['currency', 'owner'],
      purpose: 'the customer a bill goes to (name, address, contact) and the decimals of the bill currency',
    },
    {
      name: 'billing.events',
      files: ['billing-events.repository.ts'],
      reads: ['inventory_transaction', 'storage_snapshot', 'so_header', 'so_line', 'sku'],
      purpose: 'the events a billing run counts set-based in the database (receipts and shipments of the ledger, storage snapshot days, outbound orders and their lines) with the SKU measures they are counted by',
    },
  ],
});
