/**
 * THE type of rights, shared by the server and the screens. Every module and
 * sub-module has the four page actions; an area may declare its own verbs beside them
 * (`outbound.so:allocate`, `inventory.adjust:approve`), which a role grants one by one.
 */
export const RIGHT_ACTIONS = ['view', 'add', 'edit', 'delete'] as const;
export type RightAction = (typeof RIGHT_ACTIONS)[number];

/** A verb of an area's own: lower camel case, never one of the four actions. */
export const RIGHT_VERB_PATTERN = /^[a-z][A-Za-z0-9]*$/;

/** `<module>:<action|verb>` or `<module>.<subModule>:<action|verb>`, e.g. `masterdata.sku:edit`. */
export type RightName = `${string}:${string}`;

export function isRightAction(value: string): value is RightAction {
  return (RIGHT_ACTIONS as readonly string[]).includes(value);
}

export interface ParsedRight {
  module: string;
  subModule: string | null;
  /** One of the four actions, or a verb. */
  action: string;
}

/** Splits `sku:edit`, `masterdata.sku:edit` or `outbound.so:allocate`; null when it is not a right name. */
export function parseRightName(right: string): ParsedRight | null {
  const colon = right.lastIndexOf(':');
  if (colon <= 0) return null;
  const action = right.slice(colon + 1);
  if (!isRightAction(action) && !RIGHT_VERB_PATTERN.test(action)) return null;
  const parts = right.slice(0, colon).split('.');
  if (parts.length > 2 || parts.some((p) => !/^[A-Za-z][A-Za-z0-9_]*$/.test(p))) return null;
  return { module: parts[0], subModule: parts[1] ?? null, action };
}
