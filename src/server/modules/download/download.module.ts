import { defineModule } from '../area.js';
import { downloadRoutes } from './download.routes.js';
import { purgeExpiredDownloads } from './download.service.js';
import * as m0085 from './migrations/0085_download.js';
import './download.tables.js';

/** The download center (a screen without a path): background exports, kept for DOWNLOAD_DAYS. */
export const downloadModule = defineModule({
  name: 'download',
  migrations: { '0085_download': m0085 },
  routes: downloadRoutes,
  jobs: [
    {
      name: 'download.purgeExpired',
      scope: 'system',
      async run({ db }) {
        await purgeExpiredDownloads(db);
      },
    },
  ],
});
