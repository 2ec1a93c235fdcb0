import { sendQueuedJob } from '../../area-kit/queued-sender.js';
import { sendQueuedJobs } from './printing.service.js';

/**
 * Sends the print queue's queued jobs again (parameter `batchSize`, default 50, at most 1000), in
 * every warehouse. Fails the run when a printer could not be reached, so that it shows in the
 * history; the jobs stay queued for the next run.
 */
export const sendQueuedPrintJobsJob = sendQueuedJob({ name: 'printing.sendQueued', what: 'print jobs', reason: 'printer unavailable', sendQueued: sendQueuedJobs });
