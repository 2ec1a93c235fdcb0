import type { ToolbarActions } from '../../app/public-widgets';

/**
 * Actions this area adds to the toolbar of its pages, by `<moduleCode>/<functionCode>`, each a lazy
 * chunk of its own (found by src/app/engine-services.tsx): the user list's "New user" dialog.
 */
export const toolbarActions: ToolbarActions = {
  'identity/user': () => import('./NewUserDialog'),
};
