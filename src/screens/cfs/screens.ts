import type { ComponentType } from 'react';

/** The CFS area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // Container freight station: scan-in, scan-pack, scan-load and the order tools.
  cfs: () => import('./CfsScreen'),
};
