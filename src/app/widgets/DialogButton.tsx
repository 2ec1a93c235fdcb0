import { useState, type ComponentType, type ReactNode } from 'react';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';

/** What a toolbar action of a page gets from the engine (its HostToolbarActionProps). */
export interface ToolbarActionProps {
  rights: { view: boolean; add: boolean; edit: boolean; delete: boolean };
  selected: readonly { _key?: unknown }[];
  reload: () => void;
}

/**
 * The toolbar actions an area adds to its pages (`src/screens/<area>/toolbar-actions.ts`), by
 * `<moduleCode>/<functionCode>`, each a lazy chunk of its own (found by src/app/engine-services.tsx).
 */
export type ToolbarActions = Record<string, () => Promise<{ default: ComponentType<ToolbarActionProps> }>>;

/**
 * A toolbar button that opens a dialog: the dialog is mounted only while open (so it starts afresh
 * each time) and `dialog` gets the function that closes it. Nothing is shown without `allowed`.
 */
export function DialogButton({
  allowed = true,
  disabled,
  testId,
  label,
  dialog,
}: {
  allowed?: boolean;
  disabled?: boolean;
  testId: string;
  label: ReactNode;
  dialog: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  if (!allowed) return null;
  return (
    <>
      <Button data-testid={testId} disabled={disabled} onClick={() => setOpen(true)}>
        {label}
      </Button>
      {open && dialog(() => setOpen(false))}
    </>
  );
}

/**
 * A toolbar action that is one button opening one dialog, offered when `allowed` says so of the
 * user's rights on the page; once the dialog has done its work (`onDone`), the page reloads.
 */
export function dialogAction({
  allowed,
  testId,
  labelKey,
  Dialog,
}: {
  allowed: (rights: ToolbarActionProps['rights']) => boolean;
  testId: string;
  labelKey: string;
  Dialog: ComponentType<{ onClose: () => void; onDone: () => void }>;
}): ComponentType<ToolbarActionProps> {
  return function DialogAction({ rights, reload }: ToolbarActionProps) {
    const { t } = useTranslation();
    return <DialogButton allowed={allowed(rights)} testId={testId} label={t(labelKey)} dialog={(close) => <Dialog onClose={close} onDone={reload} />} />;
  };
}
