import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSealer, type Db, migrate, openDb } from '@latchkey/runtime';
import { createPostgresDb } from '@latchkey/runtime/testing';
import { expect, test } from 'vitest';
import { loadConfig } from '../../config.ts';
import { MIGRATIONS_DIR } from '../../db/migrations-dir.ts';
import { loadHubSealingKey } from '../../platform/keys.ts';
import { ALERT_SIGNING_SECRET, alertWebhookReceiver } from '../../testing/alert-receivers.ts';
import { freePort, runHub, until } from '../../testing/killable-hub.ts';
import { selfSignedCert } from '../../testing/siem-receivers.ts';
import { recordHubEvents } from '../eventlogs/index.ts';
import { resolveDestinations, sealSecrets } from './alert-destinations.ts';
import { alertsRepository } from './alerts.repository.ts';

/**
 * The Hub killed (SIGKILL) while it evaluates alert rules: a real Hub process on a log of 3,000
 * events (three batches), killed once the first firings reach the webhook, then started again on
 * the same database. Every window fires exactly once (none lost, none twice), each firing holds
 * its own events, the log holds one alert.fired per firing, and every firing reaches the webhook.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const TEAM = 'northwind';
const ACTORS = 20;
const PER_ACTOR = 150;
const COUNT = 50;
const FIRINGS = (ACTORS * PER_ACTOR) / COUNT;

/** How long the Hub gets to be ready, and each wait for the webhook. */
const LONG = 120_000;

test(`the Hub killed mid-evaluation fires every window once: none lost, none twice (${onPostgres ? 'PostgreSQL' : 'PGlite data directory'})`, async () => {
  const tls = selfSignedCert();
  const receiver = await alertWebhookReceiver(tls);
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-hub-alerts-kill-'));
  const pg = onPostgres ? await createPostgresDb(MIGRATIONS_DIR) : undefined;
  const open = async (): Promise<Db> => pg ?? (await openDb({ dataDir }));
  const done = async (db: Db) => {
    if (!pg) await db.close();
  };
  const port = await freePort();
  const env = {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    ALLOWED_ORIGINS: 'http://console.test:8080',
    SIEM_CA_FILE: tls.certFile,
    ALERT_PUMP_INTERVAL_MS: '100',
    ALERT_RETRY_DELAY_SECONDS: '1',
    // A run of a killed Hub holds the team's log this long; then the restarted Hub takes it over.
    ALERT_LEASE_SECONDS: '3',
    ...(pg ? { HUB_DATABASE_URL: pg.url } : {}),
  };
  // The rule's secret sealed with the key the Hub will read from its data directory.
  const sealer = createSealer(loadHubSealingKey(loadConfig({ NODE_ENV: 'test', ...env })));

  const ids: string[] = [];
  const ruleId = randomUUID();
  const seed = await open();
  try {
    if (!pg) await migrate(seed, MIGRATIONS_DIR);
    const { destinations, secrets } = await resolveDestinations([
      { kind: 'webhook', url: `${receiver.url}/alerts`, signing_secret: ALERT_SIGNING_SECRET },
    ]);
    await seed.transaction(async (tx) => {
      await alertsRepository.insert(
        tx,
        TEAM,
        ruleId,
        'alex@northwind.example',
        {
          name: 'Fifty changes by one admin',
          template: null,
          filters: { activities: ['group.created'] },
          condition: { kind: 'threshold', count: COUNT, minutes: 60, group_by: 'actor' },
          cooldown_minutes: 0,
          destinations,
          secrets_sealed: sealSecrets(sealer, secrets),
          enabled: true,
        },
        0,
      );
      await alertsRepository.startCursor(tx, TEAM, 0);
      const events = Array.from({ length: ACTORS * PER_ACTOR }, (_, i) => ({
        id: randomUUID(),
        actor: `admin${i % ACTORS}@northwind.example`,
        actor_type: 'admin' as const,
        activity: 'group.created' as const,
        component: 'groups',
        target: `Group ${i}`,
      }));
      ids.push(...events.map((e) => e.id));
      await recordHubEvents(tx, TEAM, events);
    });
  } finally {
    await done(seed);
  }

  const firingIds = () => new Set(receiver.bodies.map((b) => String(b.id)));
  const killed = await runHub(
    env,
    () => until(() => receiver.bodies.length >= 1, 'the first firing to reach the webhook', LONG),
    'SIGKILL',
    LONG,
  );
  expect(killed).toBe('SIGKILL');
  const beforeRestart = firingIds().size;

  await runHub(
    env,
    async () => {
      await until(() => firingIds().size >= FIRINGS, 'every firing to reach the webhook', LONG);
      // A moment for any firing made twice to show.
      await new Promise((r) => setTimeout(r, 1_000));
    },
    'SIGTERM',
    LONG,
  );

  expect(beforeRestart).toBeLessThan(FIRINGS);
  expect(firingIds().size).toBe(FIRINGS);
  const db = await open();
  try {
    const firings = await db.query<{ id: string; event_ids: string[] }>(
      'select id::text, event_ids::text[] from alert_firings where rule_id = $1',
      [ruleId],
    );
    expect(firings).toHaveLength(FIRINGS);
    expect(new Set(firings.map((f) => f.id))).toEqual(firingIds());
    // Each event in exactly one firing, every event in one.
    const matched = firings.flatMap((f) => f.event_ids);
    expect(firings.every((f) => f.event_ids.length === COUNT)).toBe(true);
    expect(matched.length).toBe(ids.length);
    expect(new Set(matched)).toEqual(new Set(ids));
    const [fired] = await db.query<{ n: number }>(
      "select count(*)::int as n from event_log where team_slug = $1 and activity = 'alert.fired'",
      [TEAM],
    );
    expect(fired?.n).toBe(FIRINGS);
    const [cursor] = await db.query<{ behind: boolean }>(
      'select c.cursor_seq >= $2 as behind from alert_cursors c where c.team_slug = $1',
      [TEAM, ids.length],
    );
    expect(cursor?.behind).toBe(true);
  } finally {
    await done(db);
    await pg?.close();
  }
}, 240_000);
