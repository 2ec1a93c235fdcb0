import type { ComponentType } from 'react';

/** The order wizards' hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // Five steps to a wine sales order, resumed where the user left it.
  wineOrder: () => import('./WineOrder'),
  // Five steps to a non-merchandise sales order (displays, samples, giveaways).
  nonMerOrder: () => import('./NonMerOrder'),
};
