import { describe, expect, it } from 'vitest';
import { checkConfiguratorSql } from '../../../engine/server/check-configurator-sql.js';

describe(checkConfiguratorSql.name, () => {
  it.each([
    ['select * from sku where project_id = :projectId', 'read'],
    ["select code, upper(description), coalesce(base_uom, 'EA') from sku order by 1", 'read'],
    ["select extract(year from now()), date_trunc('day', created_at), code similar to 'A%' from sku", 'read'],
    ['select count(*), string_agg(code, \',\') from sku s join owner o on o.id = s.owner_id group by o.code', 'read'],
    ['with recent as (select * from sku where created_at > now() - interval \'7 days\') select * from recent', 'read'],
    ['update sku set active = false where id = any(:keys) and project_id = :projectId', 'write'],
    ['insert into mult_text (text_code, text_en) values (:code, :text)', 'write'],
    ['delete from sku_upc where id = any(:keys)', 'write'],
  ] as const)('accepts %s (%s)', async (text, mode) => {
    expect(await checkConfiguratorSql(text, mode)).toEqual({ ok: true });
  });

  it.each([
    ['select pg_sleep(10)', 'read', /pg_sleep is not allowed/],
    ["select pg_read_file('/etc/passwd')", 'read', /pg_read_file is not allowed/],
    ["select lo_import('/etc/passwd')", 'read', /lo_import is not allowed/],
    ['select pg_catalog.pg_sleep(1)', 'read', /not allowed/],
    ['select public.upper(code) from sku', 'read', /not allowed/],
    ['select * from pg_shadow', 'read', /system tables/],
    ['select * from pg_catalog.pg_class', 'read', /schema public/],
    ['select * from information_schema.columns', 'read', /schema public/],
    ['select * from sku for update', 'read', /row locks/],
    ['select * into copy_of_sku from sku', 'read', /SELECT INTO/],
    ['with recursive t(n) as (select 1 union all select n + 1 from t) select * from t', 'read', /RECURSIVE/],
    ['with gone as (delete from sku returning *) select * from gone', 'read', /data-modifying/],
    ['select 1; select 2', 'read', /one statement/],
    ['update sku set active = false', 'read', /only a SELECT/],
    ['select * from sku', 'write', /only one INSERT, UPDATE or DELETE/],
    ['update sku set code = (select pg_sleep(1)::text)', 'write', /pg_sleep/],
    ['with x as (update sku set active = false returning id) delete from sku_upc where sku_id in (select id from x)', 'write', /data-modifying/],
    ['drop table sku', 'write', /DROP/],
    ['select from where', 'read', /syntax/],
  ] as const)('refuses %s (%s)', async (text, mode, reason) => {
    const verdict = await checkConfiguratorSql(text, mode);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.reason).toMatch(reason);
  });

  it('does not take a :name inside a string literal or a ::cast for a parameter', async () => {
    expect(await checkConfiguratorSql("select ':projectId' as text, code::text from sku where id = :id", 'read')).toEqual({ ok: true });
  });
});
