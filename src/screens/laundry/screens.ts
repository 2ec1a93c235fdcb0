import type { ComponentType } from 'react';

/** The laundry area's hand-written screens by route (found by src/app/routes.ts); the public /moose screens are routes of src/app/App.tsx. */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // The administration: devices (key shown once) and customers (their codes).
  laundry: () => import('./LaundryAdminScreen'),
};
