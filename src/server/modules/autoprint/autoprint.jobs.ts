import type { JobDefinition } from '../area.js';
import { withReportDatabase } from '../report/index.js';
import { SCHEDULE_HANDLER } from './migrations/0378_auto_print_schedule.js';
import { printDueSchedules } from './autoprint.service.js';

/**
 * autoprint.printScheduled - prints the auto print rules of the event `schedule` that are due at
 *   the run's time, each in its own project and warehouse (docs/printing.md "Auto print"). Its job
 *   "Auto print on schedule" (migration 0378) runs every minute. It works across every project and
 *   warehouse: a system class, for administrators only.
 */
export const printScheduledJob: JobDefinition = {
  name: SCHEDULE_HANDLER,
  scope: 'system',
  async run(context) {
    // The reports read from the report database (REPORT_DATABASE_URL) when there is one.
    const printed = await withReportDatabase(context.config, context.db, context.logger, (reportDb) => printDueSchedules(context.db, context.run.scheduledFor, context.log, reportDb));
    if (printed.length === 0) context.log('no schedule rule due');
  },
};
