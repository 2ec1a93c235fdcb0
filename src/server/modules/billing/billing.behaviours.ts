import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import type { EngineSession } from '../../../../engine/server/index.js';
import type { RightName } from '../../../common/rights.js';
import { defineBehaviour } from '../area.js';
import { findOwnerByCode } from './billing.repository.js';
import { trackedRun } from './billing.progress.js';
import { cancelConfirmedBill, confirmBill, postBill, runBilling, type BillingScope } from './billing.service.js';

/** The project a billing action works in and who does it; refused without a project. */
export function billingScopeOf(session: EngineSession): BillingScope {
  if (session.projectId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'project' });
  return { projectId: session.projectId, by: session.loginAccount };
}

const Day = Type.String({ maxLength: 10 });

/** The run form of the bill page: customer code, bill id, cut-off date and period; the draft bill it made is offered as a link. */
export const runBillingBehaviour = defineBehaviour({
  name: 'billing.bill.run',
  right: 'billing.billingMaintance:run',
  inputs: Type.Object({ ownerCode: Type.String({ maxLength: 60 }), billId: Type.Optional(Type.Union([Type.String({ maxLength: 60 }), Type.Null()])), cutoffDate: Day, periodFrom: Day, periodTo: Day, billCurrency: Type.Optional(Type.Union([Type.String({ maxLength: 10 }), Type.Null()])) }),
  async run({ trx, db, session, inputs }) {
    const scope = billingScopeOf(session);
    const owner = await findOwnerByCode(trx, scope.projectId, inputs.ownerCode.trim());
    if (!owner) throw new AppError('NO_RECORD');
    const input = { ownerId: Number(owner.id), billId: inputs.billId ?? '', cutoffDate: inputs.cutoffDate, periodFrom: inputs.periodFrom, periodTo: inputs.periodTo, billCurrency: inputs.billCurrency ?? undefined };
    // The run goes on in the action's transaction; its progress is written beside it, for every server to see.
    const bill = await trackedRun(db, scope, input.ownerId, input.billId, (runTrx, progress) => runBilling(runTrx, scope, input, progress), trx);
    return {
      result: { id: bill.header.id, billId: bill.header.bill_id },
      messageCode: 'billing.result.run',
      messageParams: { billId: bill.header.bill_id, lines: bill.lines.length, total: bill.header.total_amount, currency: bill.header.currency_code },
      links: [{ labelCode: 'billing.result.openBill', labelParams: { billId: bill.header.bill_id }, moduleCode: 'billing', functionCode: 'billingMaintance', filter: { bill_id: bill.header.bill_id } }],
    };
  },
});

function keysOf(rows: ReadonlyArray<{ _key: unknown }>): number[] {
  if (rows.length === 0) throw new AppError('BEHAVIOUR_SELECTION');
  return rows.map((r) => Number(r._key));
}

/** A verb on the selected bills, one after the other in the behaviour's transaction, answering how many. */
function billVerb(name: string, right: RightName, action: (trx: Parameters<typeof confirmBill>[0], scope: BillingScope, id: number) => Promise<unknown>, messageCode: string) {
  return defineBehaviour({
    name,
    right,
    inputs: Type.Object({}),
    async run({ trx, session, rows }) {
      const scope = billingScopeOf(session);
      for (const id of keysOf(rows)) await action(trx, scope, id);
      return { result: { count: rows.length }, messageCode, messageParams: { count: rows.length } };
    },
  });
}

/** Confirm: the selected draft bills become confirmed, their counted events billed. */
export const confirmBillBehaviour = billVerb('billing.bill.confirm', 'billing.billingMaintance:confirm', confirmBill, 'billing.result.confirmed');

/** Cancel a confirmation: the selected confirmed bills go back to draft, their billed events released. */
export const cancelBillBehaviour = billVerb('billing.bill.cancel', 'billing.billingMaintance:confirm', cancelConfirmedBill, 'billing.result.cancelled');

/** Post: the selected confirmed bills get their invoice number and date and become read only. */
export const postBillBehaviour = defineBehaviour({
  name: 'billing.bill.post',
  right: 'billing.billingMaintance:post',
  inputs: Type.Object({}),
  async run({ trx, session, rows }) {
    const scope = billingScopeOf(session);
    const invoices: string[] = [];
    for (const id of keysOf(rows)) invoices.push((await postBill(trx, scope, id)).header.invoice_no ?? '');
    return { result: { invoices }, messageCode: 'billing.result.posted', messageParams: { count: rows.length, invoices: invoices.join(', ') } };
  },
});

export const billingBehaviours = [runBillingBehaviour, confirmBillBehaviour, cancelBillBehaviour, postBillBehaviour];
