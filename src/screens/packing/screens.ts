import type { ComponentType } from 'react';

/** The packing area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // Scan and pack of picked orders into cartons, desk and handheld.
  pack: () => import('./PackScreen'),
  // Split scan: items of a packed carton into a new carton of the same order.
  packSplit: () => import('./SplitScan'),
  // Scan to print: a closed carton's label on a chosen printer.
  scanToPrintWindow: () => import('./ScanToPrint'),
  // Pallets on a handheld: scan a pallet (or make one), scan cartons on and off, close it.
  palletScan: () => import('./PalletScreen'),
};
