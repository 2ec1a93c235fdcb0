import type { FastifyInstance } from 'fastify';
import type { AppConfig } from './config.js';
import { buildApp } from './app.js';
import { connectPostgres, openPGlite, type Database } from './db/database.js';
import { lockDataDir } from './db/data-dir-lock.js';
import { migrateToLatest } from './install/migrate.js';
import { seedFirstStart } from './install/seed.js';
import { loadDemoData } from './install/demo-data.js';
import { syncDefinitionsAtStart } from './definitions/definition-sync.js';
import { installAreas, syncRightVerbs } from './modules/area-sync.js';
import { MODULES } from './modules/index.js';
import { syncMenuAtStart } from './install/sync-menu.js';

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  url: string;
  /** On the very first start without ADMIN_PASSWORD: the generated password of `admin`, to print once. */
  generatedAdminPassword?: string;
  stop(): Promise<void>;
}

/**
 * config -> database -> migrations -> seed -> listen. This is the composition root: the one place
 * (with main.ts) that knows the list of areas and hands it to the kernel.
 */
export async function startServer(config: AppConfig): Promise<RunningServer> {
  const releaseLock = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
  let database: Database | undefined;
  try {
    database = config.databaseUrl ? await connectPostgres(config.databaseUrl) : await openPGlite(config.dataDir);
    const app = await buildApp({ config, database, modules: MODULES });
    const applied = await migrateToLatest(database.db, MODULES);
    // A short line at info for whoever watches the start; the names at debug (LOG_LEVEL=debug).
    if (applied.length) {
      app.log.info({ migrations: applied.length, latest: applied.at(-1) }, 'database migrated');
      app.log.debug({ migrations: applied }, 'migrations applied');
    }
    await syncRightVerbs(database.db, app.areas);
    await syncDefinitionsAtStart(database.db, app.log, { areas: app.areas, events: app.events });
    await syncMenuAtStart(database.db, app.areas.routeTable, app.log);
    const seed = await seedFirstStart(database.db, config.adminPassword, MODULES);
    const installed = await installAreas(database.db, app.areas);
    if (installed.length) app.log.info({ areas: installed.length }, 'areas installed');
    if (installed.length) app.log.debug({ areas: installed }, 'areas installed by name');
    if (config.demoData) {
      const demo = await loadDemoData(database.db, MODULES);
      if (demo.loaded) app.log.info({ skus: demo.counts.sku, milliseconds: demo.milliseconds }, 'demo data loaded');
      if (demo.loaded) app.log.debug({ counts: demo.counts }, 'demo data counts');
    }

    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}/`;
    app.log.debug({ url, database: database.kind }, 'listening');
    const db = database;
    return {
      app,
      database: db,
      url,
      ...(seed.generatedAdminPassword ? { generatedAdminPassword: seed.generatedAdminPassword } : {}),
      async stop() {
        await app.close();
        await db.close();
        releaseLock();
      },
    };
  } catch (error) {
    await database?.close().catch(() => undefined);
    releaseLock();
    throw error;
  }
}
