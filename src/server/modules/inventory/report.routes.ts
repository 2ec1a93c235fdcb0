import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Language } from '../../../common/languages.js';
import type { DB } from '../../db/schema.js';
import { requireUser } from '../../http/access-plugin.js';
import { Day, LogQuery, route, ShortText } from './inventory.schemas.js';
import { inProcessRunner } from '../download/index.js';
import type { ReportScope } from './query.service.js';
import { createReportFile, writeReportFile } from './report.files.js';
import { planBalance, planTransactionLog, type ReportFormat, type ReportPlan } from './report.service.js';

const Format = Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')]));
const Started = Type.Object({ id: Type.Integer(), rowsTotal: Type.Integer() });

/**
 * The inventory reports exported in the background into the download center, with their
 * progress there: the same rights, scope and rules as the screens,
 * checked before the file is stored; the answer comes at once with the file's id.
 */
export const inventoryReportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const runner = inProcessRunner(app.log);

  /** Plans a report as the caller (refusing what its screen refuses), stores its file and writes it in the background. */
  const start = async <I extends { format?: ReportFormat }>(request: FastifyRequest, input: I, plan: (db: Kysely<DB>, scope: ReportScope, input: I, language: Language) => Promise<ReportPlan>) => {
    const user = requireUser(request);
    const planned = await plan(db, user, input, request.language);
    const format = input.format ?? 'xlsx';
    const id = await createReportFile(db, { userId: user.userId, projectId: user.projectId, by: user.loginAccount }, planned, format, app.config.downloadDays);
    runner(`report ${id}`, async () => {
      await writeReportFile(db, id, planned, format, request.log);
    });
    return { id, rowsTotal: planned.total };
  };

  app.post(
    '/inventory/transactionLog/background',
    route(
      { right: 'transaction:view', scope: 'warehouse' },
      'The transaction log of a type and a period written in the background into the download center',
      { body: Type.Object({ ...LogQuery, format: Format }, { additionalProperties: false }) },
      Started,
    ),
    (request) => start(request, request.body, planTransactionLog),
  );

  app.post(
    '/inventory/balanceReport/background',
    route(
      { right: 'stdBalanceReport:view', scope: 'warehouse' },
      'The balance now, or the standard balance at the end of a past day, written in the background into the download center',
      { body: Type.Object({ asOf: Type.Optional(Type.Union([Day, Type.Null()])), skuCode: ShortText(60), ownerCode: ShortText(40), locationCode: ShortText(40), format: Format }, { additionalProperties: false }) },
      Started,
    ),
    (request) => start(request, request.body, planBalance),
  );
};
