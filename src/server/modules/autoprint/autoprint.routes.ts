import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import { inTransaction } from '../../db/transaction.js';
import { requireProject, requireUser, requireWarehouse } from '../../http/access-plugin.js';
import { pageAccess, routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import { hasRight } from '../identity/index.js';
import { listenForAutoPrint } from './autoprint.events.js';
import { deleteRules, listRules, printNow, saveRule, type AutoPrintScope, type ScopeCodes } from './autoprint.service.js';
import { AUTO_PRINT_EVENTS } from './autoprint.tables.js';
import { CRON_MAX_LENGTH } from '../job/index.js';
import { reportDatabase } from '../report/index.js';

const route = routeOptions(['autoprint'], { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema });

/** The auto print rules' screen (/autoPrint): view, add, edit, delete, and the verb print (print a rule now). */
const RULE = pageAccess('autoprint.rule', 'warehouse', 'view', 'add', 'edit', 'delete', 'print');

const Event = Type.Union(AUTO_PRINT_EVENTS.map((e) => Type.Literal(e)));

function scopeOf(request: FastifyRequest): AutoPrintScope & ScopeCodes {
  const user = requireUser(request);
  return { projectId: requireProject(user).projectId, warehouseId: requireWarehouse(user).warehouseId, by: user.loginAccount, projectCode: user.projectCode, warehouseCode: user.warehouseCode };
}

/**
 * Auto print rules of the session's project and warehouse (docs/printing.md "Auto print"): list
 * (with the templates and printers to choose from), save, delete, print a rule now; and the
 * printing on events itself (autoprint.events.ts).
 */
export const autoPrintRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  // A schedule rule printed now reads its report from the report database (REPORT_DATABASE_URL) when there is one.
  const reportDb = reportDatabase(app);
  listenForAutoPrint(app);

  app.post(
    '/config/ireport/autoPrint/list',
    route(RULE.view, "The auto print rules of the session's project and warehouse, the project's templates of a printable kind, the warehouse's active printers and the reports a schedule may print"),
    (request) => listRules(db, scopeOf(request), request.language),
  );

  app.post(
    '/config/ireport/autoPrint/save',
    route(RULE.edit, 'Saves an auto print rule: the event, the template (of a kind the event prints), a printer of the warehouse, copies and active, and for the event schedule its cron expression and report; a new one needs the add right', {
      body: StrictObject({
        id: Type.Optional(IdSchema),
        event: Event,
        templateId: IdSchema,
        printerId: IdSchema,
        copies: Type.Integer({ minimum: 1, maximum: 20 }),
        active: Type.Boolean(),
        remark: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
        cron: Type.Optional(Type.Union([Type.String({ maxLength: CRON_MAX_LENGTH }), Type.Null()])),
        reportId: Type.Optional(Type.Union([IdSchema, Type.Null()])),
      }),
    }),
    async (request) => {
      const scope = scopeOf(request);
      if (request.body.id === undefined && !(await hasRight(db, requireUser(request), RULE.add.right))) throw new AppError('FORBIDDEN', { right: RULE.add.right });
      return inTransaction(db, (trx) => saveRule(trx, scope, request.body));
    },
  );

  app.post('/config/ireport/autoPrint/delete', route(RULE.delete, 'Deletes auto print rules of the session scope', { body: StrictObject({ ids: Type.Array(IdSchema, { minItems: 1, maxItems: 100 }) }) }), (request) => {
    const scope = scopeOf(request);
    return inTransaction(db, (trx) => deleteRules(trx, scope, request.body.ids));
  });

  app.post(
    '/config/ireport/autoPrint',
    route(RULE.print, "Prints a rule now for an order of the session scope (a schedule rule: its report, no order), as its event would: rendered from the rule's template and queued on its printer (a document that cannot be made is a failed print job)", {
      body: StrictObject({ ruleId: IdSchema, orderNo: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })) }),
    }),
    (request) => printNow(db, scopeOf(request), request.body.ruleId, request.body.orderNo?.trim(), request.language, reportDb),
  );
};
