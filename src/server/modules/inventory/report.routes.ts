import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireUser } from '../../http/access-plugin.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import { inProcessRunner } from '../download/download.service.js';
import { createReportFile, writeReportFile } from './report.files.js';
import { planBalance, planTransactionLog, type ReportFormat, type ReportPlan } from './report.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const tags = ['inventory'];
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const ShortText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
const Format = Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')]));
const Started = Type.Object({ id: Type.Integer(), rowsTotal: Type.Integer() });

/**
 * The inventory reports exported in the background into the download center (issue: large
 * exports as background jobs with progress): the same rights, scope and rules as the screens,
 * checked before the file is stored; the answer comes at once with the file's id.
 */
export const inventoryReportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const runner = inProcessRunner(app.log);

  const start = async (user: ReturnType<typeof requireUser>, plan: ReportPlan, format: ReportFormat, log: Parameters<typeof writeReportFile>[4]) => {
    const id = await createReportFile(db, { userId: user.userId, projectId: user.projectId, by: user.loginAccount }, plan, format, app.config.downloadDays);
    runner(`report ${id}`, async () => {
      await writeReportFile(db, id, plan, format, log);
    });
    return { id, rowsTotal: plan.total };
  };

  app.post(
    '/inventory/transactionLog/background',
    {
      config: { access: { right: 'transaction:view', scope: 'warehouse' } },
      schema: {
        tags,
        summary: 'The transaction log of a type and a period written in the background into the download center',
        body: Type.Object(
          {
            transType: ShortText(20),
            from: Type.Optional(Type.Union([Day, Type.Null()])),
            to: Type.Optional(Type.Union([Day, Type.Null()])),
            skuCode: ShortText(60),
            locationCode: ShortText(40),
            format: Format,
          },
          { additionalProperties: false },
        ),
        response: { 200: Started, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const plan = await planTransactionLog(db, user, request.body, request.language);
      return start(user, plan, request.body.format ?? 'xlsx', request.log);
    },
  );

  app.post(
    '/inventory/balanceReport/background',
    {
      config: { access: { right: 'stdBalanceReport:view', scope: 'warehouse' } },
      schema: {
        tags,
        summary: 'The balance now, or the standard balance at the end of a past day, written in the background into the download center',
        body: Type.Object(
          {
            asOf: Type.Optional(Type.Union([Day, Type.Null()])),
            skuCode: ShortText(60),
            ownerCode: ShortText(40),
            locationCode: ShortText(40),
            format: Format,
          },
          { additionalProperties: false },
        ),
        response: { 200: Started, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const plan = await planBalance(db, user, request.body, request.language);
      return start(user, plan, request.body.format ?? 'xlsx', request.log);
    },
  );
};
