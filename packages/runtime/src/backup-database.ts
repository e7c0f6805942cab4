import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { CliError } from './cli.ts';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock.ts';
import { PGLITE_EXTENSIONS } from './db.ts';

/** Where a program's database is: a PostgreSQL server (its URL), else embedded PGlite in DATA_DIR. */
export interface DatabasePlace {
  url?: string | undefined;
  dataDir: string;
}

/** A dump of the database, and what made it. */
export interface DatabaseDump {
  kind: 'postgres' | 'pglite';
  dumpedBy: string;
  bytes: AsyncIterable<Uint8Array>;
}

/**
 * libpq's connection settings for pg_dump and pg_restore: the URL without its password, which
 * goes in PGPASSWORD instead, so it never shows in the process list.
 */
function libpq(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

function toolVersion(tool: 'pg_dump' | 'pg_restore'): string {
  const run = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  if (run.error)
    throw new CliError(`${tool} is not installed (PostgreSQL's client tools, the same major version as the server).`);
  return run.stdout.trim();
}

/** An embedded database is there once PGlite has written its data directory. */
const hasPglite = (dataDir: string) => existsSync(join(dataDir, 'PG_VERSION'));

function lockEmbedded(dataDir: string): () => void {
  try {
    return lockDataDir(dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError)
      throw new CliError(
        `${error.message.replace(/\. Stop it first.*$/, '')}: stop it first (the embedded database is one process's).`,
      );
    throw error;
  }
}

/**
 * The database, dumped as it is at this moment: pg_dump's custom format (one consistent snapshot,
 * taken while the programs run), or the embedded database's data directory as PGlite dumps it
 * (the program must be stopped: PGlite is one process's).
 */
export async function dumpDatabase(place: DatabasePlace): Promise<DatabaseDump> {
  if (place.url) {
    const dumpedBy = toolVersion('pg_dump');
    const { dbname, env } = libpq(place.url);
    const child = spawn('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--dbname=${dbname}`], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk) => (errors += chunk));
    const exited = new Promise<number | null>((resolve, reject) => child.once('error', reject).once('close', resolve));
    async function* bytes() {
      yield* child.stdout;
      if ((await exited) !== 0) throw new CliError(`pg_dump failed: ${errors.trim()}`);
    }
    return { kind: 'postgres', dumpedBy, bytes: bytes() };
  }
  if (!hasPglite(place.dataDir)) throw new CliError(`There is no database in ${place.dataDir} to back up.`);
  const release = lockEmbedded(place.dataDir);
  try {
    const lite = await PGlite.create({ dataDir: place.dataDir, extensions: PGLITE_EXTENSIONS });
    try {
      // PGlite dumps its directory into memory; the embedded database is the small deployment's.
      const [version] = (await lite.query<{ v: string }>('select version() as v')).rows;
      const tarball = await lite.dumpDataDir('gzip');
      return { kind: 'pglite', dumpedBy: `PGlite (${version?.v})`, bytes: blobChunks(tarball) };
    } finally {
      await lite.close();
    }
  } finally {
    release();
  }
}

async function* blobChunks(blob: Blob): AsyncIterable<Uint8Array> {
  for await (const chunk of blob.stream()) yield chunk;
}

/** Why the target is not empty, or null: a restore goes only into an empty database, never over data. */
export async function databaseInUse(place: DatabasePlace): Promise<string | null> {
  if (!place.url) {
    if (!hasPglite(place.dataDir)) return null;
    return `${place.dataDir} holds an embedded database already`;
  }
  const client = new pg.Client({ connectionString: place.url });
  try {
    await client.connect();
  } catch (error) {
    throw new CliError(`Cannot reach the database: ${(error as Error).message}`);
  }
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p', 'v', 'm', 'S') and n.nspname not in ('pg_catalog', 'information_schema')
         and n.nspname not like 'pg_toast%' and n.nspname not like 'pg_temp%'`,
    );
    const n = rows[0]?.n ?? 0;
    return n ? `the database holds ${n} tables, views or sequences already` : null;
  } finally {
    await client.end();
  }
}

/**
 * Loads a dump into the empty target. PostgreSQL: pg_restore in one transaction, so a dump that
 * fails part-way (a damaged archive, a refused statement) leaves the database as empty as it was.
 * PGlite: the whole dump is read (and so authenticated) before the data directory is written.
 */
export async function restoreDatabase(place: DatabasePlace, kind: DatabaseDump['kind'], bytes: AsyncIterable<Uint8Array>) {
  if (kind === 'postgres' && !place.url)
    throw new CliError('This archive holds a PostgreSQL dump: set DATABASE_URL to an empty PostgreSQL database to restore it.');
  if (kind === 'pglite' && place.url)
    throw new CliError('This archive holds an embedded (PGlite) database: unset DATABASE_URL to restore it into DATA_DIR.');
  if (place.url) return pgRestore(place.url, bytes);
  const chunks: Uint8Array[] = [];
  for await (const chunk of bytes) chunks.push(chunk);
  mkdirSync(place.dataDir, { recursive: true });
  const release = lockEmbedded(place.dataDir);
  try {
    const lite = await PGlite.create({
      dataDir: place.dataDir,
      extensions: PGLITE_EXTENSIONS,
      loadDataDir: new Blob(chunks as BlobPart[]),
    });
    await lite.close();
  } finally {
    release();
  }
}

async function pgRestore(url: string, bytes: AsyncIterable<Uint8Array>) {
  toolVersion('pg_restore');
  const { dbname, env } = libpq(url);
  const child = spawn(
    'pg_restore',
    ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', `--dbname=${dbname}`],
    { env, stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  const exited = new Promise<number | null>((resolve, reject) => child.once('error', reject).once('close', resolve));
  child.stdin.on('error', () => undefined); // pg_restore gave up early: its exit code says why.
  try {
    for await (const chunk of bytes) {
      if (!child.stdin.write(chunk)) await new Promise((resolve) => child.stdin.once('drain', resolve).once('close', resolve));
      if (child.exitCode !== null) break;
    }
  } catch (error) {
    // The archive failed its check: pg_restore is stopped before it commits, its transaction rolls back.
    child.kill('SIGKILL');
    await exited;
    throw error;
  }
  child.stdin.end();
  if ((await exited) !== 0) throw new CliError(`pg_restore failed, nothing was restored: ${errors.trim()}`);
}

/** Files other than the lock in a data directory's `keys` folder. */
export const keyFilesIn = (dataDir: string): string[] =>
  existsSync(join(dataDir, 'keys')) ? readdirSync(join(dataDir, 'keys')).filter((f) => f !== LOCK_FILE) : [];
