import type { PageDefinition, ScalarValue } from '../schema/index.js';
import type { EngineTransaction } from './engine-db.js';
import type { EngineSession } from './engine-session.js';
import type { EngineRow } from './normalize-row.js';

/** What a behaviour handler gets: the open transaction and the rows the user selected (in scope). */
export interface BehaviourContext<Trx = EngineTransaction> {
  trx: Trx;
  page: PageDefinition;
  session: EngineSession;
  rows: EngineRow[];
  inputs: Record<string, ScalarValue>;
}

export interface BehaviourOutcome {
  result?: unknown;
  messageCode?: string;
  messageParams?: Record<string, string | number>;
}

export type BehaviourHandler<Context = BehaviourContext> = (context: Context) => Promise<BehaviourOutcome | void>;

const ACTION_NAME = /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/;

/**
 * The registry of named actions that page behaviours name (DESIGN.md section 6: behaviours name
 * registered actions, never inline code). Modules register at start-up; `/api/generic/behavior`
 * dispatches to them, each run inside one transaction. Registering a name again replaces its
 * handler: an application built twice in one process (tests) registers its modules twice.
 */
export class BehaviourRegistry<Context = BehaviourContext> {
  private readonly handlers = new Map<string, BehaviourHandler<Context>>();

  register(name: string, handler: BehaviourHandler<Context>): void {
    if (!ACTION_NAME.test(name)) throw new Error(`behaviour name "${name}" is not <module>.<name>`);
    this.handlers.set(name, handler);
  }

  get(name: string): BehaviourHandler<Context> | undefined {
    return this.handlers.get(name);
  }

  names(): string[] {
    return [...this.handlers.keys()].sort();
  }
}
