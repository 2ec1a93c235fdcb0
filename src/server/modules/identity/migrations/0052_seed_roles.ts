import { sql, type Kysely } from 'kysely';

/**
 * Roles a warehouse recognises, so that a new install can give people a job on the first day
 *. Rights are per module; areas that arrive later add their
 * modules to these roles in their own migrations. Roles that already exist by name are left alone.
 */
type Module = 'home' | 'masterdata' | 'transport' | 'setup' | 'generic';
type Grant = 'view' | 'edit' | 'all';

const ROLES: Array<{ name: string; level: number; description: string; grants: Partial<Record<Module, Grant>> }> = [
  { name: 'Administrator', level: 9, description: 'Everything, including users, roles and page definitions', grants: { home: 'all', masterdata: 'all', transport: 'all', setup: 'all', generic: 'all' } },
  { name: 'Supervisor', level: 7, description: 'Runs the floor: all master data and transport, reads users and roles', grants: { home: 'all', masterdata: 'all', transport: 'all', setup: 'view' } },
  { name: 'Operator', level: 3, description: 'Works the floor: reads master data, records transport', grants: { home: 'view', masterdata: 'view', transport: 'edit' } },
  { name: 'Configurator', level: 5, description: 'Builds and publishes screens in the designer, reads master data', grants: { home: 'view', generic: 'all', masterdata: 'view' } },
  { name: 'Read-only', level: 1, description: 'Sees everything, changes nothing', grants: { home: 'view', masterdata: 'view', transport: 'view', setup: 'view', generic: 'view' } },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const role of ROLES) {
    const { rows } = await sql<{ id: number }>`
      insert into role (name, role_type, role_level, description, created_by, updated_by)
      select ${role.name}, 'general', ${role.level}, ${role.description}, 'system', 'system'
      where not exists (select 1 from role where lower(name) = lower(${role.name}))
      returning id
    `.execute(db);
    if (!rows.length) continue;
    for (const [module, grant] of Object.entries(role.grants)) {
      const edit = grant !== 'view';
      const all = grant === 'all';
      await sql`
        insert into role_permission (role_id, module_code, sub_module_code, can_view, can_add, can_edit, can_delete)
        values (${rows[0].id}, ${module}, null, true, ${edit}, ${edit}, ${all})
      `.execute(db);
    }
  }
}

export async function down(): Promise<void> {
  // Roles may have been given to users since: they stay.
}
