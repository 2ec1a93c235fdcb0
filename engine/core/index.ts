/**
 * Public entry of the engine's core: the logic that the browser renderer
 * (engine/client) and the server (engine/server) must answer alike, written once. It is pure: it
 * imports only engine/schema and decimal.js, never React, the DOM, Node or the database.
 */
export { evaluateRuleGroup } from './evaluate-rule-group.js';
export { applyCalculations, calculateField, type CalculatedField } from './calculate-field.js';
export { compareValues, sameValue } from './compare-values.js';
export { isEmptyValue } from './is-empty-value.js';
export { toText } from './to-text.js';
export { rowsEnableBehaviour } from './rows-enable-behaviour.js';
