import type { ComponentType } from 'react';

/** What a toolbar action of a page gets from the engine (its HostToolbarActionProps). */
export interface ToolbarActionProps {
  rights: { view: boolean; add: boolean; edit: boolean; delete: boolean };
  selected: readonly { _key?: unknown; status?: unknown; shipment_reference?: unknown }[];
  reload: () => void;
}

/**
 * Actions this area adds to the toolbar of its pages (found by src/app/engine-services.tsx): on
 * /shipment, booking the selected shipment with its carrier, adding orders' parcels to it, and
 * cancelling it at the carrier. They call the carrier through the server, outside any page save.
 */
export const toolbarActions: Record<string, () => Promise<{ default: ComponentType<ToolbarActionProps> }>> = {
  'carrier/shipment': () => import('./ShipmentActions'),
};
