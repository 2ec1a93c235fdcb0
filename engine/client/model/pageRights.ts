import type { PageViewResponse } from '../../schema/api.js';

/** The caller's rights on a page's module, as `GET /api/generic/module/view` answers them. */
export type PageRights = PageViewResponse['rights'];

/** What the toolbar may offer: a read-only page offers no add, edit, delete or import whatever the rights. */
export function effectiveRights(rights: PageRights, readOnly: boolean | undefined): PageRights {
  if (!readOnly) return rights;
  return { view: rights.view, add: false, edit: false, delete: false };
}
