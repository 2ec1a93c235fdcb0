import { defineWriter } from '../area.js';
import { assertDeletable, assertValidJob } from './job.service.js';

/**
 * The rules of the /job and /timer screens on engine saves (spec sections 4 and 5): fields cannot
 * be empty, the expression must be valid and the class a registered handler; the status changes
 * only by activate and inactivate; a row of /timer is a timer, of /job a job; an active one cannot
 * be deleted.
 */
export const jobWriter = defineWriter({
  name: 'job.job',

  async beforeSave({ trx, page, values, merged, old }) {
    delete values.status;
    const type = page.functionCode === 'timer' ? 'timer' : 'job';
    if (!old) values.type = type;
    else delete values.type;
    for (const field of ['name', 'cron_expression', 'business_type', 'remark', 'action_no']) {
      if (typeof values[field] === 'string') values[field] = (values[field]).trim();
    }
    await assertValidJob(trx, { ...merged, ...values, type });
  },

  async beforeDelete({ old }) {
    assertDeletable({ status: old.status });
  },
});
