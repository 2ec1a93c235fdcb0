import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isDisplayable, loadPageDefinition, type FieldDefinition, type PageDefinition } from '../../../engine/schema/index.js';

/**
 * What a shift sees of the shipped pages (definitions/): no list column or form field showing a
 * stored key as a number, every master-data dropdown with its code and name, partner dropdowns of
 * their partner type only, and lot and SKU dropdowns following the SKU and owner of their line.
 */
const ROOT = path.resolve(import.meta.dirname, '../../../definitions');

function shippedPages(): PageDefinition[] {
  return fs.readdirSync(ROOT).flatMap((area) =>
    fs
      .readdirSync(path.join(ROOT, area))
      .filter((name) => name.endsWith('.page.json'))
      .map((name) => {
        const loaded = loadPageDefinition(JSON.parse(fs.readFileSync(path.join(ROOT, area, name), 'utf8')));
        if (!loaded.ok) throw new Error(`${area}/${name}: ${JSON.stringify(loaded.problems)}`);
        return loaded.value;
      }),
  );
}

const where = (page: PageDefinition, field: FieldDefinition) => `${page.moduleCode}/${page.functionCode}.${field.name}`;

function foreignFields(pages: PageDefinition[]): Array<{ page: PageDefinition; field: FieldDefinition; options: Extract<FieldDefinition['options'], { type: 'foreign' }> }> {
  return pages.flatMap((page) => page.fields.flatMap((field) => (field.options?.type === 'foreign' ? [{ page, field, options: field.options }] : [])));
}

describe('the shipped page definitions', () => {
  const pages = shippedPages();

  it('show no stored key as a number: a displayed *_id field reads as the code of its row', () => {
    const raw = pages.flatMap((page) =>
      page.fields.filter((field) => isDisplayable(field) && field.type === 'integer' && field.name.endsWith('_id') && field.options === undefined).map((field) => where(page, field)),
    );
    expect(raw).toEqual([]);
  });

  it('show code and name in every dropdown of a master table that has a name', () => {
    const named = new Set(['owner', 'partner', 'sku', 'location', 'warehouse', 'project', 'organization', 'app_user', 'currency', 'lot']);
    const codeOnly = foreignFields(pages)
      .filter(({ options }) => named.has(options.table) && options.descriptionField === undefined)
      .map(({ page, field }) => where(page, field));
    expect(codeOnly).toEqual([]);
  });

  it('offer only partners of the type the field asks for', () => {
    const partnerFields = foreignFields(pages).filter(({ options }) => options.table === 'partner');
    expect(partnerFields.length).toBeGreaterThan(0);
    const types = partnerFields.map(({ page, field, options }) => [where(page, field), options.filter?.find((f) => f.column === 'partner_type' && 'value' in f)]);
    expect(types).toEqual(
      partnerFields.map(({ page, field }) => [where(page, field), { column: 'partner_type', value: field.name === 'supplier_code' ? 'supplier' : 'consignee' }]),
    );
  });

  it('offer the lots of the chosen SKU, and the SKUs of the chosen owner where the line has one', () => {
    const loose = foreignFields(pages).flatMap(({ page, field, options }) => {
      const follows = (column: string, name: string) => options.filter?.some((f) => f.column === column && 'field' in f && f.field === name) && field.triggerFields?.includes(name);
      const has = (name: string) => page.fields.some((f) => f.name === name);
      const missing: string[] = [];
      if (options.table === 'lot' && has('sku_id') && !follows('sku_id', 'sku_id')) missing.push(`${where(page, field)} sku_id`);
      if (options.table === 'lot' && has('owner_id') && !follows('owner_id', 'owner_id')) missing.push(`${where(page, field)} owner_id`);
      if (options.table === 'sku' && page.table.name !== 'sku') {
        const owner = field.name === 'to_sku_id' ? 'to_owner_id' : 'owner_id';
        if (has(owner) && !follows('owner_id', owner)) missing.push(`${where(page, field)} ${owner}`);
      }
      return missing;
    });
    expect(loose).toEqual([]);
  });

  it('fill the ship-to of an order from the chosen consignee', () => {
    for (const functionCode of ['so', 'pso']) {
      const page = pages.find((p) => p.moduleCode === 'outbound' && p.functionCode === functionCode)!;
      const consignee = page.fields.find((f) => f.name === 'consignee_id')!;
      expect(consignee.options?.type === 'foreign' ? consignee.options.fill?.map((f) => f.field) : undefined).toEqual(['ship_to_name', 'ship_to_address_en']);
    }
  });
});
