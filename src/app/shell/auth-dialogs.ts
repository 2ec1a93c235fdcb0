import type { ComponentType } from 'react';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
}

export type AuthDialogName = 'ChangePasswordDialog' | 'TwoStepSettingsDialog' | 'TrustedBrowsersDialog';

/** The account dialogs of the sign-in screens, loaded when the user first opens one. */
export async function loadAuthDialog(name: AuthDialogName): Promise<ComponentType<DialogProps>> {
  const dialogs = await import('../../screens/identity/index');
  return dialogs[name];
}
