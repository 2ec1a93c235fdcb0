import type { ToolbarActionProps, ToolbarActions } from '../../app/public-widgets';

export type { ToolbarActionProps };

/**
 * Actions this area adds to the toolbar of its pages, by `<moduleCode>/<functionCode>`, each a lazy
 * chunk of its own (found by src/app/engine-services.tsx): on the bill list, the invoice PDF of the
 * selected confirmed or posted bill and the export of its lines as an xlsx workbook.
 */
export const toolbarActions: ToolbarActions = {
  'billing/billingMaintance': () => import('./BillToolbarActions'),
};
