import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The embedded database belongs to one process: PGlite takes no lock of its own, and a second
 * process opening the same directory silently works on its own copy, so the last to close
 * overwrites the other's writes. This file, holding the owner's process id, is that lock.
 */
export const LOCK_FILE = 'latchkey.pid';

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${pid} (a running server or Hub). ` +
        'Stop it first, or point DATABASE_URL at a PostgreSQL server, which many processes can share.',
    );
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The lock files this process holds. */
const held = new Set<string>();

/** Takes the directory for this process, or throws DataDirInUseError; returns the release. */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      held.add(file);
      return () => {
        held.delete(file);
        rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number.parseInt(readFileSync(file, 'utf8'), 10);
    // Our own id in a file we do not hold: left by an earlier run that had the same id (a
    // container's process 1 restarted), not a live owner.
    const ours = owner === process.pid && !held.has(file);
    if (Number.isInteger(owner) && owner > 0 && !ours && alive(owner)) throw new DataDirInUseError(dataDir, owner);
    // Left by a process that died (kill -9, power loss): nobody holds the directory.
    rmSync(file, { force: true });
  }
  throw new Error(`Could not lock ${dataDir}: another process keeps taking it.`);
}
