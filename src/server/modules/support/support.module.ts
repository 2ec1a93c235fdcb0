import { defineModule } from '../area.js';
import * as m0095 from './migrations/0095_support.js';
import * as m0216 from './migrations/0216_support_message_scope.js';
import { supportAttachmentRoutes } from './support.attachment.routes.js';
import { supportRoutes } from './support.routes.js';
import './support.reopen.js';
import './support.tables.js';

/**
 * Support tickets (`/support` and the create-ticket screen; `/generic/support/*`): header,
 * messages and a log of every change; reopen-ASN requests (A01) that an approver decides, reopened
 * by the area owning ASNs through its `supportReopeners`.
 */
export const supportModule = defineModule({
  name: 'support',
  migrations: { '0095_support': m0095, '0216_support_message_scope': m0216 },
  async routes(app, options) {
    await supportRoutes(app, options);
    await supportAttachmentRoutes(app, options);
  },
  rights: [
    { right: 'support.ticket:answer', labelCode: 'support.verb.answer' },
    { right: 'support.ticket:approve', labelCode: 'support.verb.approve' },
  ],
  // Support tickets and the create-ticket dialog.
  pages: [{ route: 'support', group: 'masterData', opens: 'screen' }],
  readModels: [
    { name: 'support.ticketFiles', files: ['support.attachments.ts', 'support.repository.ts'], reads: ['attachment'], purpose: 'the files attached to a ticket' },
    { name: 'support.ticketViewers', files: ['support.repository.ts'], reads: ['organization', 'project', 'user_organization', 'user_project'], purpose: 'who may see a ticket: the organizations and projects of the user' },
  ],
});
