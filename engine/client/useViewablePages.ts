import { useEffect, useMemo, useState } from 'react';
import { useEngineServices } from './services.js';

export interface PageKey {
  moduleCode: string;
  functionCode: string;
}

/** `moduleCode/functionCode`, the key the set of `useViewablePages` holds. */
export function pageKeyOf(page: PageKey): string {
  return `${page.moduleCode}/${page.functionCode}`;
}

/**
 * Which of the pages the caller may view, by `pageKeyOf`, as the host's `pageRights` tells. The
 * server refuses to open a page without its view right (and the host ends the session on a
 * refusal), so a tab or link to one is not offered. None is viewable until the host has answered;
 * a host without `pageRights` offers them all.
 */
export function useViewablePages(pages: readonly PageKey[]): ReadonlySet<string> {
  const services = useEngineServices();
  const wanted = [...new Set(pages.map(pageKeyOf))].sort().join('|');
  const keys = useMemo(() => (wanted === '' ? [] : wanted.split('|')), [wanted]);
  const [viewable, setViewable] = useState<ReadonlySet<string>>(() => new Set());
  const { pageRights } = services;
  useEffect(() => {
    if (!pageRights || keys.length === 0) return;
    let live = true;
    void Promise.all(
      keys.map((key) => {
        const [moduleCode = '', functionCode = ''] = key.split('/');
        return pageRights(moduleCode, functionCode).then(
          (rights) => (rights.view ? key : null),
          () => null,
        );
      }),
    ).then((held) => {
      if (live) setViewable(new Set(held.filter((key): key is string => key !== null)));
    });
    return () => {
      live = false;
    };
  }, [keys, pageRights]);
  return useMemo(() => (pageRights ? viewable : new Set(keys)), [pageRights, viewable, keys]);
}
