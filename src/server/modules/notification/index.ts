/**
 * The public entry of the notification area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export { raiseNotification } from './notification.service.js';
export type { NotificationText } from './notification.service.js';
