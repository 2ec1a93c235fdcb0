import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import type { RightName } from '../../../common/rights.js';
import { defineBehaviour, type BehaviourContext, type BehaviourDefinition } from '../area.js';
import { approveTicket, closeTickets, countLinesEmpty, createCountOrder, createDefaultCount, recountTicket } from './count.service.js';
import {
  cancelDocument,
  cancelRequest,
  cancelTransit,
  confirmDocument,
  confirmVerb,
  docTypeOfPage,
  requestApproval,
  transitDocument,
} from './document.service.js';
import type { DocType } from './inventory.tables.js';

/**
 * The header actions of the inventory documents (confirm, cancel, request approval,
 * cancel request; transfer also transit and cancel transit) and of the cycle count, as named
 * actions the shipped pages bind to their buttons. Each runs on the selected rows inside the
 * engine's transaction, one document after the other in key order.
 */

function keysOf(rows: BehaviourContext['rows']): number[] {
  return rows.map((r) => Number(r._key)).sort((a, b) => a - b);
}

function docTypeOf(functionCode: string): DocType {
  const type = docTypeOfPage(functionCode);
  if (!type) throw new AppError('SYSTEM_CONFIG');
  return type;
}

const done = (count: number) => ({ result: { count }, messageCode: 'inv.behaviour.done', messageParams: { count } });

function documentAction(name: string, run: (context: Pick<BehaviourContext, 'trx' | 'user' | 'events'>, type: DocType, id: number) => Promise<unknown>, right?: RightName): BehaviourDefinition {
  return defineBehaviour({
    name,
    ...(right ? { right } : {}),
    async run(context) {
      const type = docTypeOf(context.page.functionCode);
      for (const id of keysOf(context.rows)) await run(context, type, id);
      return done(context.rows.length);
    },
  });
}

/** Confirm of one document type: its own verb; a requested document is approved by it (the approve verb, not the requester). */
const confirmOf = (type: DocType) =>
  documentAction(`inventory.${type}.confirm`, ({ trx, user }, pageType, id) => {
    if (pageType !== type) throw new AppError('SYSTEM_CONFIG');
    return confirmDocument(trx, { user }, type, id);
  }, confirmVerb(type));

export const documentBehaviours: BehaviourDefinition[] = [
  confirmOf('adjust'),
  confirmOf('move'),
  confirmOf('transfer'),
  confirmOf('hold'),
  documentAction('inventory.document.cancel', ({ trx, user }, type, id) => cancelDocument(trx, { user }, type, id)),
  documentAction('inventory.document.requestApproval', ({ trx, user, events }, type, id) => requestApproval(trx, { user, events }, type, id)),
  documentAction('inventory.document.cancelRequest', ({ trx, user }, type, id) => cancelRequest(trx, { user }, type, id)),
  documentAction('inventory.transfer.transit', ({ trx, user }, _type, id) => transitDocument(trx, { user }, id), confirmVerb('transfer')),
  documentAction('inventory.transfer.cancelTransit', ({ trx, user }, _type, id) => cancelTransit(trx, { user }, id), confirmVerb('transfer')),
];

const Optional = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

export const countBehaviours: BehaviourDefinition[] = [
  defineBehaviour({
    name: 'inventory.count.createOrder',
    inputs: Type.Object({ ignoreCommitted: Optional(Type.Boolean()) }),
    right: 'inventory.count:create',
    async run({ trx, user, rows, inputs }) {
      const made = [];
      for (const id of keysOf(rows)) made.push(await createCountOrder(trx, { user }, id, { ignoreCommitted: inputs.ignoreCommitted !== false }));
      return { result: made, messageCode: 'inv.count.created', messageParams: { tickets: made.length, lines: made.reduce((n, m) => n + m.lines, 0) } };
    },
  }),
  defineBehaviour({
    name: 'inventory.count.createDefault',
    inputs: Type.Object({ locations: Optional(Type.Integer({ minimum: 1, maximum: 10000 })) }),
    right: 'inventory.count:create',
    async run({ trx, user, inputs }) {
      const made = await createDefaultCount(trx, { user }, inputs.locations ?? undefined);
      return { result: made, messageCode: 'inv.count.created', messageParams: { tickets: 1, lines: made.lines } };
    },
  }),
  defineBehaviour({
    name: 'inventory.count.recount',
    async run({ trx, user, rows }) {
      let lines = 0;
      for (const id of keysOf(rows)) lines += (await recountTicket(trx, { user }, id)).lines;
      return done(lines);
    },
  }),
  defineBehaviour({
    name: 'inventory.count.locationEmpty',
    async run({ trx, user, events, rows }) {
      const { lines } = await countLinesEmpty(trx, { user, events }, keysOf(rows));
      return { result: { count: lines }, messageCode: 'inv.count.emptyDone', messageParams: { count: lines } };
    },
  }),
  defineBehaviour({
    name: 'inventory.count.approve',
    right: 'inventory.count:approve',
    async run({ trx, user, rows }) {
      for (const id of keysOf(rows)) await approveTicket(trx, { user }, id);
      return done(rows.length);
    },
  }),
  defineBehaviour({
    name: 'inventory.count.close',
    async run({ trx, user, rows }) {
      const { closed } = await closeTickets(trx, { user }, keysOf(rows));
      return done(closed);
    },
  }),
];
