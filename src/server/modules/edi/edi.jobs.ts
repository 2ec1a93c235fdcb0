import type { JobDefinition } from '../area.js';
import { sendQueuedEdiMessages } from './edi.service.js';

/**
 * Sends the queued EDI messages again (parameter `batchSize`, default 50, at most 1000), in every
 * project and warehouse. Fails the run when an endpoint could not be reached, so that it shows in
 * the history; the messages stay queued for the next run (or the job's retries).
 */
export const sendQueuedEdiJob: JobDefinition = {
  name: 'edi.sendQueued',
  scope: 'system',
  async run({ db, params, log }) {
    const raw = params.batchSize;
    const batchSize = raw === undefined || raw === '' ? 50 : Number(raw);
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 1000) throw new Error(`batchSize must be a whole number from 1 to 1000, got "${raw}"`);
    const outcomes = await sendQueuedEdiMessages(db, batchSize);
    const sent = outcomes.filter((o) => o.status === 'sent').length;
    const unsent = outcomes.filter((o) => 'error' in o && o.error).length;
    log(`sent ${sent} of ${outcomes.length} EDI messages`);
    if (unsent) throw new Error(`${unsent} EDI messages could not be sent`);
  },
};
