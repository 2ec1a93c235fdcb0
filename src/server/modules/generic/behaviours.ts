import type { Transaction } from 'kysely';
import { BehaviourRegistry, type BehaviourContext, type BehaviourHandler } from '../../../../engine/server/index.js';
import type { DB } from '../../db/schema.js';
import type { SessionUser } from '../../http/access.js';

/** What a registered behaviour gets on the server: the engine's context, typed for our database, and the session user. */
export interface GenericBehaviourContext extends Omit<BehaviourContext, 'trx'> {
  trx: Transaction<DB>;
  user: SessionUser;
}

export type GenericBehaviourHandler = BehaviourHandler<GenericBehaviourContext>;

/** The process's registry of named actions (DESIGN.md section 6). */
export const behaviourRegistry = new BehaviourRegistry<GenericBehaviourContext>();

/**
 * Registers a named action that page behaviours may name, e.g.
 * `registerBehaviour('masterdata.location.generate', handler)`. The handler runs inside the
 * transaction of `/api/generic/behavior` after rights, selection and status were checked; it must
 * write only through `context.trx` and throw an AppError to refuse (everything rolls back).
 */
export function registerBehaviour(name: string, handler: GenericBehaviourHandler): void {
  behaviourRegistry.register(name, handler);
}
