/** The domain events of the job area. */
declare module '../../events/events.js' {
  interface DomainEvents {
    /** A job run failed after its last retry (a notification can tell the people who watch it). */
    'job.failed': { jobId: number; jobName: string; runId: number; error: string };
  }
}

export {};
