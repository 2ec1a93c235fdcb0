import type { ComponentType } from 'react';

/** The resource planning area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // Resource plans with their chart, the shifts and the rates of the warehouse.
  resPlan: () => import('./ResPlanScreen'),
};
