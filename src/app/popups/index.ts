/**
 * The global message and confirm popups. Screens call these; the engine
 * reaches the same functions through `hostPopups()` of engine/client/host, which the shell fills.
 */
export { showMessage, showConfirm, closeTopPopup, clearPopups, popups } from './popup-store';
export { PopupHost } from './PopupHost';
export { showSuccess, isPlainSuccess, ToastHost, TOAST_SECONDS } from './toast';
export type { MessageItem, ConfirmItem, MessageType, ConfirmOkType, ConfirmIconType } from '../../../engine/client/host/popups';
