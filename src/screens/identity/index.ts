/** The sign-in screens and the account dialogs the shell opens from its user menu. */
export { LoginScreen } from './LoginScreen';
export { ForgotScreen } from './ForgotScreen';
export { SignScreen } from './SignScreen';
export { ChangePasswordDialog } from './ChangePasswordDialog';
export { TwoStepSettingsDialog } from './TwoStepSettingsDialog';
export { TrustedBrowsersDialog } from './TrustedBrowsersDialog';
export { PasswordPolicy } from './PasswordPolicy';
