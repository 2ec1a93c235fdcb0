import type { Kysely, Transaction } from 'kysely';
import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import type { RightName } from '../../../common/rights.js';
import type { EngineRow, EngineSession } from '../../../../engine/server/index.js';
import type { DB } from '../../db/schema.js';
import { defineBehaviour, type BehaviourDefinition, type BehaviourOutcome, type BehaviourPreview } from '../area.js';
import type { StockScope } from '../inventory/index.js';

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
