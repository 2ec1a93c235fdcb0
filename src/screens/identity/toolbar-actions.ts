import type { ComponentType } from 'react';

/** What a toolbar action of a page gets from the engine (its HostToolbarActionProps). */
export interface ToolbarActionProps {
  rights: { add: boolean };
  reload: () => void;
}

/**
 * Actions this area adds to the toolbar of its pages, by `<moduleCode>/<functionCode>`, each a lazy
 * chunk of its own (found by src/app/engine-services.tsx): the user list's "New user" dialog.
 */
export const toolbarActions: Record<string, () => Promise<{ default: ComponentType<ToolbarActionProps> }>> = {
  'identity/user': () => import('./NewUserDialog'),
};
