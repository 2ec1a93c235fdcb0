import type { Kysely, Transaction } from 'kysely';
import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import type { RightName } from '../../../common/rights.js';
import type { EngineRow, EngineSession } from '../../../../engine/server/index.js';
import type { DB } from '../../db/schema.js';
import { defineBehaviour, type BehaviourDefinition, type BehaviourOutcome, type BehaviourPreview } from '../area.js';
import type { StockScope } from '../inventory/index.js';
import { orderNosOf } from './so-documents.service.js';

/** The scope an outbound action works in: the caller's project, warehouse and login; refused without a project or a warehouse. */
export function scopeOf(session: EngineSession): StockScope {
  if (session.projectId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'project' });
  if (session.warehouseId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
  return { projectId: session.projectId, warehouseId: session.warehouseId, operator: session.loginAccount };
}

/** The ids of the selected rows. */
export function keys(rows: readonly EngineRow[]): number[] {
  return rows.map((r) => Number(r._key));
}

/**
 * "Add orders" on a list of documents that group orders (consignments, shipment orders): the order
 * numbers typed in the dialog go on the one selected document, through `add`; the answer counts them
 * with `messageCode`.
 */
export function defineAddOrdersBehaviour(definition: {
  name: string;
  right: RightName;
  messageCode: string;
  add: (trx: Transaction<DB>, scope: StockScope, documentId: number, orderNos: string[]) => Promise<number>;
}): BehaviourDefinition {
  const { name, right, messageCode, add } = definition;
  return defineBehaviour({
    name,
    right,
    inputs: Type.Object({ orderNos: Type.String({ maxLength: 4000 }) }),
    async run({ trx, session, inputs, rows }) {
      const scope = scopeOf(session);
      const [id] = keys(rows);
      if (rows.length !== 1 || id === undefined) throw new AppError('NO_RECORD');
      const added = await add(trx, scope, id, orderNosOf(inputs.orderNos));
      return { result: { added }, messageCode, messageParams: { count: added } };
    },
  });
}

/**
 * An outbound action on the rows selected on a page, taking no inputs: `run` gets the transaction,
 * the caller's scope and the ids of the selected rows; `preview`, when given, the same with the
 * read-only handle (see BehaviourDefinition).
 */
export function defineSelectionBehaviour(definition: {
  name: string;
  right: RightName;
  run: (trx: Transaction<DB>, scope: StockScope, ids: number[]) => Promise<BehaviourOutcome>;
  preview?: (db: Kysely<DB>, scope: StockScope, ids: number[]) => Promise<BehaviourPreview>;
}): BehaviourDefinition {
  const { name, right, run, preview } = definition;
  return defineBehaviour({
    name,
    inputs: Type.Object({}),
    right,
    run: ({ trx, session, rows }) => run(trx, scopeOf(session), keys(rows)),
    ...(preview ? { preview: ({ db, session, rows }: { db: Kysely<DB>; session: EngineSession; rows: EngineRow[] }) => preview(db, scopeOf(session), keys(rows)) } : {}),
  });
}
