import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type Db, PGLITE_EXTENSIONS, wrapPglite, wrapPool } from '../db.ts';
import { migrate, readMigrations } from '../migrate.ts';

/**
 * An isolated, migrated database for one test file. `TEST_DB=postgres` uses the PostgreSQL
 * server at `TEST_DATABASE_URL` (a fresh database cloned from a migrated template); otherwise
 * embedded PGlite, loaded from a migrated image.
 */
export async function createTestDb(migrationsDir: string): Promise<Db> {
  return process.env.TEST_DB === 'postgres' ? createPostgresDb(migrationsDir) : createPgliteDb(migrationsDir);
}

/** Names a set of migrations by their content. */
function migrationsDigest(migrationsDir: string): string {
  return createHash('sha256')
    .update(
      readMigrations(migrationsDir)
        .map((m) => m.name + m.sql)
        .join(),
    )
    .digest('hex')
    .slice(0, 12);
}

const PGLITE_VERSION: string = JSON.parse(
  readFileSync(join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8'),
).version;

const images = new Map<string, Promise<Blob>>();

/**
 * A migrated data directory, kept in the temporary folder under the migrations' digest and the
 * PGlite version: Vitest runs each test file in a fresh process, where a new PGlite takes seconds
 * and one loaded from an image about one.
 */
function pgliteImage(migrationsDir: string): Promise<Blob> {
  let image = images.get(migrationsDir);
  if (!image) {
    image = (async () => {
      const file = join(tmpdir(), `latchkey-pglite-${PGLITE_VERSION}-${migrationsDigest(migrationsDir)}.tar`);
      if (existsSync(file)) return new Blob([readFileSync(file)]);
      const seed = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
      await migrate(wrapPglite(seed), migrationsDir);
      const dump = await seed.dumpDataDir('none');
      await seed.close();
      // Written aside and renamed, so a parallel reader never sees half a file.
      const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      renameSync(partial, file);
      return dump;
    })();
    images.set(migrationsDir, image);
  }
  return image;
}

async function createPgliteDb(migrationsDir: string): Promise<Db> {
  return wrapPglite(await PGlite.create({ loadDataDir: await pgliteImage(migrationsDir), extensions: PGLITE_EXTENSIONS }));
}

/**
 * A fresh database on the PostgreSQL server at `url`, cloned from a template migrated once per set
 * of migrations; `close` drops it. Also the benches' scratch database (a larger pool).
 */
export async function createPostgresDb(
  migrationsDir: string,
  url = process.env.TEST_DATABASE_URL,
  poolSize = 5,
): Promise<Db & { url: string }> {
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const template = `latchkey_tpl_${migrationsDigest(migrationsDir)}`;
  const name = `latchkey_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(7341002)');
    const exists = await admin.query('select 1 from pg_database where datname = $1', [template]);
    if (exists.rowCount === 0) {
      // Built under another name and renamed once complete: a failed or interrupted build must not
      // leave a template that every later run would clone.
      const building = `${template}_build_${randomBytes(4).toString('hex')}`;
      await admin.query(`create database ${building}`);
      try {
        const pool = new pg.Pool({ connectionString: withDatabase(url, building), max: 1 });
        // A failed build is dropped with force while its connection may still be closing.
        pool.on('error', () => undefined);
        try {
          await migrate(wrapPool(pool), migrationsDir);
        } finally {
          await pool.end();
        }
        await admin.query(`alter database ${building} rename to ${template}`);
      } catch (error) {
        await admin.query(`drop database if exists ${building} with (force)`);
        throw error;
      }
    }
    await admin.query(`create database ${name} template ${template}`);
    await admin.query('select pg_advisory_unlock(7341002)');
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: withDatabase(url, name), max: poolSize });
  // The database is dropped with its idle connections.
  pool.on('error', () => undefined);
  const db = wrapPool(pool);
  return {
    ...db,
    url: withDatabase(url, name),
    async close() {
      await db.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
