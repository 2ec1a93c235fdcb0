import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requireProject, requireUser } from '../../http/access-plugin.js';
import { pageAccess, routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema, IdSchema, StrictObject } from '../../http/schemas.js';
import { renderInvoicePdf, renderLinesXlsx } from './billing.documents.js';
import { runsOf, runTracker, trackedRun } from './billing.progress.js';
import { billOf, cancelConfirmedBill, confirmBill, drillDown, issuedBillOf, postBill, runBilling, type BillingScope } from './billing.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const route = routeOptions(['billing'], errors);

const { view: VIEW, run: RUN, confirm: CONFIRM, post: POST } = pageAccess('billing.billingMaintance', 'project', 'view', 'run', 'confirm', 'post');

const Day = Type.String({ maxLength: 10 });
const BillQuery = StrictObject({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

/** A file name of a bill's document: its invoice number, else its bill id, in safe characters. */
function fileName(bill: { header: { invoice_no: string | null; bill_id: string } }, suffix: string): string {
  return `${(bill.header.invoice_no ?? bill.header.bill_id).replace(/[^A-Za-z0-9_-]/g, '_')}${suffix}`;
}

function scopeOf(request: FastifyRequest): BillingScope {
  const user = requireUser(request);
  return { projectId: requireProject(user).projectId, by: user.loginAccount };
}

/**
 * The billing calls: run billing for a customer and period (a draft bill, replaced when run again),
 * read a bill with its lines, the drill-down of a line, confirm, cancel a confirmation, and post. All work in the session's
 * project; each write is one transaction.
 */
export const billingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  // This server's runs on this database, and whether a second transaction may run beside a run's.
  runTracker(db, app.database.kind);

  app.post(
    '/billing/run',
    route(RUN, 'Runs billing for a customer (owner) and period under a bill id: a draft bill of lines computed from the tariffs of the customer contract', {
      body: StrictObject({ ownerId: IdSchema, billId: Type.String({ maxLength: 60 }), cutoffDate: Day, periodFrom: Day, periodTo: Day, contractId: Type.Optional(IdSchema), billCurrency: Type.Optional(Type.String({ maxLength: 10 })) }),
    }),
    (request) => {
      const scope = scopeOf(request);
      return trackedRun(db, scope, request.body.ownerId, request.body.billId, (trx, progress) => runBilling(trx, scope, request.body, progress));
    },
  );

  app.post(
    '/billing/run/progress',
    route(VIEW, "The project's billing runs going on and those finished in the last ten minutes, on any server: who started them and when, their stage and percent", { body: StrictObject({}) }),
    async (request) => ({ runs: await runsOf(db, scopeOf(request).projectId) }),
  );

  app.post('/billing/bill', route(VIEW, 'A bill with its lines', { body: StrictObject({ id: IdSchema }) }), (request) => billOf(db, scopeOf(request).projectId, request.body.id));

  app.post('/billing/line/sources', route(VIEW, 'What a bill line counted: ledger rows, orders, storage snapshot days or the month of a fixed fee', { body: StrictObject({ lineId: IdSchema }) }), (request) =>
    drillDown(db, scopeOf(request).projectId, request.body.lineId),
  );

  app.post('/billing/confirm', route(CONFIRM, 'Confirms a draft bill: every event its lines counted is billed and never counted by another bill', { body: StrictObject({ id: IdSchema }) }), (request) => {
    const scope = scopeOf(request);
    return inTransaction(db, (trx) => confirmBill(trx, scope, request.body.id));
  });

  app.post(
    '/billing/cancel',
    route(CONFIRM, 'Takes a confirmed bill back to draft before posting: the events it billed are released for a new run', { body: StrictObject({ id: IdSchema }) }),
    (request) => {
      const scope = scopeOf(request);
      return inTransaction(db, (trx) => cancelConfirmedBill(trx, scope, request.body.id));
    },
  );

  app.post('/billing/post', route(POST, 'Posts a confirmed bill: invoice number and date; the bill is read only from then on', { body: StrictObject({ id: IdSchema }) }), (request) => {
    const scope = scopeOf(request);
    return inTransaction(db, (trx) => postBill(trx, scope, request.body.id));
  });

  app.get('/billing/invoice.pdf', route(VIEW, 'The invoice of a confirmed or posted bill as PDF: header, bill-to, lines and total in the bill currency', { querystring: BillQuery }), async (request, reply) => {
    const bill = await issuedBillOf(db, scopeOf(request).projectId, request.query.id);
    const pdf = await renderInvoicePdf(bill, request.language);
    return reply.header('content-type', 'application/pdf').header('content-disposition', `inline; filename="${fileName(bill, '.pdf')}"`).send(pdf);
  });

  app.get('/billing/lines.xlsx', route(VIEW, 'The lines of a bill as an xlsx workbook', { querystring: BillQuery }), async (request, reply) => {
    const bill = await billOf(db, scopeOf(request).projectId, request.query.id);
    const file = await renderLinesXlsx(bill, request.language);
    return reply.header('content-type', file.contentType).header('content-disposition', `attachment; filename="${fileName(bill, '-lines.xlsx')}"`).send(file.content);
  });
};
