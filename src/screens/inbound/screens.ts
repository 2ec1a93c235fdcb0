import type { ComponentType } from 'react';

/** The inbound area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // Batch receive, scan-in and the handheld receiving flow; the handheld's putaway, move and count (hand-written for scanner speed).
  receive: () => import('./ReceiveScreen'),
  putaway: () => import('./HandheldScreen'),
};
