import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_access.js';
import * as m0003 from './0003_sys_module.js';
import * as m0010 from './0010_page_definition.js';
import * as m0020 from './0020_masterdata.js';
import * as m0021 from './0021_id_rules.js';
import * as m0022 from './0022_code_master_base.js';
import * as m0030 from './0030_page_visit.js';
import * as m0040 from './0040_designer.js';
import * as m0050 from './0050_configurator_sql_roles.js';
import * as m0051 from './0051_login_failure.js';
import * as m0052 from './0052_seed_roles.js';

/**
 * Every migration, in order. Names sort in the order they run; a new migration gets the next
 * number and is added here (a static list keeps the bundle free of file-system scanning).
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_access': m0002,
  '0003_sys_module': m0003,
  '0010_page_definition': m0010,
  '0020_masterdata': m0020,
  '0021_id_rules': m0021,
  '0022_code_master_base': m0022,
  '0030_page_visit': m0030,
  '0040_designer': m0040,
  '0050_configurator_sql_roles': m0050,
  '0051_login_failure': m0051,
  '0052_seed_roles': m0052,
};
