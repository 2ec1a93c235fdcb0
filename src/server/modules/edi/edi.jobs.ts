import { sendQueuedJob } from '../../area-kit/queued-sender.js';
import { sendQueuedEdiMessages } from './edi.service.js';

/**
 * Sends the queued EDI messages again (parameter `batchSize`, default 50, at most 1000), in every
 * project and warehouse. Fails the run when an endpoint could not be reached, so that it shows in
 * the history; the messages stay queued for the next run (or the job's retries).
 */
export const sendQueuedEdiJob = sendQueuedJob({ name: 'edi.sendQueued', what: 'EDI messages', sendQueued: sendQueuedEdiMessages });
