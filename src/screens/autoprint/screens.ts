import type { ComponentType } from 'react';

/** The auto print area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // The auto print rules of the warehouse: event, template, printer, copies, active; print a rule now.
  autoPrint: () => import('./AutoPrintScreen'),
};
