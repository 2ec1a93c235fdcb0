import type { ToolbarActionProps, ToolbarActions } from '../../app/public-widgets';

export type { ToolbarActionProps };

/**
 * Actions this area adds to the toolbar of its pages, by `<moduleCode>/<functionCode>` (a sub-page
 * tab by `<moduleCode>/<functionCode>/<tab>`), each a lazy chunk of its own (found by
 * src/app/engine-services.tsx): on the sales order list, manual allocation, the stock balance of an
 * order, the check before packing, the order and store-arrival imports, the allocation rules and the
 * pick list of an order; on its lines tab, manual allocation of the selected line; on the wave list,
 * the "Create wave" dialog, which shows the orders its filters select before anything is written;
 * on the shipment order list, "Find shipment" by its number.
 */
export const toolbarActions: ToolbarActions = {
  'outbound/so': () => import('./SoToolbarActions'),
  'outbound/so/lines': () => import('./SoLineActions'),
  'outbound/wave': () => import('./CreateWaveDialog'),
  'outbound/shipmentOrder': () => import('./ShipmentFind'),
};
