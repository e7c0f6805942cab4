// `npm run bench` (event logs), on the PostgreSQL server at TEST_DATABASE_URL:
//   1. ingest: batches of 500 through the Hub's signed server→Hub feed (/api/v1/integrate/events/,
//      HTTP, signature checked; signed beforehand and sent from their own thread, as the licence
//      server's outbox is another process) and through the service function it calls, on a scratch database;
//      the chain those appends made is then verified end to end;
//   2. /eventlogs data (/audit/logs/fetch/, HTTP) over 10,000,000 events of one team: the first page
//      unfiltered and with each filter of spec §3 (activity, actor, component, IP, date range, free
//      text, five terms rare to common), the deepest page, each beside the raw SQL the service runs
//      (page + count; a search is not counted);
//   3. export of 1,000,000 events as CSV and NDJSON through the streamed route;
//   4. SIEM delivery per destination (scripts/bench-events-delivery.ts): Splunk HEC with and without
//      indexer acknowledgement, Sentinel (both APIs), QRadar (HTTP Receiver, syslog TLS and TCP),
//      Sumo Logic and the webhook, each against the tests' stand-in: lag while events arrive at
//      5,000 a second, then the rate of a backfill of everything the destination's team holds.
// The 10M and 1M rows live in a database `bench_events`, kept between runs (scripts/bench-events-data.ts):
// they are made set-based in SQL and carry PLACEHOLDER hashes, not a chain that verifies; only the
// ingest phase (and the delivery phase's live events) exercise the real hash chain.
// BENCH_ONLY=ingest,pages,export,delivery runs just those phases.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { EVENT_COUNT_CAP, EventFilters, type HubTokens } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { createPostgresDb } from '@latchkey/runtime/testing';
import { buildHub } from '../apps/hub/src/app.ts';
import { loadConfig } from '../apps/hub/src/config.ts';
import { MIGRATIONS_DIR } from '../apps/hub/src/db/migrations-dir.ts';
import { eventsRepository, isUnfiltered } from '../apps/hub/src/features/eventlogs/eventlogs.repository.ts';
import { createEventsService } from '../apps/hub/src/features/eventlogs/eventlogs.service.ts';
import { registerTeam, signGrant } from '../apps/hub/src/testing/hub-fixture.ts';
import { selfSignedCert } from '../apps/hub/src/testing/siem-receivers.ts';
import { BIG_ROWS, BIG_TEAM, EXPORT_ROWS, EXPORT_TEAM, ensureRows, openBenchDb } from './bench-events-data.ts';
import { deliveryDestinations, deliveryPhase, deliveryTeams } from './bench-events-delivery.ts';
import { feedRate, ingestBatches } from './bench-events-ingest.ts';
import { type LoadResult, line, load, summary } from './bench-stats.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8) / 2;
const CONCURRENCY = 4;
const ONLY = process.env.BENCH_ONLY?.split(',');
const runs = (phase: string) => !ONLY || ONLY.includes(phase);
const checks: [string, boolean][] = [];
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.info('event-log bench skipped: set TEST_DATABASE_URL to a PostgreSQL server');
  process.exit(0);
}

/** A Hub on `db` with the teams registered (the licence server's key of this process), and a console token per team. */
async function hubOn(db: Db, teams: string[], env: Record<string, string> = {}) {
  for (const team of teams) {
    await db.query('delete from registrations where team_slug = $1', [team]);
    await registerTeam(db, team, `cred-${team}`, 'http://127.0.0.1:9/');
  }
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    ALLOWED_ORIGINS: 'https://console.bench.example',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'latchkey-bench-')),
    SMTP_URL: 'smtp://127.0.0.1:1',
    ...env,
  });
  const app = await buildHub({ config, db, rateLimitPerMinute: 100_000_000 });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base };
}

/** A console session for `team` (a fresh one per phase: sessions expire within minutes). */
async function signIn(base: string, team: string): Promise<string> {
  const res = await fetch(`${base}/auth/token/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${await signGrant({ teamSlug: team, kid: `cred-${team}` })}`,
    },
    body: JSON.stringify({ team_slug: team, device: { browser: 'bench' } }),
  });
  const token = ((await res.json()) as HubTokens).access;
  if (!token) throw new Error(`Hub sign-in for ${team} failed: ${res.status}`);
  return token;
}

/** The same work straight on the pool, closed loop (as bench-people does). */
async function sql(run: (k: number) => Promise<unknown>, seconds: number, concurrency: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let k = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        await run(k++);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latenciesMs: latencies, errors: 0, seconds: (performance.now() - started) / 1000 };
}

console.info(
  `\nevent logs bench (PostgreSQL), load ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

// ── 1. ingest, and 4. delivery: a scratch database ──
if (runs('ingest') || runs('delivery')) {
  const scratch = await createPostgresDb(MIGRATIONS_DIR, url, 10);
  const tls = selfSignedCert();
  const delivery = runs('delivery') ? await deliveryDestinations(tls) : null;
  const { app, base } = await hubOn(scratch, ['northwind', ...deliveryTeams(delivery?.destinations.length ?? 0)], {
    OUTBOUND_ALLOW: '127.0.0.1',
    SIEM_CA_FILE: tls.certFile,
    ...delivery?.env,
  });
  try {
    if (runs('ingest')) {
      const service = createEventsService(scratch, { selfHosted: true });
      const total = 200_000;
      const loopBefore = performance.eventLoopUtilization();
      const http = await feedRate(base, 'northwind', total, 500, CONCURRENCY);
      const hubLoop = performance.eventLoopUtilization(loopBefore).utilization;
      const direct = await ingestBatches(total, 500, CONCURRENCY, (events) => service.ingestFromServer('northwind', events));
      console.info(
        `ingest via the signed feed (HTTP)     ${fmt(http)} events/s (${fmt(total)} events, batches of 500, ${CONCURRENCY} concurrent; the Hub's event loop busy ${Math.round(hubLoop * 100)} %)`,
      );
      console.info(`ingest via the service function        ${fmt(direct)} events/s`);
      const started = performance.now();
      const verified = await service.verify('northwind');
      console.info(
        `chain verify of ${fmt(verified.checked)} events            ${verified.ok ? 'ok' : `BROKEN at ${JSON.stringify(verified.problem)}`} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      checks.push([`ingest through the signed feed ${fmt(http)} events/s ≥ 20,000`, http >= 20_000]);
      checks.push([
        `chain of the ${fmt(verified.checked)} ingested events verifies`,
        verified.ok && verified.checked === 2 * total,
      ]);
    }
    if (delivery) {
      const call = async (team: string, path: string, body: Record<string, unknown>) => {
        const res = await fetch(base + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${await signIn(base, team)}` },
          body: JSON.stringify({ team_slug: team, ...body }),
        });
        if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
        return (await res.json()) as { data: { id: string } };
      };
      await deliveryPhase(
        scratch,
        createEventsService(scratch, { selfHosted: true }),
        call,
        delivery.destinations,
        delivery.confirmed,
        checks,
      );
    }
  } finally {
    await app.close();
    await delivery?.close();
    await scratch.close();
  }
}

// ── 2. pages and 3. export: the kept 10M / 1M database ──
if (runs('pages') || runs('export')) {
  const db = await openBenchDb(url, 10);
  if (runs('pages')) await ensureRows(db, BIG_TEAM, BIG_ROWS);
  await ensureRows(db, EXPORT_TEAM, EXPORT_ROWS);
  const { app, base } = await hubOn(db, [BIG_TEAM, EXPORT_TEAM]);
  try {
    if (runs('pages')) await pagesPhase(db, base, await signIn(base, BIG_TEAM));
    if (runs('export')) await exportPhase(db, base, await signIn(base, EXPORT_TEAM));
  } finally {
    await app.close();
    await db.close();
  }
}

async function pagesPhase(db: Db, base: string, token: string) {
  const [one] = await db.query<{ ip: string; actor: string }>(
    'select ip, actor from event_log where team_slug = $1 and seq = $2',
    [BIG_TEAM, 4_242_424],
  );
  const day = (iso: string) => Date.parse(iso) / 1000;
  const filters: [string, EventFilters[]][] = [
    ['no filter', [{}]],
    ['activity', [{ activities: ['policy.updated'] }, { activities: ['app.unlock_failed', 'admin.removed'] }]],
    ['actor', [{ actors: [one?.actor ?? ''] }, { actors: ['member.17@northwind.example'] }]],
    ['component', [{ components: ['groups'] }, { components: ['recovery', 'branding'] }]],
    ['IP address', [{ ip_addresses: [one?.ip ?? ''] }]],
    [
      'date range',
      [
        { dates: { start_timestamp: day('2026-05-10T00:00:00Z'), end_timestamp: day('2026-05-11T00:00:00Z') } },
        { dates: { start_timestamp: day('2026-02-01T00:00:00Z'), end_timestamp: day('2026-03-01T00:00:00Z') } },
        { dates: { start_timestamp: day('2026-01-02T00:00:00Z'), end_timestamp: null } },
      ],
    ],
    // Free text, each on its own: part of an actor and a whole one (0.02 % of events each), a target
    // (0.01 %), part of an address (0.002 %), an activity (2.5 %), and two without a match, so every
    // month's index is read: one of rare trigrams, one of common words (no target is "Vault 1234").
    ...[
      'member.4242',
      'member.17@northwind.example',
      'Vault 1233',
      '10.42.7.',
      'unlock_failed',
      'no-such-text',
      'Vault 1234',
    ].map((search_value): [string, EventFilters[]] => [`search "${search_value}"`, [{ search_value }]]),
  ];
  const fetchUrl = `${base}/audit/logs/fetch/`;
  await load({ url: fetchUrl, token, bodies: [JSON.stringify({ team_slug: BIG_TEAM })], seconds: 1, concurrency: CONCURRENCY });
  const rows: [string, LoadResult, LoadResult][] = [];
  for (const [label, fs] of filters) {
    const api = await load({
      url: fetchUrl,
      token,
      bodies: fs.map((filters) => JSON.stringify({ team_slug: BIG_TEAM, filters })),
      seconds: SECONDS,
      concurrency: CONCURRENCY,
    });
    const raw = await sql(
      async (k) => {
        const f = EventFilters.parse(fs[k % fs.length]) as Required<EventFilters>;
        const head = await eventsRepository.head(db, BIG_TEAM);
        await Promise.all([
          eventsRepository.page(db, BIG_TEAM, f, { page: 1, pageSize: 50, headSeq: head.seq }),
          // As the service: the unfiltered total is the chain's length, and a search is not counted.
          isUnfiltered(f) || f.search_value ? null : eventsRepository.count(db, BIG_TEAM, f, EVENT_COUNT_CAP),
        ]);
      },
      SECONDS,
      CONCURRENCY,
    );
    rows.push([`first page, ${label}`, api, raw]);
  }
  // Each deepest page right after its first page again: the ratio of two runs under the same load
  // (measured minutes apart, behind the searches, the machine's load moved it more than the depth did).
  const again = (filters: EventFilters) =>
    load({
      url: fetchUrl,
      token,
      bodies: [JSON.stringify({ team_slug: BIG_TEAM, filters })],
      seconds: SECONDS,
      concurrency: CONCURRENCY,
    });
  const deepest = Math.ceil(BIG_ROWS / 50);
  const firstAgain = await again({});
  const deep = await load({
    url: `${fetchUrl}?page=${deepest}&page_size=50`,
    token,
    bodies: [JSON.stringify({ team_slug: BIG_TEAM })],
    seconds: SECONDS,
    concurrency: CONCURRENCY,
  });
  // A filtered read continued to its deepest page: before_seq near the start of the chain.
  const activityAgain = await again({ activities: ['policy.updated'] });
  const deepFiltered = await load({
    url: fetchUrl,
    token,
    bodies: [JSON.stringify({ team_slug: BIG_TEAM, filters: { activities: ['policy.updated'] }, before_seq: 2_000 })],
    seconds: SECONDS,
    concurrency: CONCURRENCY,
  });
  console.info(
    `\n/eventlogs data over ${fmt(BIG_ROWS)} events of one team, page size 50, ${CONCURRENCY} concurrent, ${SECONDS} s each`,
  );
  for (const [label, api, raw] of rows) {
    console.info(line(`API  ${label}`, api));
    console.info(line(`SQL  ${label}`, raw));
    const [a, s] = [summary(api), summary(raw)];
    checks.push([
      `${label}: p99 ${a.p99.toFixed(1)} ms ≤ 50 ms (raw SQL p99 ${s.p99.toFixed(1)} ms, API/SQL p50 ${(a.p50 / s.p50).toFixed(2)}×)`,
      a.p99 <= 50 && a.errors === 0,
    ]);
  }
  console.info(line('API  first page again, no filter', firstAgain));
  console.info(line(`API  deepest page (${fmt(deepest)}), no filter`, deep));
  console.info(line('API  first page again, activity', activityAgain));
  console.info(line('API  deepest page, activity (before_seq)', deepFiltered));
  const first = summary(firstAgain);
  const activity = summary(activityAgain);
  checks.push([
    `deepest page p99 ${summary(deep).p99.toFixed(1)} ms ≤ 1.5× the first's ${first.p99.toFixed(1)} ms`,
    summary(deep).p99 <= Math.max(1.5 * first.p99, first.p99 + 1),
  ]);
  checks.push([
    `deepest filtered page p99 ${summary(deepFiltered).p99.toFixed(1)} ms ≤ 1.5× the first's ${activity.p99.toFixed(1)} ms`,
    summary(deepFiltered).p99 <= Math.max(1.5 * activity.p99, activity.p99 + 1),
  ]);
}

async function exportPhase(db: Db, base: string, token: string) {
  console.info('');
  const all = EventFilters.parse({}) as Parameters<typeof eventsRepository.exportBatch>[2];
  for (const format of ['csv', 'ndjson'] as const) {
    // The raw query: the same batched SQL, one batch at a time, straight from the database.
    const rawStarted = performance.now();
    const { floor_seq: floor, seq: head } = await eventsRepository.head(db, EXPORT_TEAM);
    for (let from = floor; from <= head; from += 20_000)
      await eventsRepository.exportBatch(db, EXPORT_TEAM, all, format, from, Math.min(from + 19_999, head));
    const raw = (performance.now() - rawStarted) / 1000;
    const started = performance.now();
    const res = await fetch(`${base}/audit/logs/export/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ team_slug: EXPORT_TEAM, format }),
    });
    if (!res.ok) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    let bytes = 0;
    let lines = 0;
    let firstByte = 0;
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!firstByte) firstByte = performance.now() - started;
      bytes += value.length;
      for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    const rows = format === 'csv' ? lines - 1 : lines;
    console.info(
      `export ${format.padEnd(6)} of ${fmt(rows)} events   ${seconds.toFixed(2)} s  first byte ${firstByte.toFixed(0)} ms  ` +
        `${fmt(rows / seconds)} events/s  ${(bytes / 1e6 / seconds).toFixed(1)} MB/s  ` +
        `(raw batched query, one batch at a time: ${raw.toFixed(2)} s; ${(seconds / raw).toFixed(2)}×)`,
    );
    checks.push([
      `export ${format} of ${fmt(rows)} events ${seconds.toFixed(2)} s ≤ 10 s`,
      seconds <= 10 && rows === EXPORT_ROWS,
    ]);
  }
}

console.info('');
for (const [text, ok] of checks) console.info(`${ok ? 'met   ' : 'MISSED'} ${text}`);
process.exit(0);
