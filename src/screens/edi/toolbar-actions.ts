import type { ComponentType } from 'react';

/** What a toolbar action of a page gets from the engine (its HostToolbarActionProps). */
export interface ToolbarActionProps {
  rights: { view: boolean; add: boolean; edit: boolean; delete: boolean };
  selected: readonly { _key?: unknown }[];
  reload: () => void;
}

/**
 * Actions this area adds to the toolbar of its pages, by `<moduleCode>/<functionCode>`, each a lazy
 * chunk of its own (found by src/app/engine-services.tsx): on the EDI log, the raw content of the
 * selected message and its download as the file that was sent.
 */
export const toolbarActions: Record<string, () => Promise<{ default: ComponentType<ToolbarActionProps> }>> = {
  'edi/ediLogSummary': () => import('./EdiLogActions'),
};
