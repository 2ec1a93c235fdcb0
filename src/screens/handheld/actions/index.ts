import type { RuntimeFunction } from '../../../common/handheld-api';
import { count } from './count';
import { load } from './load';
import { move } from './move';
import { pack } from './pack';
import { pick } from './pick';
import { putaway } from './putaway';
import { receive } from './receive';
import type { FlowActions } from './types';

/**
 * The one table of the runtime's actions, by function: /rfFlow runs a function's published
 * configuration with these, and HANDHELD_ACTIONS (src/common/handheld-api.ts) lists the same
 * names for publishing (tests/unit/handheld-actions.test.ts keeps the two alike).
 */
export const FLOWS: Record<RuntimeFunction, FlowActions<unknown>> = { receive, putaway, move, count, pick, pack, load };

export { StepRefusal } from './types';
export type { FlowActions, Fields, ListedTask, ScanLookup } from './types';
