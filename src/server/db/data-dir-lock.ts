import fs from 'node:fs';
import path from 'node:path';

/** Raised when another live process already serves the same DATA_DIR. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

/**
 * Takes `DATA_DIR/server.lock` for this process. Embedded PGlite must never be opened by two
 * processes: the second would corrupt the first's cluster. A lock left by a process that is gone
 * (killed with SIGKILL, a crash) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      return () => {
        try {
          if (readPid(lockPath) === process.pid) fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readPid(lockPath);
      if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
        throw new DataDirLockedError(
          `the data directory ${dataDir} is in use by another server (pid ${owner}); stop it or set DATA_DIR to another folder`,
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`cannot take the lock ${lockPath}`);
}

function readPid(lockPath: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(lockPath, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
