import { defineModule } from '../area.js';
import { sendOutboxEmailJob } from './notify.jobs.js';
import './notify.tables.js';

/** E-mail and SMS delivery with the outbox (its table comes from the foundation migration). */
export const notifyModule = defineModule({ name: 'notify', jobs: [sendOutboxEmailJob] });
