import { Table, type TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table';
import type { TFunction } from 'i18next';

/**
 * A short list inside a dialog, a panel or a scan screen: small rows, all on one page (what it
 * shows is already bounded by the screen's own query). Every other property is the table's own.
 */
export function CompactTable<Row extends object>(props: Omit<TableProps<Row>, 'size' | 'pagination'>) {
  return <Table<Row> size="small" pagination={false} {...props} />;
}

/** Plain text columns: each `[titleKey, field]` shows the row's field under the translated title. */
export function textColumns<Row>(t: TFunction, fields: ReadonlyArray<readonly [titleKey: string, field: keyof Row & string]>): ColumnType<Row>[] {
  return fields.map(([titleKey, field]) => ({ title: t(titleKey), dataIndex: field }));
}
