import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AreaModule } from '../../src/server/area-kit/area.js';
import { MODULES } from '../../src/server/modules/index.js';

/**
 * Every table belongs to one area: the area whose `*.tables.ts` adds it to `interface DB` (or whose
 * migration creates it); the kernel's own (the event outbox) belong to the kernel. An area writes
 * only its own tables: another area's rows change through that area's service. An area reads
 * another area's tables only in a read model its manifest declares (`readModels`: the files holding
 * the SQL and the tables they read). This test reads the SQL of every area's files (Kysely calls
 * naming a table, and raw sql`...` text) and checks both. Migrations are history and are not read
 * for this, only for who creates which table.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER = path.join(ROOT, 'src/server');
const MODULES_DIR = path.join(SERVER, 'modules');

/** Folders of modules/ that are one area between them (as in scripts/eslint/import-boundaries.mjs). */
const AREA_GROUPS: Record<string, string> = { access: 'identity', auth: 'identity', user: 'identity', role: 'identity', identity: 'identity' };
const KERNEL = 'kernel';

interface TableUse {
  table: string;
  kind: 'read' | 'write';
}

interface Violation {
  /** The file, relative to the repository. */
  file: string;
  table: string;
  kind: 'read' | 'write';
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The area of a file under modules/<folder>/ (undefined for the shared files of modules/ and the kernel). */
function areaOf(file: string): string | undefined {
  const parts = path.relative(MODULES_DIR, file).split(path.sep);
  if (parts[0] === '..' || parts.length < 2) return undefined;
  return AREA_GROUPS[parts[0]] ?? parts[0];
}

function isMigration(file: string): boolean {
  return file.split(path.sep).includes('migrations');
}

/** The text of a template literal starting at the backtick `start`, its substitutions blanked; and where it ends. */
function readTemplate(source: string, start: number): { text: string; end: number } {
  let text = '';
  let i = start + 1;
  while (i < source.length) {
    const char = source[i];
    if (char === '\\') {
      text += source.slice(i, i + 2);
      i += 2;
    } else if (char === '`') {
      return { text, end: i + 1 };
    } else if (char === '$' && source[i + 1] === '{') {
      let depth = 1;
      i += 2;
      while (i < source.length && depth > 0) {
        if (source[i] === '`') {
          i = readTemplate(source, i).end;
          continue;
        }
        if (source[i] === '{') depth++;
        if (source[i] === '}') depth--;
        i++;
      }
      text += ' ? ';
    } else {
      text += char;
      i++;
    }
  }
  return { text, end: i };
}

/** The text of every sql`...` (also sql<Type>`...`) of a file. */
export function sqlTemplates(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/\bsql\s*(<)?/g)) {
    let i = match.index + match[0].length;
    if (match[1]) {
      // Skip the type arguments, however deeply nested.
      let depth = 1;
      while (i < source.length && depth > 0) {
        if (source[i] === '<') depth++;
        if (source[i] === '>' && source[i - 1] !== '=') depth--;
        i++;
      }
    }
    while (/\s/.test(source[i] ?? '')) i++;
    if (source[i] === '`') found.push(readTemplate(source, i).text);
  }
  return found;
}

const KYSELY_READ = ['selectFrom', 'innerJoin', 'leftJoin', 'rightJoin', 'fullJoin', 'using'];
const KYSELY_WRITE = ['updateTable', 'insertInto', 'deleteFrom', 'mergeInto', 'replaceInto'];

/** The tables a file's SQL names (Kysely calls with a table name, raw SQL text), as read or write. */
export function tableUses(source: string): TableUse[] {
  const uses: TableUse[] = [];
  const tableOf = (text: string) => text.trim().split(/\s+as\s+/i)[0].trim().replace(/^public\./, '');
  const call = new RegExp(`\\.(${[...KYSELY_READ, ...KYSELY_WRITE].join('|')})\\(\\s*(?:(['"])([^'"]+)\\2|\\[([^\\]]*)\\])`, 'g');
  for (const match of source.matchAll(call)) {
    const kind = KYSELY_WRITE.includes(match[1]) ? 'write' : 'read';
    const names = match[3] !== undefined ? [match[3]] : [...(match[4] ?? '').matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1]);
    for (const name of names) uses.push({ table: tableOf(name), kind });
  }
  // The kernel's row writers (src/server/db/row-writes.ts) take the table after the transaction.
  for (const match of source.matchAll(/\b(?:insertPlacedRow|insertPlacedRowReturning|updateRowById|updateRowByIdReturning|publishNextVersion)\(\s*\w+\s*,\s*(['"])([^'"]+)\1/g)) {
    uses.push({ table: match[2], kind: 'write' });
  }
  for (const text of sqlTemplates(source)) {
    const write = /\b(?:insert\s+into|delete\s+from|merge\s+into|update)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)"?/gi;
    for (const match of text.matchAll(write)) uses.push({ table: match[1].toLowerCase(), kind: 'write' });
    const rest = text.replace(write, ' ');
    for (const match of rest.matchAll(/\b(?:from|join|using)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)"?/gi)) uses.push({ table: match[1].toLowerCase(), kind: 'read' });
  }
  return uses;
}

/** The tables an `interface DB { ... }` of a source declares. */
function declaredTables(source: string): string[] {
  const tables: string[] = [];
  for (const match of source.matchAll(/interface DB\s*\{([^}]*)\}/g)) {
    for (const entry of match[1].matchAll(/^\s*([a-z_][a-z0-9_]*)\s*:/gm)) tables.push(entry[1]);
  }
  return tables;
}

/** Every table with the area that owns it: declared in its `*.tables.ts`, or created by its migrations. */
function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  const files = walk(SERVER);
  for (const file of files) {
    const owner = areaOf(file) ?? KERNEL;
    for (const table of declaredTables(fs.readFileSync(file, 'utf8'))) {
      const earlier = owners.get(table);
      if (earlier !== undefined && earlier !== owner) throw new Error(`table ${table} is declared by both ${earlier} and ${owner}`);
      owners.set(table, owner);
    }
  }
  for (const file of files.filter(isMigration)) {
    const source = fs.readFileSync(file, 'utf8');
    const created = [
      ...[...source.matchAll(/\.createTable\(\s*['"]([a-z_][a-z0-9_]*)['"]/g)].map((m) => m[1]),
      ...sqlTemplates(source).flatMap((text) => [...text.matchAll(/\bcreate\s+table\s+(?:if\s+not\s+exists\s+)?"?([a-z_][a-z0-9_]*)"?/gi)].map((m) => m[1].toLowerCase())),
    ];
    for (const table of created) if (!owners.has(table)) owners.set(table, areaOf(file) ?? KERNEL);
  }
  return owners;
}

/** The read models the areas' manifests declare, each with the area (group) it belongs to and its files' repository paths. */
function declaredReadModels(modules: readonly AreaModule[]) {
  return modules.flatMap((module) =>
    (module.readModels ?? []).map((model) => ({
      ...model,
      area: AREA_GROUPS[module.name] ?? module.name,
      paths: model.files.map((file) => path.relative(ROOT, path.join(MODULES_DIR, module.name, file)).split(path.sep).join('/')),
    })),
  );
}

/** Every write of another area's table, and every read of one no read model of the reading area covers. */
function violations(owners: Map<string, string>, modules: readonly AreaModule[]): Violation[] {
  const models = declaredReadModels(modules);
  const found = new Map<string, Violation>();
  for (const file of walk(MODULES_DIR)) {
    const area = areaOf(file);
    if (area === undefined || isMigration(file)) continue;
    const relative = path.relative(ROOT, file).split(path.sep).join('/');
    for (const { table, kind } of tableUses(fs.readFileSync(file, 'utf8'))) {
      const owner = owners.get(table);
      // Names no area owns are a query's own (a CTE, a function's result), not tables.
      if (owner === undefined || owner === area) continue;
      if (kind === 'read' && owner === KERNEL) continue;
      if (kind === 'read' && models.some((model) => model.area === area && model.paths.includes(relative) && model.reads.includes(table))) continue;
      found.set(`${relative} ${kind} ${table}`, { file: relative, table, kind });
    }
  }
  return [...found.values()].sort((a, b) => a.file.localeCompare(b.file) || a.table.localeCompare(b.table) || a.kind.localeCompare(b.kind));
}

function describeViolation(v: Violation, owners: Map<string, string>): string {
  return `${v.file} ${v.kind === 'write' ? 'writes' : 'reads'} ${v.table} (of the ${owners.get(v.table)} area)`;
}

describe('every table belongs to one area', () => {
  it('reads the tables of Kysely calls and of raw SQL, as read or write', () => {
    const source = [
      "await trx.selectFrom('sku as s').innerJoin('location as l', 'l.id', 's.location_id').leftJoin(\"partner\", 'partner.id', 's.owner_id')",
      "await trx.updateTable('inventory_balance').set({ qty: '1' }); await db.insertInto('pick_task').values(row); await db.deleteFrom('wave as w')",
      'await sql<{ n: Array<{ a: number }> }>`select count(*) from asn_line a join sku s on s.id = a.sku_id where a.id = ${id}`.execute(db);',
      'await sql`insert into role_permission (x) select x from "role" r where r.code = ${`x${1}`}`.execute(trx);',
      'await sql`update sys_module set enabled = false where id in (select id from menu_hidden)`.execute(trx);',
      "await sql`delete from user_session where expires_at < now() and not a is distinct from ${b}`.execute(trx);",
      "await db.selectFrom(['organization', 'project as p']).mergeInto('job as j').using('job_run', 'a', 'b')",
      "await updateRowById(trx, 'tms_route', id, values, by); return insertPlacedRow(trx, 'cfs_pallet', scope, values, by);",
    ].join('\n');
    const uses = tableUses(source).map((use) => `${use.kind} ${use.table}`);
    expect(uses.sort()).toEqual(
      [
        'read sku',
        'read location',
        'read partner',
        'write inventory_balance',
        'write pick_task',
        'write wave',
        'read asn_line',
        'read sku',
        'write role_permission',
        'read role',
        'write sys_module',
        'read menu_hidden',
        'write user_session',
        'read organization',
        'read project',
        'write job',
        'read job_run',
        'write tms_route',
        'write cfs_pallet',
      ].sort(),
    );
  });

  it('knows the owner of the tables the areas declare', () => {
    const owners = tableOwners();
    expect(owners.get('sku')).toBe('masterdata');
    expect(owners.get('domain_event')).toBe(KERNEL);
    expect(owners.get('role_permission')).toBe('identity');
    expect(owners.size).toBeGreaterThan(50);
  });

  it('declares read models that name files of the area and tables of other areas', () => {
    const owners = tableOwners();
    const problems: string[] = [];
    const names = new Set<string>();
    for (const model of declaredReadModels(MODULES)) {
      if (!/^[a-z][A-Za-z0-9]*\.[a-z][A-Za-z0-9]*$/.test(model.name) || names.has(model.name)) problems.push(`${model.name}: not <area>.<name>, or declared twice`);
      names.add(model.name);
      if (!model.purpose.trim()) problems.push(`${model.name}: no purpose`);
      for (const file of model.paths) if (!fs.existsSync(path.join(ROOT, file))) problems.push(`${model.name}: no file ${file}`);
      for (const table of model.reads) {
        const owner = owners.get(table);
        if (owner === undefined || owner === model.area) problems.push(`${model.name}: ${table} is no table of another area`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('finds a write of another area, and a read no read model covers', () => {
    const owners = new Map([
      ['sku', 'masterdata'],
      ['pick_task', 'outbound'],
    ]);
    const inbound = path.join(MODULES_DIR, 'inbound/carton.repository.ts');
    const reading: AreaModule = { name: 'inbound', readModels: [{ name: 'inbound.skuLabels', files: ['carton.repository.ts'], reads: ['sku'], purpose: 'labels' }] };
    // The real file reads sku: covered by the read model above, refused without it.
    const withModel = violations(owners, [reading]).filter((v) => v.file === path.relative(ROOT, inbound) && v.table === 'sku');
    const without = violations(owners, []).filter((v) => v.file === path.relative(ROOT, inbound) && v.table === 'sku');
    expect(withModel).toEqual([]);
    expect(without).toEqual([{ file: 'src/server/modules/inbound/carton.repository.ts', table: 'sku', kind: 'read' }]);
  });

  it('finds a write of another area\'s table even where a read model names the table', () => {
    // As if the outbound area owned asn: the inbound area's writes of it are then refused, read model or not.
    const owners = new Map([['asn', 'outbound']]);
    const reading: AreaModule = { name: 'inbound', readModels: [{ name: 'inbound.asns', files: ['asn.repository.ts'], reads: ['asn'], purpose: 'asns' }] };
    const found = violations(owners, [reading]).filter((v) => v.file === 'src/server/modules/inbound/asn.repository.ts');
    expect(found).toEqual([{ file: 'src/server/modules/inbound/asn.repository.ts', table: 'asn', kind: 'write' }]);
  });

  it('has no write of another area\'s table and no read no read model declares', () => {
    const owners = tableOwners();
    const found = violations(owners, MODULES);
    // TABLE_VIOLATIONS_FILE=<path> writes what is found there, with each table's owner.
    const out = process.env.TABLE_VIOLATIONS_FILE;
    if (out) fs.writeFileSync(out, JSON.stringify(found.map((v) => ({ ...v, owner: owners.get(v.table) })), null, 1));
    expect(found.map((v) => describeViolation(v, owners))).toEqual([]);
  });
});
