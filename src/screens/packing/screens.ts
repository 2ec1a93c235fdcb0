import type { ComponentType } from 'react';

/** The packing area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  packSplit: () => import('./SplitScan'),
};
