import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CURRENT_SCHEMA_VERSION,
  SCHEMA_MIGRATIONS,
  loadPageDefinition,
  upgradePageDefinition,
  validatePageDefinition,
  type PageDefinition,
} from '../../../engine/schema/index.js';

const README = fs.readFileSync(path.resolve(import.meta.dirname, '../../../engine/schema/README.md'), 'utf8');

/** The example of the README, so that the documentation is itself checked. */
function readmeExample(): PageDefinition {
  const match = /```json\n([\s\S]*?)\n```/.exec(README);
  if (!match) throw new Error('README has no json example');
  return JSON.parse(match[1]) as PageDefinition;
}

function paths(document: unknown): string[] {
  const result = validatePageDefinition(document);
  return result.ok ? [] : result.problems.map((p) => `${p.path} ${p.code}`);
}

describe('page-definition schema', () => {
  it('accepts the README example', () => {
    const result = validatePageDefinition(readmeExample());
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('the last migration brings documents to the current version', () => {
    expect(SCHEMA_MIGRATIONS.at(-1)?.version).toBe(CURRENT_SCHEMA_VERSION);
    SCHEMA_MIGRATIONS.forEach((m, i) => expect(m.version).toBe(i + 2));
  });
});

describe(validatePageDefinition.name, () => {
  it('reports every schema problem with its JSON path at once', () => {
    const page = readmeExample() as unknown as Record<string, unknown> & { fields: Record<string, unknown>[] };
    delete page.titleCode;
    page.status = 'live';
    page.pageSize = 500;
    page.table = { name: 'sku; drop table sku' };
    page.fields[0].name = 'Code With Space';
    page.fields[1].labelCode = 'Literal label text';
    page.fields[2].type = 'money';
    page.fields[3].surprise = 1;
    expect(paths(page)).toEqual(
      expect.arrayContaining([
        '/titleCode required',
        '/status enum',
        '/pageSize maximum',
        '/table/name pattern',
        '/fields/0/name pattern',
        '/fields/1/labelCode pattern',
        '/fields/2/type enum',
        '/fields/3/surprise additionalProperties',
      ]),
    );
  });

  it('says in plain words what a refused label, name or code should look like, never the regular expression', () => {
    const page = readmeExample() as unknown as Record<string, unknown> & { fields: Record<string, unknown>[] };
    page.fields[0].name = 'Code With Space';
    page.fields[1].labelCode = 'Literal label text';
    const result = validatePageDefinition(page);
    const messages: Record<string, string> = result.ok ? {} : Object.fromEntries(result.problems.map((p) => [p.path, p.message]));
    expect(messages['/fields/1/labelCode']).toMatch(/^"Literal label text" is the code of a text, not the text itself: .*write the words themselves in the page's texts/);
    expect(messages['/fields/0/name']).toMatch(/^"Code With Space" is a table or column name: lower-case letters/);
    for (const message of Object.values(messages)) expect(message).not.toMatch(/must match pattern|\^\[/);
  });

  it('reports every semantic problem with its path', () => {
    const page = readmeExample();
    page.fields[1].name = 'code';
    page.fields[4].options = { type: 'sql', sql: 'missing_sql' };
    page.fields[5].validationSql = { sql: 'also_missing' };
    page.fields[9].calc = { type: 'product', params: ['length_cm', 'nope', 'volume_cm3'] };
    page.fields[9].triggerFields = ['ghost'];
    page.fields[6].length = 3;
    page.fields[7].min = 10;
    page.fields[7].max = 1;
    page.defaultSort = [{ field: 'unknown', direction: 'asc' }];
    page.behaviours![0].action = 'sql:not_there';
    page.behaviours!.push({ ...page.behaviours![0], action: 'masterdata.location.generate' });
    page.subPages![0].links[0].parentField = 'nothing';
    page.queryConditions![0].query = {
      combinator: 'or',
      rules: [{ field: 'description', operator: '=', value: 'x' }, { combinator: 'and', rules: [{ field: 'case_qty', operator: '>', value: 1 }] }],
    };
    page.fieldMaps![0].columns.push({ header: 'X', index: 3, field: 'code' });
    page.listSql = 'no_list';
    page.sqls!.push({ ...page.sqls![0] });
    expect(paths(page).sort()).toEqual(
      [
        '/fields/1/name duplicate',
        '/fields/4/options/sql unknownSql',
        '/fields/5/validationSql/sql unknownSql',
        '/fields/9/calc/params/1 unknownField',
        '/fields/9/calc/params/2 selfReference',
        '/fields/9/triggerFields/0 unknownField',
        '/fields/6/length notApplicable',
        '/fields/7/min range',
        '/defaultSort/0/field unknownField',
        '/behaviours/0/action unknownSql',
        '/behaviours/1/code duplicate',
        '/subPages/0/links/0/parentField unknownField',
        '/queryConditions/0/query/rules/1/rules/0/field unknownField',
        '/fieldMaps/0/columns/4 headerOrIndex',
        '/fieldMaps/0/columns/4/field duplicate',
        '/listSql unknownSql',
        '/sqls/3/name duplicate',
        // fields[1] was renamed from description, so what named it now names nothing
        '/fieldMaps/0/columns/1/field unknownField',
        '/queryConditions/0/query/rules/0/field unknownField',
      ].sort(),
    );
  });

  it('reports schema and semantic problems together', () => {
    const page = readmeExample() as unknown as Record<string, unknown> & { fields: Record<string, unknown>[] };
    page.status = 'live';
    page.fields[1].name = 'code';
    expect(paths(page)).toEqual(expect.arrayContaining(['/status enum', '/fields/1/name duplicate']));
  });

  it('checks the filter and fill of a foreign dropdown against the fields of the page', () => {
    const page = readmeExample();
    const owner = page.fields.find((f) => f.name === 'owner_id')!;
    const follows = (name: string) => ({ column: 'x', field: name });
    owner.options = {
      type: 'foreign',
      table: 'owner',
      valueField: 'id',
      descriptionField: 'name',
      filter: [{ column: 'kind', value: 'retail' }, follows('code'), follows('nope'), follows('owner_id'), follows('description')],
      fill: [
        { column: 'name', field: 'description' },
        { column: 'city', field: 'description' },
        { column: 'x', field: 'missing' },
        { column: 'y', field: 'owner_id' },
      ],
    };
    owner.triggerFields = ['code'];
    const at = `/fields/${page.fields.indexOf(owner)}/options`;
    expect(paths(page).sort()).toEqual(
      [
        // Not a trigger field: the list would not reload when it changes.
        `${at}/filter/2/field unknownField`,
        `${at}/filter/2/field notTrigger`,
        `${at}/filter/3/field selfReference`,
        `${at}/filter/4/field notTrigger`,
        `${at}/fill/1/field duplicate`,
        `${at}/fill/2/field unknownField`,
        `${at}/fill/3/field selfReference`,
      ].sort(),
    );
    owner.options = { type: 'foreign', table: 'owner', valueField: 'id', filter: [JSON.parse('{ "column": "kind", "value": 1, "field": "code" }')] };
    expect(paths(page).some((p) => p.startsWith(`${at}/filter/0`))).toBe(true);
  });

  it('checks the path and the parameters of a route dropdown', () => {
    const page = readmeExample();
    const owner = page.fields.find((f) => f.name === 'owner_id')!;
    const at = `/fields/${page.fields.indexOf(owner)}/options`;
    owner.options = { type: 'route', path: '/inventory/reasonCode?type=adjust', valueField: 'code', descriptionField: 'description' };
    expect(paths(page)).toEqual([]);
    owner.options = { type: 'route', path: '/generic/uom', method: 'POST', params: [{ name: 'skuId', field: 'code' }, { name: 'x', field: 'nope' }, { name: 'y', field: 'owner_id' }] };
    owner.triggerFields = ['code'];
    expect(paths(page).sort()).toEqual([`${at}/params/1/field unknownField`, `${at}/params/1/field notTrigger`, `${at}/params/2/field selfReference`].sort());
    // A full address, a path outside /api or a query built of anything but names and plain values is no route.
    for (const path of ['https://elsewhere.example/x', '/api/../x', 'inventory/reasonCode', '/inventory/reasonCode?type=<b>']) {
      owner.options = { type: 'route', path };
      expect(paths(page).some((p) => p.startsWith(`${at}/path`)), path).toBe(true);
    }
  });

  it('refuses an unknown query operator', () => {
    const page = readmeExample() as unknown as { queryConditions: { query: { rules: { operator: string }[] } }[] };
    page.queryConditions[0].query.rules[0].operator = 'like';
    expect(paths(page)).toContain('/queryConditions/0/query/rules/0/operator enum');
  });
});

describe('schema migrations', () => {
  it('0002 turns the flat version-1 field properties into foreign, options and calc', () => {
    const v1 = {
      moduleCode: 'masterdata',
      functionCode: 'sku',
      titleCode: 'ui.t',
      status: 'published',
      table: { name: 'sku' },
      scope: 'project',
      fields: [
        { name: 'owner_id', labelCode: 'ui.o', type: 'integer', foreignTable: 'owner', foreignField: 'id', optionType: 'foreign' },
        { name: 'uom', labelCode: 'ui.u', type: 'string', optionType: 'codeMaster', codeType: 'UOM' },
        { name: 'a', labelCode: 'ui.a', type: 'decimal' },
        { name: 'b', labelCode: 'ui.b', type: 'decimal' },
        { name: 'total', labelCode: 'ui.t', type: 'decimal', calcType: 'sum', calcParams: 'a, b', triggerFields: 'a,b' },
      ],
    };
    const upgraded = upgradePageDefinition(v1);
    expect(upgraded.fromVersion).toBe(1);
    expect(upgraded.document).toMatchObject({
      schemaVersion: 2,
      fields: [
        { name: 'owner_id', foreign: { table: 'owner', field: 'id' }, options: { type: 'foreign', table: 'owner', valueField: 'id' } },
        { name: 'uom', options: { type: 'codeMaster', codeType: 'UOM' } },
        {},
        {},
        { name: 'total', calc: { type: 'sum', params: ['a', 'b'] }, triggerFields: ['a', 'b'] },
      ],
    });
    expect(loadPageDefinition(v1).problems).toEqual([]);
    expect(v1.fields[0]).toHaveProperty('foreignTable');
  });

  it('refuses a document newer than this server', () => {
    const result = loadPageDefinition({ ...readmeExample(), schemaVersion: CURRENT_SCHEMA_VERSION + 1 });
    expect(result.ok).toBe(false);
    expect(result.problems[0]).toMatchObject({ path: '/schemaVersion', code: 'tooNew' });
  });
});
