/**
 * What the shell lends to the hand-written screens (src/screens) and the designer: the API client,
 * the session token, the popups, translations, language and time formatting, the session store.
 * They import the app through this entry only (enforced in eslint.config.js),
 * so the shell's insides (routes, tabs, engine services) can change without touching them.
 */
export { api, download, fetchBlob, ApiError } from './api/client';
export { storeToken, takeReturnPath } from './api/token';
export { showConfirm, showSuccess } from './popups';
export { playPopupSound as playSound } from './popups/sound';
export { default as i18next } from './i18n';
export { applyLanguage } from './language';
export { formatDateTime } from './locale';
export { useSession } from './store/session-store';
export { useRights, type ActionRights } from './rights';
export { findPageRoute } from './routes';
export { openPage, openRoute } from './page-filters';
export { FormDialog, useBusy, useSubmitAndClose, ViewDialog } from './widgets/FormDialog';
