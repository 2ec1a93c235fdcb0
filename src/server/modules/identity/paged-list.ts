import { Type } from 'typebox';

/** The body of an administration list route: page, page size and a search text, each optional. */
export const PagedListBody = {
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  search: Type.Optional(Type.String({ maxLength: 100 })),
};

export interface Paging {
  offset: number;
  limit: number;
  page: number;
  pageSize: number;
}

/** Paging of administration lists (users, roles); a page never holds more than 100 rows. */
export function paging(input: { page?: number; pageSize?: number }): Paging {
  const pageSize = Math.min(Math.max(input.pageSize ?? 20, 1), 100);
  const page = Math.max(input.page ?? 1, 1);
  return { offset: (page - 1) * pageSize, limit: pageSize, page, pageSize };
}

/** One page of a list as the administration screens read it, each row mapped to its answer. */
export function pageAnswer<Row, Item>(page: Paging, listed: { rows: Row[]; total: number }, map: (row: Row) => Item) {
  return { page: page.page, pageSize: page.pageSize, total: listed.total, rows: listed.rows.map(map) };
}
