import { useEffect, useState } from 'react';
import { api } from './api/client';
import { getToken } from './api/token';

/** The four actions of a module's right, as the server grants them. */
export interface ActionRights {
  view: boolean;
  add: boolean;
  edit: boolean;
  delete: boolean;
}

interface PermissionAnswer {
  isAdmin: boolean;
  permissions: ({ module: string; subModule: string | null } & ActionRights)[];
}

const NONE: ActionRights = { view: false, add: false, edit: false, delete: false };
const ALL: ActionRights = { view: true, add: true, edit: true, delete: true };

/** The caller's rights, read once per session token (they change only when an administrator edits the roles). */
let cached: { token: string | null; answer: Promise<PermissionAnswer> } | undefined;

function permissions(): Promise<PermissionAnswer> {
  const token = getToken();
  if (!cached || cached.token !== token) {
    const answer = api<PermissionAnswer>('/permission', { quiet: true });
    // A failed read is asked again next time, not kept.
    answer.catch(() => (cached = undefined));
    cached = { token, answer };
  }
  return cached.answer;
}

/**
 * The rights on `module` or `module.subModule` as the server decides them: a sub-module's own
 * entries, when the user has any, decide for it; otherwise the module's do. Any right on a module
 * includes viewing it; administrators hold every right.
 */
export function rightsOf(answer: PermissionAnswer, target: string): ActionRights {
  if (answer.isAdmin) return ALL;
  const [module, subModule = null] = target.split('.', 2);
  const ofModule = answer.permissions.filter((p) => p.module === module);
  const ofSub = subModule === null ? [] : ofModule.filter((p) => p.subModule === subModule);
  const deciding = ofSub.length ? ofSub : ofModule.filter((p) => p.subModule === null);
  const holds = (action: keyof ActionRights) => deciding.some((p) => p[action]);
  return { view: holds('view') || holds('add') || holds('edit') || holds('delete'), add: holds('add'), edit: holds('edit'), delete: holds('delete') };
}

/** The user's rights on a module or `module.subModule` (an engine page is `moduleCode.functionCode`). */
export function rightsFor(target: string): Promise<ActionRights> {
  return permissions().then((answer) => rightsOf(answer, target));
}

/**
 * The user's rights on a module, for a hand-written screen to show only the buttons whose calls the
 * server would allow (a refused call ends the session in this client). Nothing is granted until
 * the answer is in.
 */
export function useRights(target: string): ActionRights {
  const [rights, setRights] = useState<ActionRights>(NONE);
  useEffect(() => {
    let live = true;
    rightsFor(target)
      .then((held) => live && setRights(held))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [target]);
  return rights;
}
