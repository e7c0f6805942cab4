// `npm run bench` (Hub): a 100,000-member team on the PostgreSQL server at TEST_DATABASE_URL,
// through the Hub's real API (a console session from the aux-grant exchange, validated, JSON over
// HTTP): the security audit (first page by score, a deep page, a search, a member's summary) and
// the active share links (first page, a deep page, a search).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HubTokens } from '@latchkey/contracts';
import { createPostgresDb } from '@latchkey/runtime/testing';
import { buildHub } from '../apps/hub/src/app.ts';
import { loadConfig } from '../apps/hub/src/config.ts';
import { MIGRATIONS_DIR } from '../apps/hub/src/db/migrations-dir.ts';
import { CREDENTIAL, registerTeam, signGrant, TEAM } from '../apps/hub/src/testing/hub-fixture.ts';
import { line, load } from './bench-stats.ts';

const MEMBERS = 100_000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8) / 2;
const CONCURRENCY = 4;

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.info('Hub bench skipped: set TEST_DATABASE_URL to a PostgreSQL server');
  process.exit(0);
}

// A migrated database of its own, dropped at the end.
const db = await createPostgresDb(MIGRATIONS_DIR, url, 10);
try {
  await registerTeam(db, TEAM, CREDENTIAL, 'http://127.0.0.1:9/');
  await db.query(
    `insert into vault_summaries (team_slug, email, total_items, weak, reused, old, compromised, score)
     select $1, 'member.' || g || '@bench.example', 40 + g % 200, g % 7, g % 5, g % 11, g % 3, g % 101
     from generate_series(1, $2::int) as g`,
    [TEAM, MEMBERS],
  );
  // One share link a member, from a thousand devices; one in ten revoked.
  await db.query(
    `insert into devices (team_slug, email, name, secret_hash)
     select $1, 'member.' || g || '@bench.example', 'Laptop', md5(g::text) from generate_series(1, 1000) as g`,
    [TEAM],
  );
  await db.query(
    `insert into share_links (team_slug, email, device_id, label, expires_at, view_limit, revoked_at)
     select $1, 'member.' || g || '@bench.example', d.id, 'Wi-Fi ' || g, now() + interval '1 day', 10,
       case when g % 10 = 0 then now() end
     from generate_series(1, $2::int) as g
     join (select id, row_number() over () as n from devices) as d on d.n = 1 + g % 1000`,
    [TEAM, MEMBERS],
  );
  await db.exec('vacuum analyze vault_summaries');
  await db.exec('vacuum analyze share_links');
  const [one] = await db.query<{ id: string }>('select id from vault_summaries where team_slug = $1 limit 1', [TEAM]);

  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    ALLOWED_ORIGINS: 'https://console.bench.example',
    // Key files go to a scratch directory, not the repository.
    DATA_DIR: mkdtempSync(join(tmpdir(), 'latchkey-bench-')),
    SMTP_URL: 'smtp://127.0.0.1:1',
  });
  const hub = await buildHub({ config, db, rateLimitPerMinute: 100_000_000 });
  const base = await hub.listen({ port: 0, host: '127.0.0.1' });
  const exchange = await fetch(`${base}/auth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await signGrant()}` },
    body: JSON.stringify({ team_slug: TEAM, device: { browser: 'bench' } }),
  });
  const token = ((await exchange.json()) as HubTokens).access;
  if (!token) throw new Error(`Hub sign-in failed: ${exchange.status}`);

  const cases: [string, string, unknown[]][] = [
    ['first page by score', '/api/v1/audit/vault/summaries/', [{ team_slug: TEAM }]],
    [
      `deep page (${(MEMBERS / 10).toLocaleString('en-US')} of ${(MEMBERS / 10).toLocaleString('en-US')})`,
      '/api/v1/audit/vault/summaries/',
      [{ team_slug: TEAM, page: MEMBERS / 10 }],
    ],
    [
      'search',
      '/api/v1/audit/vault/summaries/',
      ['member.4242', 'member.99', '77@'].map((s) => ({ team_slug: TEAM, search_value: s })),
    ],
    ["a member's summary", '/api/v1/audit/vault/summary/', [{ team_slug: TEAM, summary_id: one?.id }]],
    ['share links, first page', '/api/v1/sharing/links/', [{ team_slug: TEAM }]],
    ['share links, last page', '/api/v1/sharing/links/', [{ team_slug: TEAM, page: (MEMBERS * 0.9) / 10 }]],
    [
      'share links, search',
      '/api/v1/sharing/links/',
      ['member.4242', 'member.99', '77@'].map((s) => ({ team_slug: TEAM, search_value: s })),
    ],
  ];
  const results: [string, Awaited<ReturnType<typeof load>>][] = [];
  await load({ url: base + (cases[0]?.[1] ?? ''), token, bodies: ['{}'], seconds: 1, concurrency: CONCURRENCY });
  for (const [label, path, bodies] of cases) {
    const bodiesJson = bodies.map((b) => JSON.stringify(b));
    results.push([
      label,
      await load({ url: base + path, token, bodies: bodiesJson, seconds: SECONDS, concurrency: CONCURRENCY }),
    ]);
  }
  await hub.close();

  console.info(
    `\nHub, ${MEMBERS.toLocaleString('en-US')} vault summaries and share links, ${CONCURRENCY} concurrent, ${SECONDS} s each`,
  );
  for (const [label, result] of results) console.info(line(`Hub  ${label}`, result));
} finally {
  await db.close();
}
