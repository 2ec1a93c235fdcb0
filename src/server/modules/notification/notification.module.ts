import { defineModule } from '../area.js';
import * as m0075 from './migrations/0075_notification.js';
import { notificationRoutes } from './notification.routes.js';
import './notification.tables.js';

/**
 * Per-user notifications (spec section 9, "notification display"): raised by any area with
 * `raiseNotification` inside its transaction, listed in the bell and the notification list, and
 * pushed to the user's open browsers on every app node. Not to be confused with `notify`, the
 * e-mail and SMS outbox.
 */
export const notificationModule = defineModule({
  name: 'notification',
  migrations: { '0075_notification': m0075 },
  routes: notificationRoutes,
});
