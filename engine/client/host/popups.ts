/**
 * The two global popups as the engine sees them. The engine never imports the
 * application: the host shell registers its popup
 * implementation here at start, and engine code calls `hostPopups()`.
 */
export type MessageType = 'success' | 'warning' | 'error' | 'info';

/** Message popup item: duration 0 (the default) keeps it open until closed. */
export interface MessageItem {
  id?: string;
  type: MessageType;
  content: string;
  /** Seconds before it closes by itself; 0 or absent keeps it open. */
  duration?: number;
  /** Runs exactly once when the popup closes, however it is closed. */
  callback?: () => void;
  /** Text of the button; default OK in the user's language. */
  buttonText?: string;
  /** Links shown under the text; following one closes the popup first. */
  links?: MessageLink[];
}

/** A link of a message popup: its text, a stable test id, and what following it does. */
export interface MessageLink {
  text: string;
  testId?: string;
  onOpen: () => void;
}

export type ConfirmOkType = 'primary' | 'danger' | 'dashed' | 'ghost' | 'default';
export type ConfirmIconType = 'confirm' | 'info' | 'success' | 'warning' | 'error' | 'danger';

/** Confirm popup item; defaults: title Confirm, okType primary, iconType confirm. */
export interface ConfirmItem {
  id?: string;
  title?: string;
  /** Plain text, or markup which is sanitized before it is shown. */
  content: string;
  okText?: string;
  cancelText?: string;
  okType?: ConfirmOkType;
  /** Only the OK button, no Cancel. */
  okOnly?: boolean;
  iconType?: ConfirmIconType;
  onOk?: () => unknown;
  onCancel?: () => unknown;
}

export interface HostPopups {
  /** Shows a message popup; resolves when it has closed. */
  showMessage(item: MessageItem): Promise<void>;
  /** Shows a confirm popup; resolves true on OK, false on Cancel or Escape. */
  showConfirm(item: ConfirmItem): Promise<boolean>;
}

let registered: HostPopups | undefined;

/** Called once by the host shell when it starts. */
export function registerHostPopups(popups: HostPopups): void {
  registered = popups;
}

/** The host's popups; throws when no host registered them (a programming error, not a user one). */
export function hostPopups(): HostPopups {
  if (!registered) throw new Error('no host registered its popups (registerHostPopups)');
  return registered;
}
