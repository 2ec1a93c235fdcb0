import type { ComponentType } from 'react';

/** The outbound area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // Pick tasks and the pick list; handheld picking.
  pick: () => import('./PickScreen'),
};
