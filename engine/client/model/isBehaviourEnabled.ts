import { rowsEnableBehaviour } from '../../core/index.js';
import type { BehaviourDefinition } from '../../schema/index.js';
import type { PageRights } from './pageRights.js';

/** The spec's cap on a selection (section 5). */
export const MAX_SELECTION = 100;

/**
 * Whether a toolbar behaviour can run on the selected rows (enabled by status and selection): the
 * selection must fit its rule (none, exactly one, one or more up to MAX_SELECTION) and every
 * selected row's status field must hold one of the allowed values.
 */
export function isBehaviourEnabled(behaviour: BehaviourDefinition, selected: readonly Record<string, unknown>[]): boolean {
  switch (behaviour.selection) {
    case 'none':
      break;
    case 'one':
      if (selected.length !== 1) return false;
      break;
    case 'many':
      if (selected.length < 1 || selected.length > MAX_SELECTION) return false;
      break;
  }
  // A behaviour that takes no selection has no row whose status could be checked.
  return behaviour.selection === 'none' || rowsEnableBehaviour(behaviour.enabledBy, selected);
}

/** Whether the user's rights show the behaviour at all (no button without the right). */
export function isBehaviourAllowed(behaviour: BehaviourDefinition, rights: PageRights): boolean {
  return rights[behaviour.right];
}
