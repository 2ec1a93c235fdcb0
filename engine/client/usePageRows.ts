import { useCallback, useRef, useState } from 'react';
import type { PageDefinition, RuleGroup, Sort } from '../schema/index.js';
import type { GenericRow, PageRef, RowKey, SelectionResponse, TabResponse } from '../schema/api.js';
import { useEngineServices } from './services.js';

/** The header row whose sub-page rows a tab lists: which tab of which parent page, and the row. */
export interface ParentRowLink {
  parent: PageRef;
  subPage: string;
  parentKey: RowKey;
}

/** How many rows the list holds; `estimated` when the server answered the planner's guess. */
export interface PageTotal {
  count: number;
  estimated: boolean;
}

export interface PageRows {
  /** The grid's data source: one page of rows through `/generic/selection`, or `/generic/tab` for a sub-page. */
  fetchRows: (pageNo: number, size: number, sort: Sort[]) => Promise<SelectionResponse>;
  /** Changes when the grid must fetch again. */
  reloadToken: number;
  /** Clears the selection and fetches the rows again (after a search, a save, a behaviour). */
  reload: () => void;
  selected: GenericRow[];
  setSelected: (rows: GenericRow[]) => void;
  total: PageTotal | null;
  setTotal: (count: number, estimated: boolean) => void;
  /** The sort of the last fetch, else the page's default: what an export of the list uses. */
  currentSort: () => Sort[];
}

/**
 * The rows of a page's list: the grid's data source filtered by the current
 * conditions, the selection, the total and the reload signal. A sub-page tab lists the rows of its
 * header row through the tab API instead.
 */
export function usePageRows(page: PageDefinition, conditions: RuleGroup | undefined, link: ParentRowLink | undefined): PageRows {
  const services = useEngineServices();
  const [reloadToken, setReloadToken] = useState(0);
  const [selected, setSelected] = useState<GenericRow[]>([]);
  const [total, setTotalState] = useState<PageTotal | null>(null);
  const lastSort = useRef<Sort[]>(page.defaultSort ?? []);
  // The grid keeps the data source it was given; a new search reaches it through this ref and a reload.
  const conditionsRef = useRef(conditions);
  conditionsRef.current = conditions;

  const reload = useCallback(() => {
    setSelected([]);
    setReloadToken((token) => token + 1);
  }, []);

  const fetchRows = useCallback(
    async (pageNo: number, size: number, sort: Sort[]): Promise<SelectionResponse> => {
      lastSort.current = sort.length > 0 ? sort : (page.defaultSort ?? []);
      const sortPart = sort.length > 0 ? { sort } : {};
      const conditionPart = conditionsRef.current ? { conditions: conditionsRef.current } : {};
      if (link) {
        return services.call<TabResponse>('/generic/tab', {
          moduleCode: link.parent.moduleCode,
          functionCode: link.parent.functionCode,
          subPage: link.subPage,
          parentKey: link.parentKey,
          page: pageNo,
          pageSize: size,
          ...conditionPart,
          ...sortPart,
        });
      }
      return services.call<SelectionResponse>('/generic/selection', {
        moduleCode: page.moduleCode,
        functionCode: page.functionCode,
        page: pageNo,
        pageSize: size,
        ...conditionPart,
        ...sortPart,
      });
    },
    [page.moduleCode, page.functionCode, page.defaultSort, link, services],
  );

  const setTotal = useCallback((count: number, estimated: boolean) => setTotalState({ count, estimated }), []);
  const currentSort = useCallback(() => lastSort.current, []);

  return { fetchRows, reloadToken, reload, selected, setSelected, total, setTotal, currentSort };
}
