import { ConfigError, loadConfig } from './config.js';
import { DatabaseStartError } from './db/database.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { startServer, type RunningServer } from './start.js';

/** Errors a user can fix get one clear line; anything else also gets its stack. */
function fail(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
  } else if (error instanceof DatabaseStartError || error instanceof DataDirLockedError) {
    process.stderr.write(`Cannot start: ${error.message}\n`);
  } else if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') {
    process.stderr.write(`Cannot start: ${error.message} (is another server using this PORT?)\n`);
  } else {
    process.stderr.write(`Cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  }
  process.exit(1);
}

async function main(): Promise<void> {
  let server: RunningServer | undefined;
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server?.app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    void (server?.stop() ?? Promise.resolve()).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  try {
    server = await startServer(loadConfig());
  } catch (error) {
    fail(error);
  }
  // Plain lines for the person who started it: where to open the app and, on the
  // very first start only, the administrator's password (stored only as an argon2id hash).
  const password = server.generatedAdminPassword
    ? `First start: sign in as "admin" with the password ${server.generatedAdminPassword} (shown only this once)\n`
    : '';
  process.stdout.write(`WMS is serving at ${server.url}\n${password}`);
}

void main();
