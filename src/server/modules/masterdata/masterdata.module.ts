import { defineModule } from '../area.js';
import * as m0020 from './migrations/0020_masterdata.js';
import * as m0021 from './migrations/0021_id_rules.js';
import * as m0022 from './migrations/0022_code_master_base.js';
import { generateLocationsBehaviour } from './masterdata.behaviours.js';
import { masterdataDemo } from './masterdata.demo.js';
import './masterdata.tables.js';

/**
 * Master data (spec section 2: SKUs, owners, warehouses, locations, partners, codes, ID rules,
 * RF users, vehicles and drivers): the worked example of src/server/modules/README.md. Its
 * screens are the shipped definitions under definitions/masterdata, run by the engine; what the
 * engine cannot do alone is declared here.
 */
export const masterdataModule = defineModule({
  name: 'masterdata',
  migrations: { '0020_masterdata': m0020, '0021_id_rules': m0021, '0022_code_master_base': m0022 },
  behaviours: [generateLocationsBehaviour],
  rights: [{ right: 'masterdata.loa:generate', labelCode: 'md.verb.generateLocations' }],
  demoData: masterdataDemo,
});
