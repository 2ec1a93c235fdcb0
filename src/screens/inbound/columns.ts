/** A table column showing a quantity (a decimal text in the answers) as a number. */
export function qtyColumn<Row>(title: string, of: (row: Row) => string) {
  return { title, render: (_: unknown, row: Row) => Number(of(row)) };
}
