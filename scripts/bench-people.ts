// `npm run bench` (members): a 100,000-member team on the PostgreSQL server at
// TEST_DATABASE_URL, and the members list through the real API (authenticated, validated, JSON
// over HTTP) for the first page, a deep page and a substring search, beside the raw SQL of the same
// queries; then the deep page at a fixed 2,000 requests a second, the dashboard's calls and the CSV
// export. Beside the raw SQL the client runs in the server's thread, as the raw query's loop does;
// the open-loop run's client has a thread of its own, to keep its schedule.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PAGE_SIZE, type MemberFilters } from '@latchkey/contracts';
import { createPostgresDb } from '@latchkey/runtime/testing';
import { buildServer } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { MIGRATIONS_DIR } from '../apps/server/src/db/migrations-dir.ts';
import { DEMO_ADMINS, DEMO_PASSWORD, seedDemo } from '../apps/server/src/features/demo/seed.ts';
import { membersRepository } from '../apps/server/src/features/members/members.repository.ts';
import type { Mail } from '../apps/server/src/platform/mail.ts';
import { type LoadResult, line, load, pooled, summary } from './bench-stats.ts';

const MEMBERS = 100_000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = 8;
/** Turns API and raw SQL take at each list query (SECONDS in all for each). */
const ROUNDS = 4;
const SEARCHES = ['kowal', 'eriks', 'haddad', 'ito.17', '4242'];
/** BENCH_ONLY=search (or first, deep, fixed, dashboard, export; comma-separated) runs just those, for profiling. */
const ONLY = process.env.BENCH_ONLY?.split(',');
const runs = (phase: string) => !ONLY || ONLY.includes(phase);

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.info('people bench skipped: set TEST_DATABASE_URL to a PostgreSQL server');
  process.exit(0);
}

/** The same query the API runs, straight on the pool, closed loop. */
async function sql(run: () => Promise<unknown>, seconds: number, concurrency: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        await run();
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latenciesMs: latencies, errors: 0, seconds: (performance.now() - started) / 1000 };
}

// A migrated database of its own, dropped at the end.
const db = await createPostgresDb(MIGRATIONS_DIR, url, 10);
try {
  await seedDemo(db, {});
  const [team] = await db.query<{ id: string }>(`select id from teams where slug = 'northwind'`);
  const teamId = team?.id as string;
  const seedStarted = performance.now();
  await db.query(
    `insert into members (team_id, email, name, usage, licensed, onboarded_at)
     select $1, lower(f || '.' || l || '.' || g || '@bench.example'), f || ' ' || l,
       (array['active', 'inactive', 'unresponsive'])[1 + g % 3], g % 10 <> 0, now() - (g % 365) * interval '1 day'
     from generate_series(1, $2::int) as g,
     lateral (select (array['Ava','Ben','Chloe','Dev','Elif','Farah','Gus','Hana','Ines','Jon','Kai','Lena','Mateo',
       'Nia','Omar','Pia','Quinn','Rosa','Sven','Tara','Umar','Vera','Wes','Yara','Zoe'])[1 + g % 25] as f,
       (array['Andersen','Brooks','Costa','Dubois','Eriksen','Fischer','Garcia','Haddad','Ito','Jensen','Kowalski',
       'Lopez','Moreau','Nakamura','Olsen','Petrov','Quist','Rossi','Schmidt','Tanaka'])[1 + (g / 25) % 20] as l) as n`,
    [teamId, MEMBERS],
  );
  // A long-lived team's table is vacuumed and its pages written out: no autovacuum or checkpoint
  // of the fresh seed lands in the middle of a measurement.
  await db.exec('vacuum analyze members');
  await db.exec('checkpoint');
  const [count] = await db.query<{ n: number }>('select count(*)::int as n from members where team_id = $1', [teamId]);
  console.info(
    `seeded ${count?.n.toLocaleString('en-US')} members in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );
  const [deep] = await db.query<{ email: string }>(
    'select email from members where team_id = $1 and deboarded_at is null order by email offset $2 limit 1',
    [teamId, (count?.n ?? MEMBERS) - 15],
  );
  const deepCursor = deep?.email as string;
  if (process.env.BENCH_EXPLAIN) {
    // The plans of the very statements the repository runs for each term (the ones it sends, recorded).
    for (const term of SEARCHES) {
      const sent: [string, unknown[]][] = [];
      await membersRepository.page(
        {
          query: (text, params) => {
            sent.push([text, params ?? []]);
            return db.query(text, params);
          },
        },
        teamId,
        { search_value: term },
        null,
        DEFAULT_PAGE_SIZE + 1,
      );
      for (const [text, params] of sent) {
        const plan = await db.query<{ 'QUERY PLAN': string }>(`explain analyze ${text}`, params);
        console.info(`-- ${term}\n${plan.map((r) => r['QUERY PLAN']).join('\n')}`);
      }
    }
  }

  const codes: string[] = [];
  const mailer = { send: async (m: Mail) => void codes.push(/\b(\d{6})\b/.exec(m.text)?.[1] ?? '') };
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: db.url,
    WEB_DIST: '/nonexistent',
    // Key files go to a scratch directory, not the repository.
    DATA_DIR: mkdtempSync(join(tmpdir(), 'latchkey-bench-')),
    // Production refuses to start without one; the bench passes its own mailer, so it is never dialled.
    SMTP_URL: 'smtp://127.0.0.1:1',
  });
  const app = await buildServer({ config, db, mailer, rateLimitPerMinute: 100_000_000 });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const post = async (path: string, body: unknown) =>
    (
      await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    ).json();
  const email = DEMO_ADMINS.admin;
  await post('/api/v1/console/auth/login/', { email, team_slug: 'northwind' });
  await post('/api/v1/console/auth/verify/password/', { email, password: DEMO_PASSWORD, team_slug: 'northwind' });
  for (let i = 0; i < 100 && codes.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  const signedIn = (await post('/api/v1/console/auth/verify/otp/', {
    email,
    otp: codes.at(-1),
    password: DEMO_PASSWORD,
    team_slug: 'northwind',
  })) as { token: { access: string } };
  if (!signedIn.token) throw new Error(`sign-in failed: ${JSON.stringify(signedIn)} (codes: ${codes.join(',')})`);
  const token = signedIn.token.access;
  const listUrl = `${base}/api/v1/team/members/`;

  const deepLabel = `deep page (after row ${(count?.n ?? 0) - 15})`;
  const cases: { phase: string; label: string; bodies: unknown[]; filters: MemberFilters[]; after: string | null }[] = [
    { phase: 'first', label: 'first page', bodies: [{}], filters: [{}], after: null },
    { phase: 'deep', label: deepLabel, bodies: [{ after: deepCursor }], filters: [{}], after: deepCursor },
    {
      phase: 'search',
      label: 'substring search',
      bodies: SEARCHES.map((s) => ({ search_value: s })),
      filters: SEARCHES.map((s) => ({ search_value: s })),
      after: null,
    },
  ];
  // Warm both paths (JIT, plans, pool connections).
  await load({ url: listUrl, token, bodies: ['{}'], seconds: 1, concurrency: CONCURRENCY });

  // API and raw SQL take turns, ROUNDS times each, so that whatever else the machine runs weighs on
  // both alike; their latencies are pooled.
  const results: Record<string, { api: LoadResult; sql: LoadResult }> = {};
  for (const c of cases.filter((c) => runs(c.phase))) {
    let k = 0;
    const api = (seconds: number) =>
      load({
        url: listUrl,
        token,
        bodies: c.bodies.map((b) => JSON.stringify(b)),
        seconds,
        concurrency: CONCURRENCY,
        sameThread: true,
      });
    const raw = (seconds: number) =>
      sql(
        () =>
          membersRepository.page(db, teamId, c.filters[k++ % c.filters.length] as MemberFilters, c.after, DEFAULT_PAGE_SIZE + 1),
        seconds,
        CONCURRENCY,
      );
    // Each query's own code paths compiled and plans cached on both sides before either is timed.
    await api(1);
    await raw(1);
    const turns: { api: LoadResult; sql: LoadResult }[] = [];
    for (let round = 0; round < ROUNDS; round++)
      turns.push({ api: await api(SECONDS / ROUNDS), sql: await raw(SECONDS / ROUNDS) });
    results[c.label] = { api: pooled(turns.map((t) => t.api)), sql: pooled(turns.map((t) => t.sql)) };
  }
  const atRate = (seconds: number) =>
    load({ url: listUrl, token, bodies: [JSON.stringify({ after: deepCursor })], seconds, concurrency: 64, rate: 2000 });
  // The dashboard's calls and the member count over the whole team, as each admin's visit makes them.
  const dashboard: [string, LoadResult][] = [];
  if (runs('dashboard')) {
    for (const path of [
      '/api/v1/dashboard/stats/activity/',
      '/api/v1/dashboard/stats/provisioning/data/',
      '/api/v1/dashboard/stats/licence/summary/',
      '/api/v1/team/members/count/',
    ]) {
      const result = await load({ url: base + path, token, bodies: ['{}'], seconds: SECONDS / 2, concurrency: 2 });
      dashboard.push([path, result]);
    }
  }
  let fixed: LoadResult | undefined;
  if (runs('fixed')) {
    await atRate(2); // its own warm-up: 64 connections to open and the open-loop path to compile
    fixed = await atRate(SECONDS);
  }
  // Export: every member as CSV through the API, one admin at a time, as the console asks for it.
  let exported: { seconds: number[]; bytes: number; rows: number } | undefined;
  if (runs('export')) {
    exported = { seconds: [], bytes: 0, rows: 0 };
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const res = await fetch(`${base}/api/v1/team/members/export/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: '{}',
      });
      const body = await res.text();
      exported.seconds.push((performance.now() - started) / 1000);
      exported.bytes = body.length;
      exported.rows = (JSON.parse(body) as { count: number }).count;
    }
  }
  await app.close();

  const flags = process.execArgv.filter((a) => a.startsWith('--max-semi-space-size'));
  console.info(
    `\nserver run with ${flags.join(' ') || "V8's default young generation, not the server's flags (run it through npm run bench)"}`,
  );
  console.info(
    `members list, ${count?.n.toLocaleString('en-US')} members, page size ${DEFAULT_PAGE_SIZE}, ${CONCURRENCY} concurrent, ` +
      `${SECONDS} s each, API and SQL in ${ROUNDS} alternate turns`,
  );
  for (const [label, r] of Object.entries(results)) {
    console.info(line(`API  ${label}`, r.api));
    console.info(line(`SQL  ${label}`, r.sql));
    const [api, raw] = [summary(r.api), summary(r.sql)];
    console.info(`     API ÷ SQL: p50 ${(api.p50 / raw.p50).toFixed(2)}×  p99 ${(api.p99 / raw.p99).toFixed(2)}×`);
  }
  if (fixed) console.info(line('API  deep page at 2,000 req/s', fixed));
  for (const [path, result] of dashboard) console.info(line(`API  ${path.replace('/api/v1/', '')} (2 conc.)`, result));
  if (exported) {
    const median = [...exported.seconds].sort((a, b) => a - b)[2] ?? 0;
    console.info(
      `API  export CSV of ${exported.rows.toLocaleString('en-US')} members   median ${(median * 1000).toFixed(0)} ms  ` +
        `${Math.round(exported.rows / median).toLocaleString('en-US')} members/s  ${(exported.bytes / 1e6 / median).toFixed(1)} MB/s`,
    );
  }

  const of = (label: string) => results[label];
  const first = of('first page');
  const deepest = of(deepLabel);
  const search = of('substring search');
  const checks: [string, boolean][] = [];
  if (fixed) {
    const at2000 = summary(fixed);
    checks.push([
      `deep page p99 at 2,000 req/s ${at2000.p99.toFixed(2)} ms ≤ 10 ms (served ${Math.round(at2000.rps)} req/s)`,
      at2000.p99 <= 10 && at2000.rps >= 1900,
    ]);
  }
  if (first && deepest) {
    const [firstP50, deepP50] = [summary(first.api).p50, summary(deepest.api).p50];
    checks.push([
      `deepest page p50 ${deepP50.toFixed(2)} ms within 1.2× of the first ${firstP50.toFixed(2)} ms`,
      deepP50 <= firstP50 * 1.2,
    ]);
  }
  if (search) {
    const [p99, rawP99] = [summary(search.api).p99, summary(search.sql).p99];
    checks.push([`search p99 ${p99.toFixed(2)} ms ≤ 15 ms (raw SQL alone ${rawP99.toFixed(2)} ms)`, p99 <= 15]);
    checks.push([
      `search p99 ${p99.toFixed(2)} ms within 1.3× of raw SQL's ${rawP99.toFixed(2)} ms (${(p99 / rawP99).toFixed(2)}×)`,
      p99 <= 1.3 * rawP99,
    ]);
  }
  if (deepest) {
    const [api, raw] = [summary(deepest.api).rps, summary(deepest.sql).rps];
    checks.push([
      `API throughput ${Math.round(api)} req/s ≥ 20 % of raw SQL ${Math.round(raw)} req/s (${Math.round((100 * api) / raw)} %)`,
      api >= 0.2 * raw,
    ]);
  }
  console.info('');
  for (const [text, ok] of checks) console.info(`${ok ? 'met   ' : 'MISSED'} ${text}`);
} finally {
  await db.close();
}
