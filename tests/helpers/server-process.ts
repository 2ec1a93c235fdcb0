import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The path of this run's server bundle (tests/helpers/server-bundle.ts), set by a global set-up. */
export const SERVER_BUNDLE_ENV = 'WMS_SERVER_BUNDLE';

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything the process printed so far, stdout and stderr together. */
  output(): string;
  /** Resolves with the URL once the server logs that it is serving. */
  ready: Promise<string>;
  /** Resolves with the exit code (or the signal's name) when the process has ended and all it printed is in `output()`. */
  exited: Promise<number | string>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export function tempDataDir(prefix = 'wms-data-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface SpawnOptions {
  /**
   * The bundle of the server to start (tests/helpers/server-bundle.ts), or `null` to start the
   * source through tsx (`node --import tsx src/server/main.ts`, as the README starts it). By
   * default this run's bundle when a global set-up made one, else the source.
   */
  bundle?: string | null;
}

/**
 * Starts the real server (`src/server/main.ts`) as its own process, on a free port by default: from
 * a bundle of the server (see `SpawnOptions`), else from the source through tsx.
 */
export function spawnServer(env: Record<string, string | undefined>, options: SpawnOptions = {}): ServerProcess {
  const runBundle = process.env[SERVER_BUNDLE_ENV];
  const bundle = options.bundle === undefined ? (runBundle && fs.existsSync(runBundle) ? runBundle : null) : options.bundle;
  const args = bundle ? [bundle] : ['--import', 'tsx', 'src/server/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...cleanEnv(), PORT: '0', LOG_LEVEL: 'info', DEMO_DATA: 'false', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close' comes after 'exit' once the process's output has been read to its end.
  const exited = new Promise<number | string>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal ?? -1)));
  const ready = new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /WMS is serving at (http:\/\/\S+?\/)\s/.exec(output);
      if (match) {
        resolve(match[1]);
        return true;
      }
      return false;
    };
    child.stdout.on('data', check);
    void exited.then((code) => reject(new Error(`server exited (${code}) before serving:\n${output}`)));
  });
  ready.catch(() => undefined);
  return {
    child,
    output: () => output,
    ready,
    exited,
    stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

function cleanEnv(): Record<string, string | undefined> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.ADMIN_PASSWORD;
  delete env[SERVER_BUNDLE_ENV];
  return env;
}
