import type { ComponentType } from 'react';

/** The transport area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // The route planner: delivery orders onto routes, stops in order, split, merge, confirm, the map.
  doOrders: () => import('./PlannerScreen'),
};
