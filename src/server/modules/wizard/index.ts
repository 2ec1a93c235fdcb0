/**
 * The public entry of the order wizards' area. Nothing of it is used by another area yet; the
 * kinds are exported for screens and tests that name them.
 */
export type { WizardKind, WizardData, TempOrder } from './wizard.service.js';
