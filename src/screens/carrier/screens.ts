import type { ComponentType } from 'react';

/** The carrier area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // Courier check: an order and its parcels at the dock, their carrier shipment, tracking and label.
  courierCheck: () => import('./CourierCheck'),
};
