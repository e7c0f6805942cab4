// `npm run bench` (alert rules), on the PostgreSQL server at TEST_DATABASE_URL, a scratch database:
//   1. ingest through the Hub's signed feed (HTTP, batches of 500, 4 in flight) with no alert rule;
//   2. the same with 50 rules switched on (40 on activities the ingest never writes, 5 per-actor
//      thresholds over the ingested activity from one address each (20 in 5 minutes, an hour's cooldown), 5 on every probe), while a probe event arrives every
//      250 ms through the same feed: the lag from a probe's append (its recorded_at) to its firing
//      (fired_at), and the ingest rate beside the first run's.
// Targets: lag p99 ≤ 10 s while ingest runs at ≥ 20,000 events/s; the rate with the rules
// on within 10 % of without.

import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSealer, signCall } from '@latchkey/runtime';
import { createPostgresDb } from '@latchkey/runtime/testing';
import { buildHub } from '../apps/hub/src/app.ts';
import { loadConfig } from '../apps/hub/src/config.ts';
import { MIGRATIONS_DIR } from '../apps/hub/src/db/migrations-dir.ts';
import { alertsRepository } from '../apps/hub/src/features/alerts/alerts.repository.ts';
import { loadHubSealingKey } from '../apps/hub/src/platform/keys.ts';
import { registerTeam, SERVER_KEY } from '../apps/hub/src/testing/hub-fixture.ts';
import { feedRate } from './bench-events-ingest.ts';

const TEAM = 'northwind';
const TOTAL = Number(process.env.BENCH_ALERT_EVENTS ?? 200_000);
const FEED = '/api/v1/integrate/events/';
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.info('alert rules bench skipped: set TEST_DATABASE_URL to a PostgreSQL server');
  process.exit(0);
}

const db = await createPostgresDb(MIGRATIONS_DIR, url, 10);
await registerTeam(db, TEAM, `cred-${TEAM}`, 'http://127.0.0.1:9/');
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  ALLOWED_ORIGINS: 'https://console.bench.example',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'latchkey-bench-alerts-')),
  SMTP_URL: 'smtp://127.0.0.1:1',
});
const app = await buildHub({ config, db, rateLimitPerMinute: 100_000_000 });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const sealer = createSealer(loadHubSealingKey(config));

/** The 50 rules: most on activities the ingest never writes, some thresholds on what it writes, some on the probe. */
async function addRules() {
  const head = await db.query<{ seq: string }>('select seq::text from event_chain_heads where team_slug = $1', [TEAM]);
  const from = Number(head[0]?.seq ?? 0);
  const rule = (i: number, filters: Record<string, unknown>, condition: Record<string, unknown>, cooldown = 0) =>
    alertsRepository.insert(
      db,
      TEAM,
      randomUUID(),
      'bench@northwind.example',
      {
        name: `Bench rule ${i}`,
        template: null,
        filters,
        condition: condition as never,
        cooldown_minutes: cooldown,
        destinations: [{ id: randomUUID(), kind: 'siem' }],
        secrets_sealed: sealer.seal('{}'),
        enabled: true,
      },
      from,
    );
  for (let i = 0; i < 40; i++) await rule(i, { activities: [`admin.bench_${i}`, 'auth.sign_in_failed'] }, { kind: 'every' });
  for (let i = 40; i < 45; i++)
    await rule(
      i,
      { activities: ['group.member_added'], ip_addresses: [`10.1.${i}.7`] },
      { kind: 'threshold', count: 20, minutes: 5, group_by: 'actor' },
      60,
    );
  for (let i = 45; i < 50; i++) await rule(i, { activities: ['bench.probe'] }, { kind: 'every' });
  await alertsRepository.startCursor(db, TEAM, from);
  await db.query('update alert_cursors set cursor_seq = $2 where team_slug = $1', [TEAM, from]);
}

/** A probe every 250 ms through the signed feed until `stop` resolves. */
async function probes(stop: Promise<void>) {
  let done = false;
  void stop.then(() => {
    done = true;
  });
  let sent = 0;
  while (!done) {
    const body = {
      team_slug: TEAM,
      events: [
        {
          id: randomUUID(),
          actor: 'probe@northwind.example',
          actor_type: 'admin',
          activity: 'bench.probe',
          component: 'bench',
          occurred_at: new Date().toISOString(),
        },
      ],
    };
    const { token, json } = signCall(SERVER_KEY, `cred-${TEAM}`, FEED, TEAM, body);
    await fetch(base + FEED, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: json,
    });
    sent++;
    await new Promise((r) => setTimeout(r, 250));
  }
  return sent;
}

try {
  console.info(`\nalert rules bench (PostgreSQL), ${fmt(TOTAL)} events per run`);
  const off = await feedRate(base, TEAM, TOTAL, 500, 4);
  await addRules();
  let stopProbes: () => void = () => undefined;
  const probing = probes(new Promise<void>((r) => (stopProbes = r)));
  const on = await feedRate(base, TEAM, TOTAL, 500, 4);
  stopProbes();
  const sent = await probing;
  const caughtUpFrom = performance.now();
  for (;;) {
    const [row] = await db.query<{ behind: string }>(
      'select (h.seq - c.cursor_seq)::text as behind from alert_cursors c join event_chain_heads h using (team_slug) where c.team_slug = $1',
      [TEAM],
    );
    if (Number(row?.behind) === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const catchUp = (performance.now() - caughtUpFrom) / 1000;
  const lags = await db.query<{ lag_ms: number }>(
    `select extract(epoch from f.fired_at - e.recorded_at) * 1000 as lag_ms
     from alert_firings f join event_log e on e.team_slug = f.team_slug and e.seq = f.event_seqs[1]
     where f.team_slug = $1 and e.activity = 'bench.probe'`,
    [TEAM],
  );
  const ms = lags.map((l) => Number(l.lag_ms));
  const p50 = quantile(ms, 0.5) / 1000;
  const p99 = quantile(ms, 0.99) / 1000;
  const ratio = on / off;
  console.info(`ingest, no rule                         ${fmt(off)} events/s`);
  console.info(`ingest, 50 rules on                     ${fmt(on)} events/s (ratio ${ratio.toFixed(2)} of without)`);
  console.info(
    `append → firing lag of ${sent} probes × 5 rules  p50 ${p50.toFixed(2)} s, p99 ${p99.toFixed(2)} s (${ms.length} firings; caught up ${catchUp.toFixed(1)} s after ingest)`,
  );
  const checks: [string, boolean][] = [
    [`every probe fired on its 5 rules (${ms.length} of ${sent * 5})`, ms.length === sent * 5],
    [`lag p99 ${p99.toFixed(2)} s ≤ 10 s`, p99 <= 10],
    [`ingest with the rules on ${ratio.toFixed(2)} of without ≥ 0.90`, ratio >= 0.9],
    [`ingest with the rules on ${fmt(on)} events/s ≥ 20,000`, on >= 20_000],
  ];
  for (const [what, ok] of checks) console.info(`${ok ? '✔' : '✘'} ${what}`);
} finally {
  await app.close();
  await db.close();
}
