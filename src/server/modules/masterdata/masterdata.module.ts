import { defineModule } from '../area.js';
import * as m0020 from './migrations/0020_masterdata.js';
import * as m0021 from './migrations/0021_id_rules.js';
import * as m0022 from './migrations/0022_code_master_base.js';
import * as m0287 from './migrations/0287_sku_pack_checks.js';
import * as m0290 from './migrations/0290_sku_gift.js';
import { generateLocationsBehaviour } from './masterdata.behaviours.js';
import { masterdataDemo } from './masterdata.demo.js';
import './masterdata.tables.js';
import { textsRoutes } from './texts.routes.js';

/**
 * Master data (SKUs, owners, warehouses, locations, partners, codes, ID rules,
 * RF users, vehicles and drivers): the worked example of src/server/modules/README.md. Its
 * screens are the shipped definitions under definitions/masterdata, run by the engine; what the
 * engine cannot do alone is declared here.
 */
/** Its pages are its shipped definitions (definitions/masterdata). */
const MASTERDATA = { definitionOf: 'masterdata' } as const;

export const masterdataModule = defineModule({
  name: 'masterdata',
  migrations: { '0020_masterdata': m0020, '0021_id_rules': m0021, '0022_code_master_base': m0022, '0287_sku_pack_checks': m0287, '0290_sku_gift': m0290 },
  behaviours: [generateLocationsBehaviour],
  rights: [{ right: 'masterdata.loa:generate', labelCode: 'md.verb.generateLocations' }],
  demoData: masterdataDemo,
  routes: textsRoutes,
  pages: [
    { route: 'mult', group: 'genericGroup', opens: MASTERDATA },
    { route: 'menu', group: 'genericGroup', opens: MASTERDATA },
    { route: 'sysModule', group: 'genericGroup', opens: MASTERDATA },
    { route: 'sku', group: 'masterData', opens: MASTERDATA },
    { route: 'whs', group: 'masterData', opens: MASTERDATA },
    { route: 'loa', group: 'masterData', opens: MASTERDATA },
    { route: 'ogr', group: 'masterData', opens: MASTERDATA },
    { route: 'project', group: 'masterData', opens: MASTERDATA },
    { route: 'partner', group: 'masterData', opens: MASTERDATA },
    { route: 'sysparam', group: 'masterData', opens: MASTERDATA },
    { route: 'codeMaster', group: 'masterData', opens: MASTERDATA },
    { route: 'idGener', group: 'masterData', opens: MASTERDATA },
    { route: 'invCode', group: 'masterData', opens: MASTERDATA },
    { route: 'rfUser', group: 'masterData', opens: MASTERDATA },
    { route: 'importConfig', group: 'masterData', opens: MASTERDATA },
  ],
  readModels: [
    { name: 'masterdata.warehouses', files: ['masterdata.repository.ts', 'masterdata.demo.ts'], reads: ['warehouse'], purpose: 'the warehouse that locations and the demonstration data belong to' },
    { name: 'masterdata.systemParams', files: ['system-param.ts'], reads: ['warehouse'], purpose: "the organization of the warehouse whose system parameter is asked for" },
  ],
});
