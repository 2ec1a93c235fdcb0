import type { ComponentType } from 'react';

/** The printing area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // The print queue: jobs of the warehouse, retry, reprint and their documents.
  printJob: () => import('./PrintQueueScreen'),
};
