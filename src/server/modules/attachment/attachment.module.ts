import { defineModule } from '../area.js';
import { attachmentRoutes } from './attachment.routes.js';
import * as m0080 from './migrations/0080_attachment.js';
import './attachment.tables.js';

/** Files attached to the records of any page that declares `attachments`. */
export const attachmentModule = defineModule({
  name: 'attachment',
  migrations: { '0080_attachment': m0080 },
  routes: attachmentRoutes,
});
