import type { ComponentType } from 'react';

/** The loading area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // Loading and shipping: loads, scanning cartons and pallets onto them, ship confirm and delivery.
  loading: () => import('./LoadingScreen'),
};
