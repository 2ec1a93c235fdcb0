import { AppError } from '../../../common/errors.js';
import type { BillingScope, RunProgress } from './billing.service.js';

/**
 * The progress of billing runs on this server: a run (from the route, the bill page's run form or
 * the job) is registered when it starts, reports its stages (the events of each group written, each
 * tariff line priced, the totals) and ends done or failed. The bill page polls
 * `POST /api/billing/run/progress` and shows a progress bar per run of the project, so the user may
 * leave the page and come back while a long run goes on. A second run for a customer whose run is
 * going on is refused (BILL_RUN_RUNNING); across servers the run's transaction also takes the
 * customer's advisory lock (billing.repository.ts, `tryLockCustomerRun`).
 *
 * Progress is kept in this server's memory: finished runs are shown for ten minutes.
 */

export interface RunState {
  id: number;
  projectId: number;
  ownerId: number;
  billId: string;
  by: string;
  status: 'running' | 'done' | 'failed';
  stage: string;
  done: number;
  total: number;
  percent: number;
  startedAt: string;
  finishedAt: string | null;
  /** The bill made (done), or the error code of the refusal (failed). */
  headerId: number | null;
  errorCode: string | null;
}

const KEEP_FINISHED_MS = 10 * 60 * 1000;
const runs = new Map<number, RunState>();
let lastId = 0;

function forget(now: number): void {
  for (const [id, run] of runs) if (run.finishedAt && now - Date.parse(run.finishedAt) > KEEP_FINISHED_MS) runs.delete(id);
}

/** Registers a run for a customer; refused while another run of the same customer of the project goes on. */
export function beginRun(scope: BillingScope, ownerId: number, billId: string): RunState {
  forget(Date.now());
  const running = [...runs.values()].find((r) => r.status === 'running' && r.projectId === scope.projectId && r.ownerId === ownerId);
  if (running) throw new AppError('BILL_RUN_RUNNING', { billId: running.billId, percent: running.percent });
  const run: RunState = {
    id: ++lastId,
    projectId: scope.projectId,
    ownerId,
    billId,
    by: scope.by,
    status: 'running',
    stage: 'start',
    done: 0,
    total: 1,
    percent: 0,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    headerId: null,
    errorCode: null,
  };
  runs.set(run.id, run);
  return run;
}

/** Runs `work` as a registered run: its progress reported, done with the bill it made or failed with its error code. */
export async function trackedRun<T extends { header: { id: number } }>(scope: BillingScope, ownerId: number, billId: string, work: (progress: RunProgress) => Promise<T>): Promise<T> {
  const run = beginRun(scope, ownerId, billId);
  const progress: RunProgress = (stage, done, total) => {
    run.stage = stage;
    run.done = done;
    run.total = total;
    run.percent = Math.min(99, Math.floor((done * 100) / Math.max(total, 1)));
  };
  try {
    const result = await work(progress);
    Object.assign(run, { status: 'done', stage: 'done', percent: 100, done: run.total, finishedAt: new Date().toISOString(), headerId: Number(result.header.id) });
    return result;
  } catch (error) {
    Object.assign(run, { status: 'failed', finishedAt: new Date().toISOString(), errorCode: error instanceof AppError ? error.code : 'INTERNAL' });
    throw error;
  }
}

/** The project's runs going on and those finished in the last ten minutes, newest first. */
export function runsOf(projectId: number): RunState[] {
  forget(Date.now());
  return [...runs.values()].filter((r) => r.projectId === projectId).sort((a, b) => b.id - a.id);
}
