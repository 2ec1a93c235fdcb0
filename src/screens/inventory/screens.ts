import type { ComponentType } from 'react';

/** The inventory area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  stdBalanceReport: () => import('./StdBalanceReportScreen'),
  transaction: () => import('./TransactionLogScreen'),
  skuSearch: () => import('./SkuSearch'),
};
