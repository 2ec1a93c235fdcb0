import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import { LANGUAGES } from '../../../common/languages.js';
import type { DashboardWidget, ReportSpec } from '../../../common/report-api.js';
import { inTransaction } from '../../db/transaction.js';
import { TABLE_FILE_CONTENT_TYPES } from '../../files/table-file.js';
import { requireUser } from '../../http/access-plugin.js';
import { pageAccess, routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import { hasRight } from '../identity/index.js';
import { createBackgroundFile, inProcessRunner, produceBackgroundFile } from '../download/index.js';
import { reportDatabase } from './report.database.js';
import { REPORT_SAMPLE_ROWS, printReport, printTemplatesOf, reportDocument } from './report.print.js';
import {
  checkSpec,
  dashboardData,
  draftToPublish,
  exportsInBackground,
  getConfig,
  getDashboard,
  listConfigs,
  listRunnable,
  listVersions,
  planExport,
  publish,
  publishDashboard,
  runPage,
  saveDashboard,
  saveDraft,
  specToRun,
} from './report.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 503: ErrorBodySchema };
const route = routeOptions(['report'], errors);

/** Running published reports; configuring, and publishing, reports and the dashboard (docs/reports.md). */
const RUN = { right: 'report.generic:view', scope: 'project' } as const;
const { view: CONFIG_VIEW, edit: CONFIG_EDIT, publish: CONFIG_PUBLISH } = pageAccess('report.config', 'project', 'view', 'edit', 'publish');
const DASHBOARD = { right: 'report.dashboard:view', scope: 'project' } as const;

const Name = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,62}$' });
const Labels = Type.Record(Type.Union(LANGUAGES.map((l) => Type.Literal(l))), Type.String({ maxLength: 200 }));
const Ids = Type.Optional(Type.Array(IdSchema, { maxItems: 200 }));
const SpecSchema = StrictObject({
  sql: Type.String({ minLength: 1, maxLength: 20_000 }),
  params: Type.Array(StrictObject({ name: Name, labels: Labels, type: Type.Union([Type.Literal('text'), Type.Literal('number'), Type.Literal('date')]), required: Type.Optional(Type.Boolean()) }), { maxItems: 30 }),
  columns: Type.Array(
    StrictObject({
      name: Name,
      labels: Labels,
      type: Type.Union([Type.Literal('text'), Type.Literal('number'), Type.Literal('date'), Type.Literal('datetime')]),
      decimals: Type.Optional(Type.Integer({ minimum: 0, maximum: 6 })),
    }),
    { minItems: 1, maxItems: 100 },
  ),
  grouping: Type.Optional(
    Type.Union([
      Type.Null(),
      StrictObject({
        groupBy: Name,
        totals: Type.Array(StrictObject({ column: Name, aggregate: Type.Union([Type.Literal('sum'), Type.Literal('count'), Type.Literal('avg')]) }), { maxItems: 30 }),
      }),
    ]),
  ),
});
const ParamValues = Type.Optional(Type.Record(Type.String({ maxLength: 63 }), Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Null()])));
const Sort = Type.Optional(StrictObject({ column: Name, desc: Type.Optional(Type.Boolean()) }));
const Widget = StrictObject({
  kind: Type.Union([Type.Literal('number'), Type.Literal('chart'), Type.Literal('table')]),
  reportId: IdSchema,
  title: Labels,
  valueColumn: Type.Optional(Name),
  labelColumn: Type.Optional(Name),
  chart: Type.Optional(Type.Union([Type.Literal('bar'), Type.Literal('line'), Type.Literal('pie')])),
});

export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const reportDb = reportDatabase(app);
  const runner = inProcessRunner(app.log);

  app.post('/report/generic/list', route(RUN, 'The published reports the caller may run in the session project, in display order'), (request) =>
    listRunnable(db, requireUser(request), request.language),
  );

  app.post('/report/generic/configs', route(CONFIG_VIEW, "The session project's reports with their drafts, as the configurator edits them"), (request) =>
    listConfigs(db, requireUser(request)),
  );

  app.post('/report/generic/get', route(CONFIG_VIEW, 'One report of the session project with its draft and assignments', { body: StrictObject({ id: IdSchema }) }), (request) =>
    getConfig(db, requireUser(request), request.body.id),
  );

  app.post(
    '/report/generic/save',
    route(CONFIG_EDIT, "Saves a report's draft (names, order, SQL, parameters, columns, group totals, assignments) after its SQL compiled in the configurator sandbox", {
      body: StrictObject({
        id: Type.Optional(IdSchema),
        code: Type.String({ pattern: '^[A-Za-z0-9_-]{1,40}$' }),
        names: Labels,
        displayOrder: Type.Optional(Type.Integer({ minimum: -100000, maximum: 100000 })),
        draft: SpecSchema,
        assignments: Type.Optional(StrictObject({ organizationIds: Ids, projectIds: Ids, userIds: Ids })),
      }),
    }),
    async (request) => {
      const user = requireUser(request);
      const body = request.body;
      await checkSpec(await reportDb(), user, body.draft as ReportSpec);
      return inTransaction(db, (trx) => saveDraft(trx, user, { ...body, names: body.names as Record<string, string>, draft: body.draft as ReportSpec }));
    },
  );

  app.post('/report/generic/publish', route(CONFIG_PUBLISH, "Publishes a report's draft as its next version; operators run that version", { body: StrictObject({ id: IdSchema }) }), async (request) => {
    const user = requireUser(request);
    const checked = await draftToPublish(db, await reportDb(), user, request.body.id);
    return inTransaction(db, (trx) => publish(trx, user, request.body.id, checked));
  });

  app.post('/report/generic/versions', route(CONFIG_VIEW, "A report's published versions, newest first", { body: StrictObject({ id: IdSchema }) }), (request) =>
    listVersions(db, requireUser(request), request.body.id),
  );

  app.post(
    '/report/generic/run',
    route(RUN, "A page of a report's rows (its published version; the draft with `draft` for its configurator), the total and the group totals", {
      body: StrictObject({
        id: IdSchema,
        params: ParamValues,
        page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
        pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
        sort: Sort,
        draft: Type.Optional(Type.Boolean()),
      }),
    }),
    async (request) => {
      const user = requireUser(request);
      const body = request.body;
      if (body.draft === true && !(await hasRight(db, user, 'report.config:edit'))) throw new AppError('FORBIDDEN', { right: 'report.config:edit' });
      const run = await specToRun(db, user, body.id, body.draft === true);
      return runPage(await reportDb(), user, run.spec, run.version, { params: body.params ?? {}, page: body.page ?? 1, pageSize: body.pageSize ?? 50, sort: body.sort });
    },
  );

  app.post(
    '/report/generic/export',
    route(RUN, "Every row of a report's published version as xlsx or csv: the file itself, or, above a row count, a file of the download center written in the background (`{ id }`)", {
      body: StrictObject({ id: IdSchema, params: ParamValues, sort: Sort, format: Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')])) }),
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body;
      const format = body.format ?? 'xlsx';
      const run = await specToRun(db, user, body.id, false);
      const plan = await planExport(await reportDb(), user, run, { params: body.params ?? {}, sort: body.sort }, request.language);
      const fileName = `${plan.fileBase}-${new Date().toISOString().slice(0, 10)}.${format}`;
      if (exportsInBackground(plan)) {
        const id = await createBackgroundFile(db, {
          userId: user.userId,
          projectId: user.projectId,
          kind: 'report',
          title: plan.title,
          fileName,
          contentType: TABLE_FILE_CONTENT_TYPES[format],
          rowsTotal: plan.total,
          days: app.config.downloadDays,
          by: user.loginAccount,
        });
        runner(`report ${id}`, async () => {
          await produceBackgroundFile(db, id, (progress) => plan.render(format, progress), request.log);
        });
        return { background: true, id, rowsTotal: plan.total };
      }
      const { content } = await plan.render(format, () => undefined);
      return reply
        .header('content-type', TABLE_FILE_CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename="${encodeURIComponent(fileName)}"`)
        .send(content);
    },
  );

  app.post(
    '/report/generic/print/templates',
    route(RUN, "The session project's published document templates that print a report the caller may run", { body: StrictObject({ id: IdSchema }) }),
    async (request) => {
      const user = requireUser(request);
      await specToRun(db, user, request.body.id, false);
      return printTemplatesOf(db, user, request.body.id);
    },
  );

  app.post(
    '/report/generic/print',
    route(RUN, "A report's published version printed through one of the project's published templates for it, as PDF (its rows as the search finds them, at most 2,000)", {
      body: StrictObject({ id: IdSchema, templateId: IdSchema, params: ParamValues, sort: Sort }),
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body;
      const run = await specToRun(db, user, body.id, false);
      const pdf = await printReport(db, await reportDb(), user, body.id, run, body.templateId, { params: body.params ?? {}, sort: body.sort }, request.language);
      return reply.header('content-type', 'application/pdf').header('content-disposition', `inline; filename="${encodeURIComponent(run.code)}.pdf"`).send(pdf);
    },
  );

  app.post(
    '/report/generic/print/sample',
    route(RUN, "The document a report template prints, made of the report's first rows (its published version; the draft with `draft` for its configurator): the template designer's sample data", {
      body: StrictObject({ id: IdSchema, params: ParamValues, draft: Type.Optional(Type.Boolean()) }),
    }),
    async (request) => {
      const user = requireUser(request);
      const body = request.body;
      if (body.draft === true && !(await hasRight(db, user, 'report.config:edit'))) throw new AppError('FORBIDDEN', { right: 'report.config:edit' });
      const run = await specToRun(db, user, body.id, body.draft === true);
      return { documents: [await reportDocument(await reportDb(), user, run, { params: body.params ?? {} }, REPORT_SAMPLE_ROWS, request.language)] };
    },
  );

  app.post('/report/dashboard/get', route(DASHBOARD, "The session project's published dashboard with every widget's data"), async (request) =>
    dashboardData(db, await reportDb(), requireUser(request)),
  );

  app.post('/report/dashboard/draft', route(CONFIG_VIEW, "The session project's dashboard draft"), (request) => getDashboard(db, requireUser(request), true));

  app.post(
    '/report/dashboard/save',
    route(CONFIG_EDIT, "Saves the session project's dashboard draft: its widgets, each a report of the project as a number, a chart or a table", {
      body: StrictObject({ widgets: Type.Array(Widget, { maxItems: 24 }) }),
    }),
    (request) => inTransaction(db, (trx) => saveDashboard(trx, requireUser(request), request.body.widgets as DashboardWidget[])).then(() => ({ ok: true })),
  );

  app.post('/report/dashboard/publish', route(CONFIG_PUBLISH, "Publishes the session project's dashboard draft"), (request) =>
    inTransaction(db, (trx) => publishDashboard(trx, requireUser(request))),
  );
};
