import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { openDb } from './db.ts';
import { createPostgresDb } from './testing/test-db.ts';

const root = resolve(import.meta.dirname, '../../..');
const migrations = mkdtempSync(join(tmpdir(), 'latchkey-runtime-kill-'));
writeFileSync(
  join(migrations, '0001_effects.sql'),
  'create table effects (key text primary key);\ncreate table runs (key text not null, pid int not null, attempt int not null);\n',
);
const onPostgres = process.env.TEST_DB === 'postgres';

/** Starts the worker process; resolves its stdout lines as they come. */
function worker(env: Record<string, string>) {
  // Node itself with tsx as a loader (not the tsx wrapper, which would run the worker as its child):
  // the pid killed is the worker's.
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'testing/job-worker.ts')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)));
  const exited = new Promise<number | null>((r) => child.on('exit', (code, signal) => r(signal ? -1 : code)));
  return {
    child,
    lines,
    exited,
    async line(prefix: string, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.find((l) => l.startsWith(prefix));
        if (found) return found;
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`no "${prefix}" from the worker: ${lines.join(' | ')}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}

const kill = async (child: ChildProcess, exited: Promise<number | null>) => {
  child.kill('SIGKILL');
  return exited;
};

test(`a job whose worker is killed (kill -9) mid-run is run again by the next worker, with one effect (${onPostgres ? 'PostgreSQL' : 'PGlite data directory'})`, async () => {
  // PostgreSQL: a fresh test database; PGlite: a data directory, opened by one process at a time
  // (the embedded database is the process's own), so the check reopens it after the second worker.
  const pgDb = onPostgres ? await createPostgresDb(migrations) : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-kill-pglite-'));
  const env = { JOB_MIGRATIONS_DIR: migrations, ...(pgDb ? { JOB_DB_URL: pgDb.url } : { JOB_DATA_DIR: dataDir }) };
  try {
    const first = worker({ ...env, HANG: '1' });
    expect(await first.line('ENQUEUED')).toBe('ENQUEUED true');
    await first.line('ACTIVE');
    expect(await kill(first.child, first.exited)).toBe(-1);

    const second = worker(env);
    // The same idempotency key: the job already exists, nothing is added.
    expect(await second.line('ENQUEUED')).toBe('ENQUEUED false');
    await second.line('DONE', 40_000);
    expect(await second.exited).toBe(0);

    const db = pgDb ?? (await openDb({ dataDir }));
    try {
      expect(await db.query('select key from effects')).toEqual([{ key: 'k1' }]);
      const runs = await db.query<{ pid: number; attempt: number }>('select pid, attempt from runs order by attempt');
      expect(runs).toEqual([
        { pid: first.child.pid, attempt: 1 },
        { pid: second.child.pid, attempt: 2 },
      ]);
      expect(await db.query(`select state::text from job_queue.job where name = 'kill-effects'`)).toEqual([
        { state: 'completed' },
      ]);
    } finally {
      if (!pgDb) await db.close();
    }
  } finally {
    await pgDb?.close();
  }
}, 90_000);
