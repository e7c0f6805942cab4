import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, migrate, openDb } from '@latchkey/runtime';
import { createPostgresDb } from '@latchkey/runtime/testing';
import { expect, test } from 'vitest';
import { MIGRATIONS_DIR } from '../../db/migrations-dir.ts';
import { freePort, runHub, until } from '../../testing/killable-hub.ts';
import { selfSignedCert, WEBHOOK_SIGNING_SECRET, WEBHOOK_TOKEN, webhookReceiver } from '../../testing/siem-receivers.ts';
import { recordHubEvents } from '../eventlogs/index.ts';
import { siemRepository } from './siem.repository.ts';
import { SIEM_BATCH } from './siem-delivery.ts';

/**
 * The Hub killed (SIGKILL) while a SIEM destination is taking a batch: a real Hub process, a real
 * receiver that is slow on its second request, the process killed while that request is in flight,
 * then started again on the same database. Every event must reach the receiver at least once, and
 * exactly once after de-duplication by event id.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const TEAM = 'northwind';
const EVENTS = 3 * SIEM_BATCH + SIEM_BATCH / 5; // four batches, the last one short

/** How long the Hub gets to be ready, and each wait for the receiver. */
const WAIT = 60_000;

/** The destination's cursor: the last seq it acknowledged. */
async function cursorOf(open: () => Promise<Db>, done: (db: Db) => Promise<void>): Promise<number> {
  const db = await open();
  try {
    const [d] = await db.query<{ cursor_seq: string }>('select cursor_seq::text from siem_destinations where team_slug = $1', [
      TEAM,
    ]);
    return Number(d?.cursor_seq);
  } finally {
    await done(db);
  }
}

test(`the Hub killed mid-batch loses nothing: every event delivered, exactly once after de-duplication (${onPostgres ? 'PostgreSQL' : 'PGlite data directory'})`, async () => {
  const tls = selfSignedCert();
  const receiver = await webhookReceiver(tls);
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-hub-kill-'));
  const pg = onPostgres ? await createPostgresDb(MIGRATIONS_DIR) : undefined;
  // PGlite's data directory is one process's at a time: seeded here, then closed for the Hub.
  const open = async (): Promise<Db> => pg ?? (await openDb({ dataDir }));
  const done = async (db: Db) => {
    if (!pg) await db.close();
  };

  const ids = Array.from({ length: EVENTS }, () => randomUUID());
  const seed = await open();
  try {
    if (!pg) await migrate(seed, MIGRATIONS_DIR);
    await seed.transaction(async (tx) => {
      await recordHubEvents(
        tx,
        TEAM,
        ids.map((id, i) => ({
          id,
          actor: 'alex@northwind.example',
          actor_type: 'admin' as const,
          activity: 'group.created',
          component: 'groups',
          target: `Group ${i}`,
        })),
      );
      const d = await siemRepository.save(
        tx,
        TEAM,
        'other',
        {
          url: `${receiver.url}/ingest`,
          token: WEBHOOK_TOKEN,
          signing_secret: WEBHOOK_SIGNING_SECRET,
          allow_unverified_certificate: false,
        },
        0,
      );
      await siemRepository.setActive(tx, d.id, true);
    });
  } finally {
    await done(seed);
  }

  const port = await freePort();
  const env = {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    ALLOWED_ORIGINS: 'http://console.test:8080',
    SIEM_CA_FILE: tls.certFile,
    SIEM_PUMP_INTERVAL_MS: '100',
    // A run of a killed Hub holds the destination this long; then the restarted Hub takes it over.
    SIEM_LEASE_SECONDS: '3',
    ...(pg ? { HUB_DATABASE_URL: pg.url } : {}),
  };
  // The second request to arrive: taken by the receiver, answered only after the Hub is gone.
  receiver.delay = (n) => (n === 2 ? 30_000 : 0);
  const killed = await runHub(
    env,
    () => until(() => receiver.requests >= 2, 'the second batch to reach the receiver', WAIT),
    'SIGKILL',
    WAIT,
  );
  expect(killed).toBe('SIGKILL');
  // Mid-batch: the delayed batch was taken by the receiver, never acknowledged; batches sent beside
  // it (several are out at once) may have been taken too, and the cursor stopped before the delayed one.
  await new Promise((r) => setTimeout(r, 200));
  const takenBeforeKill = [...receiver.received];
  expect(takenBeforeKill.length).toBeGreaterThanOrEqual(2 * SIEM_BATCH);
  const cursorAtKill = await cursorOf(open, done);
  expect(cursorAtKill).toBeLessThan(EVENTS);
  receiver.delay = undefined;

  await runHub(
    env,
    async () => {
      // Everything past the cursor comes again (what was taken before the kill may already hold every id).
      const expected = takenBeforeKill.length + (EVENTS - cursorAtKill);
      await until(() => receiver.received.length >= expected, 'the events past the cursor sent again', WAIT);
    },
    'SIGTERM',
    WAIT,
  );

  // At least once: what was past the cursor came again. Exactly once after de-duplication by id,
  // nothing foreign, and the only copies are of events taken before the kill beyond the cursor (seq = index + 1).
  const unique = new Set(receiver.received);
  expect(unique).toEqual(new Set(ids));
  expect(receiver.received.length).toBeGreaterThan(EVENTS);
  const beyondCursor = new Set<string>(ids.slice(cursorAtKill));
  expect(receiver.received.length - unique.size).toBe(takenBeforeKill.filter((id) => beyondCursor.has(id)).length);
  expect(receiver.rejected).toEqual([]);

  try {
    expect(await cursorOf(open, done)).toBe(EVENTS);
  } finally {
    await pg?.close();
  }
}, 180_000);
