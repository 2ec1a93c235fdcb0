import type { JobDefinition } from '../area.js';
import { sendQueuedJobs } from './printing.service.js';

/**
 * Sends the print queue's queued jobs again (parameter `batchSize`, default 50, at most 1000), in
 * every warehouse. Fails the run when a printer could not be reached, so that it shows in the
 * history; the jobs stay queued for the next run.
 */
export const sendQueuedPrintJobsJob: JobDefinition = {
  name: 'printing.sendQueued',
  scope: 'system',
  async run({ db, params, log }) {
    const raw = params.batchSize;
    const batchSize = raw === undefined || raw === '' ? 50 : Number(raw);
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 1000) throw new Error(`batchSize must be a whole number from 1 to 1000, got "${raw}"`);
    const outcomes = await sendQueuedJobs(db, batchSize);
    const sent = outcomes.filter((o) => o.status === 'sent').length;
    const unsent = outcomes.filter((o) => 'error' in o && o.error).length;
    log(`sent ${sent} of ${outcomes.length} print jobs`);
    if (unsent) throw new Error(`${unsent} print jobs could not be sent: printer unavailable`);
  },
};
