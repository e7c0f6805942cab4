// The event-log bench's data (scripts/bench-events.ts): a database `bench_events` on the PostgreSQL
// server at TEST_DATABASE_URL, kept between runs (ten million rows take minutes to make), migrated
// with the Hub's migrations on every run. Its rows are made in SQL (generate_series), not through
// the store's append: they carry PLACEHOLDER hashes (md5-derived, not a chain that verifies). Only
// the bench's ingest phase, which runs on a scratch database, exercises the real hash chain.

import { type Db, migrate, wrapPool } from '@latchkey/runtime';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../apps/hub/src/db/migrations-dir.ts';
import { INDEX_KEYS, INDEX_VALUES } from '../apps/hub/src/features/eventlogs/event-search.repository.ts';
import { eventsRepository } from '../apps/hub/src/features/eventlogs/eventlogs.repository.ts';

export const BIG_TEAM = 'northwind';
export const BIG_ROWS = 10_000_000;
export const EXPORT_TEAM = 'bench-export';
export const EXPORT_ROWS = 1_000_000;
/** The rows' recorded times: evenly over these 300 days (ten monthly partitions). */
const FROM = Date.UTC(2026, 0, 1);
const SPAN_SECONDS = 300 * 86_400;

export const ACTIVITIES = [
  'sign_in.succeeded',
  'sign_in.failed',
  'session.switched',
  'team.switched',
  'member.invited',
  'member.removed',
  'member.suspended',
  'member.restored',
  'group.created',
  'group.deleted',
  'group.member_added',
  'group.member_removed',
  'policy.created',
  'policy.updated',
  'policy.deleted',
  'admin.added',
  'admin.removed',
  'admin.role_changed',
  'branding.updated',
  'integration.enabled',
  'integration.disabled',
  'service.enabled',
  'service.disabled',
  'recovery.requested',
  'recovery.approved',
  'sharing.link_created',
  'sharing.link_revoked',
  'settings.updated',
  'app.item_viewed',
  'app.item_copied',
  'app.item_created',
  'app.item_updated',
  'app.vault_opened',
  'app.unlock',
  'app.unlock_failed',
  'app.export',
  'scim.user_created',
  'scim.user_updated',
  'scim.group_synced',
  'siem.configured',
];
export const COMPONENTS = [
  'auth',
  'members',
  'groups',
  'policies',
  'admins',
  'branding',
  'integration',
  'services',
  'recovery',
  'sharing',
  'settings',
  'app',
];

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Opens (creating if missing) and migrates `bench_events`. */
export async function openBenchDb(url: string, poolSize: number): Promise<Db> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const exists = await admin.query(`select 1 from pg_database where datname = 'bench_events'`);
    if (!exists.rowCount) {
      await admin.query('create database bench_events');
      // Index builds over ten million rows (a new migration's) go several times faster with room.
      await admin.query(`alter database bench_events set maintenance_work_mem = '1GB'`);
    }
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: withDatabase(url, 'bench_events'), max: poolSize });
  pool.on('error', () => undefined);
  const db = wrapPool(pool);
  const applied = await migrate(db, MIGRATIONS_DIR);
  if (applied.length) console.info(`bench_events: applied ${applied.join(', ')}`);
  return db;
}

/** Fills `team` with `rows` events (seq 1..rows) unless its chain head already says so. */
export async function ensureRows(db: Db, team: string, rows: number): Promise<void> {
  const head = await eventsRepository.head(db, team);
  if (head.seq === rows) return;
  const started = performance.now();
  await db.query('delete from event_log where team_slug = $1', [team]);
  for (let m = 0; m < 11; m++) await eventsRepository.ensureMonth(db, new Date(Date.UTC(2026, m, 1)));
  const chunk = 500_000;
  for (let lo = 1; lo <= rows; lo += chunk) {
    const hi = Math.min(rows, lo + chunk - 1);
    // Recorded evenly over the span; occurred a few seconds earlier; ~5,000 actors, 40 activities,
    // 12 components, ~60,000 addresses, varied targets and devices.
    await db.query(
      `insert into event_log (team_slug, seq, id, actor, actor_type, activity, component, target, ip, device,
         occurred_at, recorded_at, outcome, detail, prev_hash, hash)
       select $1, g, md5($1 || g)::uuid,
         'member.' || (g * 7919 % 5000) || '@northwind.example',
         (array['admin','member','app','scim','system'])[1 + g % 5],
         ($5::text[])[1 + (g * 31 % 40)],
         ($6::text[])[1 + (g * 17 % 12)],
         (array['Group ','Vault ','Policy ','Member ','Link '])[1 + g % 5] || (g * 13 % 2000),
         '10.' || (g % 250) || '.' || (g / 250 % 240) || '.' || (g * 3 % 250),
         (array['Chrome on macOS','Firefox on Windows','Safari on iOS','Latchkey for Android','Edge on Windows'])[1 + g % 5],
         to_timestamp($4::float8 + g * $7::float8 / $8) - (g % 7) * interval '1 second',
         to_timestamp($4::float8 + g * $7::float8 / $8),
         case when g % 23 = 0 then 'failure' else 'success' end,
         case when g % 3 = 0 then jsonb_build_object('reason', 'bench', 'n', g) else '{}'::jsonb end,
         md5('prev' || g) || md5('prev2' || g), md5('hash' || g) || md5('hash2' || g)
       from generate_series($2::bigint, $3::bigint) as g`,
      [team, lo, hi, FROM / 1000, ACTIVITIES, COMPONENTS, SPAN_SECONDS, rows],
    );
    console.info(`  ${team}: ${hi.toLocaleString('en-US')} rows (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  // What appends keep beside the rows: the hour → seq map (0012) and the search index (0014). The
  // GIN index is rebuilt after the bulk insert (as migration 0014 defines it): much faster than row by row.
  await db.query('delete from event_time_seqs where team_slug = $1', [team]);
  await db.query(
    `insert into event_time_seqs (team_slug, hour, min_seq, max_seq)
     select team_slug, floor(extract(epoch from occurred_at) / 3600)::bigint, min(seq), max(seq)
     from event_log where team_slug = $1 group by 1, 2`,
    [team],
  );
  await db.query('delete from event_search where team_slug = $1', [team]);
  await db.exec('drop index if exists event_search_value_keys');
  await db.query(
    `insert into event_search (team_slug, seq, recorded_at, value_keys)
     select team_slug, seq, recorded_at, ${INDEX_KEYS} from event_log where team_slug = $1`,
    [team],
  );
  await db.exec('create index event_search_value_keys on event_search using gin (value_keys)');
  await db.query('delete from event_search_values where team_slug = $1', [team]);
  await db.query(`insert into event_search_values (team_slug, month, value) ${INDEX_VALUES} on conflict do nothing`, [
    team,
    0,
    rows,
  ]);
  await db.query(
    `insert into event_search_progress (team_slug, seq) values ($1, $2)
     on conflict (team_slug) do update set seq = excluded.seq`,
    [team, rows],
  );
  await db.query(
    `insert into event_chain_heads (team_slug, seq, hash) values ($1, $2::bigint, md5('hash' || $2::text) || md5('hash2' || $2::text))
     on conflict (team_slug) do update set seq = excluded.seq, hash = excluded.hash, floor_seq = 1`,
    [team, rows],
  );
  await db.exec('vacuum analyze event_log');
  await db.exec('vacuum analyze event_search');
  await db.exec('vacuum analyze event_search_values');
  console.info(
    `bench_events: ${team} filled with ${rows.toLocaleString('en-US')} rows in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

// Run alone to make the data ahead of the bench: `node --import tsx scripts/bench-events-data.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('set TEST_DATABASE_URL');
  const db = await openBenchDb(url, 2);
  await ensureRows(db, BIG_TEAM, BIG_ROWS);
  await ensureRows(db, EXPORT_TEAM, EXPORT_ROWS);
  await db.close();
}
