import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { stableStringify } from '../../../../common/designer/stable-json.js';

/**
 * The user and role pages (user, role, all_rule and their sub-pages) move from the module code
 * `setup` to `identity`, the area that owns them: their definition files now sit in
 * `definitions/identity/`, and their rights are `identity.user:view` and so on. Every stored row
 * naming the old code follows, so that nothing is lost and no right changes hands:
 *
 * - page definitions (shipped, drafts, published and inactive versions of every project): the
 *   module code, every `moduleCode` inside the content (sub-pages name theirs) and the content hash;
 * - module rights of roles (a role holding both keeps, flag by flag, what either granted);
 * - attachments of records, import templates and the designer's audit trail of these pages;
 * - menu entries: the right an entry needs, and the address of pages published by the designer.
 *
 * The menu group `setup` ("Setup") keeps its code: it is a group of the menu, not a module.
 */
const FROM = 'setup';
const TO = 'identity';

/** A copy of a JSON value with every `moduleCode` equal to `from` replaced by `to`. */
function renameModuleCode(value: unknown, from: string, to: string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameModuleCode(item, from, to));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, key === 'moduleCode' && item === from ? to : renameModuleCode(item, from, to)]),
    );
  }
  return value;
}

async function renameStoredModule(db: Kysely<unknown>, from: string, to: string): Promise<void> {
  const { rows } = await sql<{ id: number; module_code: string; content: unknown }>`
    select id, module_code, content from page_definition
    where module_code = ${from} or content::text like ${`%"moduleCode": "${from}"%`} or content::text like ${`%"moduleCode":"${from}"%`}
  `.execute(db);
  for (const row of rows) {
    const stored: unknown = typeof row.content === 'string' ? JSON.parse(row.content) : row.content;
    const content = renameModuleCode(stored, from, to);
    const hash = crypto.createHash('sha256').update(stableStringify(content)).digest('hex');
    await sql`
      update page_definition
      set module_code = ${row.module_code === from ? to : row.module_code}, content = ${JSON.stringify(content)}::jsonb, content_hash = ${hash}
      where id = ${row.id}
    `.execute(db);
  }

  const sameRight = sql`moved.role_id = kept.role_id and coalesce(moved.sub_module_code, '') = coalesce(kept.sub_module_code, '')`;
  await sql`
    update role_permission kept
    set can_view = kept.can_view or moved.can_view, can_add = kept.can_add or moved.can_add,
        can_edit = kept.can_edit or moved.can_edit, can_delete = kept.can_delete or moved.can_delete
    from role_permission moved
    where moved.module_code = ${from} and kept.module_code = ${to} and ${sameRight}
  `.execute(db);
  await sql`
    delete from role_permission moved
    where moved.module_code = ${from} and exists (select 1 from role_permission kept where kept.module_code = ${to} and ${sameRight})
  `.execute(db);
  await sql`update role_permission set module_code = ${to} where module_code = ${from}`.execute(db);

  await sql`update attachment set module_code = ${to} where module_code = ${from}`.execute(db);
  await sql`update import_template set module_code = ${to} where module_code = ${from}`.execute(db);
  await sql`update designer_audit set module_code = ${to} where module_code = ${from}`.execute(db);

  await sql`update sys_module set right_name = ${to} || substr(right_name, ${from.length + 1}) where right_name like ${`${from}.%`}`.execute(db);
  await sql`
    update sys_module set route = replace(route, ${`moduleCode=${from}&`}, ${`moduleCode=${to}&`})
    where route like ${`/mapTo?moduleCode=${from}&%`}
  `.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await renameStoredModule(db, FROM, TO);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await renameStoredModule(db, TO, FROM);
}
