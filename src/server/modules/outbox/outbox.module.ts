import { defineModule } from '../area.js';
import { sendOutboxEmailJob } from './outbox.jobs.js';
import './outbox.tables.js';

/**
 * Messages to people outside the application: e-mails and text messages such as sign-in codes,
 * sent through SMTP_URL and SMS_URL by `createMessageOutbox` (used by the identity area's sign-in,
 * registration and password flows) and kept in `outbox_message` with their codes masked (the table
 * comes from the foundation migration). The job `notify.sendOutboxEmail` sends undelivered e-mails
 * again. It brings no pages, rights or grants; in-app notices are the notification area's.
 */
export const outboxModule = defineModule({
  name: 'outbox',
  jobs: [sendOutboxEmailJob],
});
