import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PreviousBoss from 'pg-boss-10';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Db } from './db.ts';
import { jobIdFor } from './job-id.ts';
import { createJobs } from './jobs.ts';
import { LEGACY_JOBS_SCHEMA } from './jobs-legacy.ts';
import { createTestDb } from './testing/test-db.ts';

const dir = mkdtempSync(join(tmpdir(), 'latchkey-runtime-jobs-legacy-'));
writeFileSync(join(dir, '0001_none.sql'), 'create table nothing (id int);\n');
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

let db: Db;
beforeAll(async () => {
  db = await createTestDb(dir);
}, 60_000);
afterAll(() => db?.close());

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The previous release's queue: pg-boss 10 in schema `pgboss`, on the same database. */
function previousRelease() {
  return new PreviousBoss({
    db: {
      executeSql: async (sql: string, params?: unknown[]) => ({
        rows: params?.length ? await db.query(sql, params) : await db.exec(sql),
      }),
    },
    schema: LEGACY_JOBS_SCHEMA,
    schedule: false,
    supervise: false,
  });
}

const waiting = () =>
  db.query<{ n: number }>(
    `select count(*)::int as n from ${LEGACY_JOBS_SCHEMA}.job where state in ('created', 'retry', 'active')`,
  );

test(`an upgrade from pg-boss 10: waiting jobs move to the new queue and run, with their ids and due times; jobs the old instances add during a rolling update follow (${process.env.TEST_DB === 'postgres' ? 'PostgreSQL' : 'PGlite'})`, async () => {
  const old = previousRelease();
  await old.start();
  await old.createQueue('mail');
  // A run whose worker died: active past its expiry.
  await old.send('mail', { to: 'dead-worker' }, { expireInSeconds: 1 });
  expect((await old.fetch<{ to: string }>('mail')).map((j) => j.data.to)).toEqual(['dead-worker']);
  const keyed = jobIdFor('mail', 'invite:ada');
  await old.send('mail', { to: 'ada' }, { id: keyed });
  const later = new Date(Date.now() + 3_600_000);
  await old.send('mail', { to: 'later' }, { startAfter: later });
  await new Promise((r) => setTimeout(r, 1_200));

  const ran: string[] = [];
  const jobs = createJobs(db, { log: quiet, maintenanceIntervalSeconds: 1 });
  const mail = jobs.define<{ to: string }>('mail', async ({ to }) => void ran.push(to));
  await jobs.start();
  try {
    expect(
      (
        await until(
          async () => [...ran].sort(),
          (r) => r.length >= 2,
        )
      ).sort(),
    ).toEqual(['ada', 'dead-worker']);
    expect(await waiting()).toEqual([{ n: 0 }]);
    // Same id: the idempotency key still finds the job, and nothing is added.
    expect(await mail.enqueue(db, { to: 'ada' }, { key: 'invite:ada' })).toBe(false);
    const [delayed] = await db.query<{ state: string; start_after: Date }>(
      "select state::text as state, start_after from job_queue.job where data->>'to' = 'later'",
    );
    expect(delayed?.state).toBe('created');
    expect(Math.abs(new Date(delayed?.start_after ?? 0).getTime() - later.getTime())).toBeLessThan(1_000);

    // An instance of the previous release, still running during the rolling update, adds a job.
    await old.send('mail', { to: 'grace' });
    expect(await until(async () => ran.includes('grace'), Boolean)).toBe(true);
    expect(await waiting()).toEqual([{ n: 0 }]);
    expect(ran.filter((to) => to === 'ada')).toHaveLength(1);
  } finally {
    await jobs.stop();
    await old.stop({ graceful: false, wait: true, close: false });
  }
}, 60_000);
