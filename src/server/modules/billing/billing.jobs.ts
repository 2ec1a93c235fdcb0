import type { JobDefinition } from '../area.js';
import { findOwnerByCode } from './billing.repository.js';
import { trackedRun } from './billing.progress.js';
import { runBilling } from './billing.service.js';

/*
 * billing.run - a billing run as a job, for long runs and for a monthly schedule. Parameters:
 *   owner      the customer's (owner's) code in the job's project (required)
 *   billId     the bill id (required); a draft of that id is computed again
 *   from, to   the period, YYYY-MM-DD, from before to
 *   cutoff     the cut-off date, YYYY-MM-DD (default: to)
 * The run's log shows each step and the bill made; a refusal fails the run with its reason.
 */
export const billingRunJob: JobDefinition = {
  name: 'billing.run',
  scope: 'project',
  async run({ db, params, log, job }) {
    const projectId = job.projectId;
    if (!projectId) throw new Error('a billing run belongs to a project');
    const code = (params.owner ?? '').trim();
    const owner = code ? await findOwnerByCode(db, projectId, code) : undefined;
    if (!owner) throw new Error(`no owner has the code "${code}" in the job's project`);
    const input = { ownerId: Number(owner.id), billId: params.billId ?? '', periodFrom: (params.from ?? '').trim(), periodTo: (params.to ?? '').trim(), cutoffDate: (params.cutoff || params.to || '').trim() };
    log(`billing ${code} from ${input.periodFrom} to ${input.periodTo}, cut-off ${input.cutoffDate}, bill ${input.billId}`);
    const scope = { projectId, by: `job:${job.name}`.slice(0, 100) };
    let stage = '';
    const bill = await trackedRun(db, scope, input.ownerId, input.billId, (trx, progress) =>
      runBilling(trx, scope, input, (name, done, total) => {
        progress(name, done, total);
        // Each group of events and each priced line in the log as it goes.
        if (name !== stage) log(`step ${done}/${total}: ${(stage = name)}`);
      }),
    );
    for (const line of bill.lines) log(`line ${line.line_no} ${line.charge_code}: ${line.qty} x ${line.rate} = ${line.amount} ${line.currency_code}`);
    log(`bill ${bill.header.bill_id}: ${bill.lines.length} lines, total ${bill.header.total_amount} ${bill.header.currency_code} (draft)`);
  },
};
