import type { BehaviourDefinition } from '../schema/index.js';
import { sameValue } from './compare-values.js';

/**
 * Whether the status rule of a behaviour (`enabledBy`) lets it run on these rows: every row's
 * status field holds one of the allowed values, compared as values (a decimal status "10.00" is 10).
 * The toolbar enables its button with it and the server checks it again before the behaviour runs.
 * A behaviour without a status rule is enabled.
 */
export function rowsEnableBehaviour(enabledBy: BehaviourDefinition['enabledBy'], rows: readonly Readonly<Record<string, unknown>>[]): boolean {
  if (!enabledBy) return true;
  return rows.every((row) => enabledBy.values.some((value) => sameValue(value, row[enabledBy.field])));
}
