import { AppError } from '../../../common/errors.js';
import type { EngineSession } from '../../../../engine/server/index.js';
import type { SessionUser } from '../../http/access.js';
import { defineWriter } from '../area.js';
import { findHandlerScope, findJob, findJobParams, findVisibleJob, type JobViewer } from './job.repository.js';
import { assertDeletable, assertValidJob, jobParamProblems, refuseParams, type JobActor } from './job.service.js';

function viewerOf(session: EngineSession): JobViewer {
  return { projectId: session.projectId, isAdmin: session.isAdmin === true };
}

function actorOf(user: SessionUser): JobActor {
  return { userId: user.userId, isAdmin: user.isAdmin, loginAccount: user.loginAccount };
}

/**
 * The rules of the /job and /timer screens on engine saves: fields cannot
 * be empty, the expression must be valid and the class a registered handler; the status changes
 * only by activate and inactivate; a row of /timer is a timer, of /job a job; an active one cannot
 * be deleted. A job belongs to the project and warehouse of the session that made it, or, for a
 * system class, to no project, which only an administrator may make; a change of its class checks
 * its parameters again for the one saving it.
 */
export const jobWriter = defineWriter({
  name: 'job.job',

  async beforeSave({ trx, page, values, merged, old, session, user }) {
    delete values.status;
    delete values.project_id;
    delete values.warehouse_id;
    const type = page.functionCode === 'timer' ? 'timer' : 'job';
    if (!old) values.type = type;
    else delete values.type;
    for (const field of ['name', 'cron_expression', 'business_type', 'remark', 'action_no']) {
      if (typeof values[field] === 'string') values[field] = (values[field]).trim();
    }
    const record: Record<string, unknown> = { ...merged, ...values, type };
    await assertValidJob(trx, record);
    const handler = String(record.handler);
    const stored = old ? await findJob(trx, Number(old._key)) : undefined;
    if ((await findHandlerScope(trx, handler)) === 'system') {
      if (!user.isAdmin) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'handler', code: 'JOB_SYSTEM_ONLY', params: { handler } }]);
      values.project_id = null;
      values.warehouse_id = null;
      return;
    }
    if (stored && stored.project_id !== null) {
      // Its project stays; parameters saved for another class are checked for this one.
      const params = Object.fromEntries((await findJobParams(trx, Number(stored.id))).map((p) => [p.name, p.value]));
      const problems = await jobParamProblems(trx, Number(stored.project_id), actorOf(user), params);
      if (problems.length) refuseParams(problems, 'handler');
      return;
    }
    if (session.projectId === null) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'handler', code: 'OUT_OF_SCOPE' }]);
    values.project_id = session.projectId;
    values.warehouse_id = session.warehouseId;
  },

  async beforeDelete({ old }) {
    assertDeletable({ status: old.status });
  },
});

/**
 * The parameters of a job (the tab of /job and /timer): only of a job the session sees, and a
 * parameter naming a project, warehouse or user only within the job's project and the reach of
 * the one saving it (the run checks them again for the job's creator). A system job's parameters
 * are for administrators.
 */
export const jobParamWriter = defineWriter({
  name: 'job.param',

  async beforeSave({ trx, merged, session, user }) {
    const job = await findVisibleJob(trx, Number(merged.job_id), viewerOf(session));
    if (!job) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'job_id', code: 'FIELD_FOREIGN' }]);
    if ((await findHandlerScope(trx, job.handler)) === 'system') {
      if (!user.isAdmin) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'job_id', code: 'JOB_SYSTEM_ONLY', params: { handler: job.handler } }]);
      return;
    }
    if (job.project_id === null) return;
    const name = typeof merged.name === 'string' ? merged.name.trim() : '';
    const value = typeof merged.value === 'string' ? merged.value : null;
    const problems = await jobParamProblems(trx, Number(job.project_id), actorOf(user), { [name]: value });
    if (problems.length) refuseParams(problems, 'value');
  },

  async beforeDelete({ trx, old, session }) {
    if (!(await findVisibleJob(trx, Number(old.job_id), viewerOf(session)))) throw new AppError('NO_RECORD');
  },
});
