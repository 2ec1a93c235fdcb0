import { sql, type CreateTableBuilder } from 'kysely';
import { textColumns } from '../../../db/migrations/helpers.js';

/**
 * Column groups the outbound migrations share between sales and pre-sales orders. What they add
 * must never change: migrations that ran already used them.
 */

/** Whose goods an order ships, to whom and how (`ShipToColumns` of outbound.tables.ts). */
export function withShipTo<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('owner.id'))
    .addColumn('consignee_id', 'bigint', (col) => col.references('partner.id'))
    .$call(textColumns('customer_order_no', 'ship_to_name', 'ship_to_address_en', 'ship_to_address_cn', 'carrier_code'))
    .addColumn('required_ship_date', 'date');
}

/** The first columns of an order line: its order (`header` of `headerTable`, deleted with it), number, SKU, quantity, unit and lot. */
export function orderLineColumns(header: string, headerTable: string) {
  return <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
    table
      .addColumn(header, 'bigint', (col) => col.notNull().references(`${headerTable}.id`).onDelete('cascade'))
      .addColumn('line_no', 'integer', (col) => col.notNull().check(sql`line_no > 0`))
      .addColumn('sku_id', 'bigint', (col) => col.notNull().references('sku.id'))
      .addColumn('qty', 'numeric(18, 4)', (col) => col.notNull().check(sql`qty > 0`))
      .addColumn('uom', 'text', (col) => col.notNull().defaultTo('EA'))
      .addColumn('lot_no', 'text');
}
