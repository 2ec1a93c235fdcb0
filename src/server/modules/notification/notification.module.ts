import { defineModule } from '../area.js';
import * as m0075 from './migrations/0075_notification.js';
import { notificationRoutes } from './notification.routes.js';
import './notification.tables.js';

/**
 * In-app notices: raised by any area with `raiseNotification` inside its transaction, listed in the
 * bell and the notification list, and pushed to the user's open browsers on every app node. E-mails
 * and text messages to people outside the application are the outbox area's (`modules/outbox/`).
 */
export const notificationModule = defineModule({
  name: 'notification',
  migrations: { '0075_notification': m0075 },
  routes: notificationRoutes,
  readModels: [
    { name: 'notification.recipients', files: ['notification.repository.ts'], reads: ['app_user', 'project', 'user_project'], purpose: 'the users a notice goes to, by right and project' },
  ],
});
