import { defineModule } from '../area.js';
import * as m0090 from './migrations/0090_import_template.js';
import { importsRoutes } from './imports.routes.js';
import { importTemplateColumnWriter, importTemplateWriter } from './imports.writer.js';
import './imports.tables.js';

/**
 * Import templates (`/importConfig`): a configurator describes a file (xlsx, delimited or
 * fixed-width text) and how its columns fill a page's fields; the engine's Import then offers the
 * page's templates beside its field maps, and every row goes through the page's own rules, all or
 * nothing.
 */
export const importsModule = defineModule({
  name: 'imports',
  migrations: { '0090_import_template': m0090 },
  routes: importsRoutes,
  writers: [importTemplateWriter, importTemplateColumnWriter],
});
