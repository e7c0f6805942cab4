// `npm run bench` (backup): restore time of a 100,000-member team's server and a Hub holding
// 1,000,000 events, on the PostgreSQL server at TEST_DATABASE_URL, through the operator's commands
// (`npm run cli -- backup|restore`, `npm run hub-cli -- backup|restore`: encrypted archive,
// one-transaction pg_restore), beside a raw pg_dump → pg_restore of the same databases.
// The source databases (bench_backup_server, bench_backup_hub) are kept between runs: a million
// events take minutes to make.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { type Db, migrate, wrapPool } from '@latchkey/runtime';
import pg from 'pg';
import { MIGRATIONS_DIR as HUB_MIGRATIONS_DIR } from '../apps/hub/src/db/migrations-dir.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { MIGRATIONS_DIR } from '../apps/server/src/db/migrations-dir.ts';
import { seedDemo } from '../apps/server/src/features/demo/seed.ts';
import { loadServerKeys } from '../apps/server/src/platform/keys.ts';
import { ensureRows, withDatabase } from './bench-events-data.ts';

const MEMBERS = 100_000;
const EVENTS = 1_000_000;
const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');
const PASSPHRASE = 'bench-backup-passphrase-0123456789';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const RESTORE_FLAGS = ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges'];

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.info('backup bench skipped: set TEST_DATABASE_URL to a PostgreSQL server');
  process.exit(0);
}

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

async function open(database: string, migrations: string): Promise<Db> {
  const exists = await admin(`select 1 from pg_database where datname = '${database}'`);
  if (!exists.rowCount) await admin(`create database ${database}`);
  const pool = new pg.Pool({ connectionString: withDatabase(url as string, database), max: 2 });
  pool.on('error', () => undefined);
  const db = wrapPool(pool);
  await migrate(db, migrations);
  return db;
}

/** The server's source: the demo, then 100,000 members in Northwind (as the people bench makes them). */
async function ensureMembers(db: Db) {
  await seedDemo(db, {});
  const [team] = await db.query<{ id: string }>(`select id from teams where slug = 'northwind'`);
  const [have] = await db.query<{ n: number }>('select count(*)::int as n from members where team_id = $1', [team?.id]);
  if ((have?.n ?? 0) >= MEMBERS) return;
  await db.query(
    `insert into members (team_id, email, name, usage, licensed, onboarded_at)
     select $1, 'member.' || g || '@bench.example', 'Member ' || g,
       (array['active', 'inactive', 'unresponsive'])[1 + g % 3], g % 10 <> 0, now() - (g % 365) * interval '1 day'
     from generate_series(1, $2::int) as g`,
    [team?.id, MEMBERS],
  );
  await db.exec('vacuum analyze members');
}

const seconds = (started: number) => (performance.now() - started) / 1000;

function timed(command: string, args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve(seconds(started)) : reject(new Error(`${command} ${args[0]}: ${err}`)))),
  );
}

const cli = (program: 'server' | 'hub', args: string[], env: Record<string, string>) =>
  timed(join(ROOT, 'node_modules/.bin/tsx'), [program === 'server' ? 'apps/server/src/cli.ts' : 'apps/hub/src/cli.ts', ...args], {
    PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`,
    NODE_ENV: 'test',
    BACKUP_PASSPHRASE: PASSPHRASE,
    ...env,
  });

const work = mkdtempSync(join(tmpdir(), 'latchkey-bench-backup-'));
const fresh = async (database: string) => {
  await admin(`drop database if exists ${database} with (force)`);
  await admin(`create database ${database}`);
  return withDatabase(url, database);
};

try {
  const seedStarted = performance.now();
  const serverDb = await open('bench_backup_server', MIGRATIONS_DIR);
  await ensureMembers(serverDb);
  await serverDb.close();
  const hubDb = await open('bench_backup_hub', HUB_MIGRATIONS_DIR);
  await ensureRows(hubDb, 'northwind', EVENTS);
  await hubDb.close();
  console.info(`backup bench: sources ready in ${seconds(seedStarted).toFixed(0)} s`);

  const programs = [
    { program: 'server' as const, source: 'bench_backup_server', urlVar: 'DATABASE_URL' },
    { program: 'hub' as const, source: 'bench_backup_hub', urlVar: 'HUB_DATABASE_URL' },
  ];
  const results: { program: string; backup: number; restore: number; raw: number; bytes: number }[] = [];
  for (const p of programs) {
    const dataDir = join(work, p.program);
    const sourceUrl = withDatabase(url, p.source);
    // The keys as a first start leaves them in DATA_DIR/keys, so the archive carries real ones.
    if (p.program === 'server') loadServerKeys(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }));
    const archive = join(work, `${p.program}.age`);
    const backup = await cli(p.program, ['backup', archive], { [p.urlVar]: sourceUrl, DATA_DIR: dataDir });
    // The same database with the tools alone: pg_dump to a file, pg_restore in one transaction.
    const plain = join(work, `${p.program}.dump`);
    spawnSync('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${plain}`, `--dbname=${sourceUrl}`]);
    // Alternated, best of ROUNDS each: the machine is shared, and its load moves between runs.
    const ours: number[] = [];
    const tools: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      tools.push(await timed('pg_restore', [...RESTORE_FLAGS, `--dbname=${await fresh(`bench_raw_${p.program}`)}`, plain], {}));
      rmSync(dataDir, { recursive: true, force: true });
      const target = await fresh(`bench_restore_${p.program}`);
      ours.push(await cli(p.program, ['restore', archive], { [p.urlVar]: target, DATA_DIR: dataDir }));
    }
    const restore = Math.min(...ours);
    const raw = Math.min(...tools);
    results.push({ program: p.program, backup, restore, raw, bytes: statSync(archive).size });
    await admin(`drop database bench_restore_${p.program} with (force)`);
    await admin(`drop database bench_raw_${p.program} with (force)`);
  }
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
  for (const r of results)
    console.info(
      `${r.program === 'server' ? `server, ${MEMBERS.toLocaleString('en-US')} members` : `Hub, ${EVENTS.toLocaleString('en-US')} events`}`.padEnd(
        28,
      ) +
        `backup ${r.backup.toFixed(1)} s (${mb(r.bytes)})  restore ${r.restore.toFixed(1)} s  raw pg_restore ${r.raw.toFixed(1)} s  ×${(r.restore / r.raw).toFixed(2)}`,
    );
  const total = results.reduce((s, r) => s + r.restore, 0);
  const raw = results.reduce((s, r) => s + r.raw, 0);
  console.info(
    `restore of both (server + Hub)  ${total.toFixed(1)} s, raw pg_restore ${raw.toFixed(1)} s: ×${(total / raw).toFixed(2)} ` +
      `(best of ${ROUNDS}; includes each command's start and the passphrase's scrypt; load average ${loadavg()[0]?.toFixed(1)})`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
