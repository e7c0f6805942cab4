import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from './db.ts';
import { jobIdFor } from './job-id.ts';
import type { Jobs, JobsOptions } from './job-types.ts';
import { createJobs } from './jobs.ts';
import { createTestDb } from './testing/test-db.ts';

const dir = mkdtempSync(join(tmpdir(), 'latchkey-runtime-jobs-'));
writeFileSync(
  join(dir, '0001_effects.sql'),
  'create table orders (id text primary key);\ncreate table effects (key text primary key, at timestamptz not null default now());\n',
);

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

let db: Db;
beforeAll(async () => {
  db = await createTestDb(dir);
}, 60_000);
afterAll(() => db?.close());

// Each test runs its own Jobs (own queues) over the shared database, and stops it.
let running: Jobs[] = [];
afterEach(async () => {
  await Promise.all(running.map((j) => j.stop()));
  running = [];
});
function jobs(options: Partial<JobsOptions> = {}): Jobs {
  const j = createJobs(db, { log: quiet, maintenanceIntervalSeconds: 1, ...options });
  running.push(j);
  return j;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

const effects = async (prefix: string) =>
  (await db.query<{ key: string }>('select key from effects where key like $1 order by key', [`${prefix}%`])).map((r) => r.key);

/** The idempotent effect the examples use: a re-run inserts nothing new. */
const recordEffect = (key: string) => db.query('insert into effects (key) values ($1) on conflict do nothing', [key]);

const stateOf = async (j: Jobs, queue: string) =>
  Object.fromEntries((await j.counts()).filter((c) => c.queue === queue && c.count > 0).map((c) => [c.state, c.count]));

describe(`jobs (${process.env.TEST_DB === 'postgres' ? 'PostgreSQL' : 'PGlite'})`, () => {
  test('outbox: a job enqueued in a rolled-back transaction never exists; a committed one runs, woken at commit', async () => {
    // A long polling interval: only the wake-up at commit can make the job run within a second.
    const j = jobs({ pollingIntervalSeconds: 30 });
    const ran: string[] = [];
    const orders = j.define<{ order: string }>('outbox-orders', async ({ order }) => {
      ran.push(order);
    });
    await j.start();
    await new Promise((r) => setTimeout(r, 100));

    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into orders (id) values ($1)', ['o-1']);
        await orders.enqueue(tx, { order: 'o-1' });
        throw new Error('payment refused');
      }),
    ).rejects.toThrow('payment refused');

    const started = Date.now();
    await db.transaction(async (tx) => {
      await tx.query('insert into orders (id) values ($1)', ['o-2']);
      await orders.enqueue(tx, { order: 'o-2' });
      // Not before the commit: the worker cannot see the job yet.
      await new Promise((r) => setTimeout(r, 200));
      expect(ran).toEqual([]);
    });
    await until(
      async () => ran.length,
      (n) => n > 0,
      5000,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    await new Promise((r) => setTimeout(r, 200));
    expect(ran).toEqual(['o-2']);
    expect(await stateOf(j, 'outbox-orders')).toEqual({ completed: 1 });
  });

  test('idempotency: a second enqueue with the same key adds nothing, and a handler re-run has one effect', async () => {
    const j = jobs();
    let runs = 0;
    const welcome = j.define<{ member: string }>('idem-welcome', async ({ member }) => {
      runs++;
      // The effect is keyed: were this job run twice (its worker died after the insert), one row.
      await recordEffect(`idem:${member}`);
    });
    await j.start();
    expect(await welcome.enqueue(db, { member: 'ava' }, { key: 'welcome:ava' })).toBe(true);
    expect(await welcome.enqueue(db, { member: 'ava' }, { key: 'welcome:ava' })).toBe(false);
    expect(await welcome.enqueue(db, { member: 'bo' }, { key: 'welcome:bo' })).toBe(true);
    await until(
      () => effects('idem:'),
      (e) => e.length === 2,
    );
    await recordEffect('idem:ava');
    expect(await effects('idem:')).toEqual(['idem:ava', 'idem:bo']);
    expect(runs).toBe(2);
    expect(jobIdFor('idem-welcome', 'welcome:ava')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  test('enqueueMany: many jobs in one go, keyed as enqueue; a key queued already or twice in the list adds nothing', async () => {
    const j = jobs();
    const welcome = j.define<{ member: string }>('many-welcome', async ({ member }) => {
      await recordEffect(`many:${member}`);
    });
    await j.start();
    expect(await welcome.enqueue(db, { member: 'ava' }, { key: 'welcome:ava' })).toBe(true);
    const list = ['ava', 'bo', 'cy', 'bo'].map((member) => ({ data: { member }, key: `welcome:${member}` }));
    // Rolled back with its transaction, as enqueue.
    await db
      .transaction(async (tx) => {
        await welcome.enqueueMany(tx, list);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await db.transaction((tx) => welcome.enqueueMany(tx, list))).toBe(2);
    expect(await welcome.enqueueMany(db, list)).toBe(0);
    await until(
      () => effects('many:'),
      (e) => e.length === 3,
    );
    expect(await effects('many:')).toEqual(['many:ava', 'many:bo', 'many:cy']);
  });

  test('a failing handler is retried with growing delays, then the job is failed (dead) and counted so', async () => {
    const j = jobs();
    const attempts: { attempt: number; at: number }[] = [];
    const outcomes: string[] = [];
    j.onRun((queue, outcome) => queue === 'retry-doomed' && outcomes.push(outcome));
    const doomed = j.define<{ n: number }>(
      'retry-doomed',
      async (_data, run) => {
        attempts.push({ attempt: run.attempt, at: Date.now() });
        throw new Error('receiver down');
      },
      { retryLimit: 2, retryDelaySeconds: 1 },
    );
    await j.start();
    await doomed.enqueue(db, { n: 1 });
    const counts = await until(
      () => stateOf(j, 'retry-doomed'),
      (c) => c.failed === 1,
      15_000,
    );
    expect(counts).toEqual({ failed: 1 });
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    const [first, second, third] = attempts.map((a) => a.at) as [number, number, number];
    // Backoff: the first retry after 1–2 s, the second after 2–4 s.
    expect(second - first).toBeGreaterThanOrEqual(950);
    expect(third - second).toBeGreaterThanOrEqual(1950);
    expect(outcomes).toEqual(['retry', 'retry', 'failed']);
    const all = await j.counts();
    expect(all.filter((c) => c.queue === 'retry-doomed').map((c) => c.state)).toEqual([
      'created',
      'retry',
      'active',
      'completed',
      'cancelled',
      'failed',
    ]);
  });

  test('a handler that fails once succeeds on its retry', async () => {
    const j = jobs();
    const attempts: number[] = [];
    const flaky = j.define<{ key: string }>(
      'retry-flaky',
      async ({ key }, run) => {
        attempts.push(run.attempt);
        if (run.attempt === 1) throw new Error('try again');
        await recordEffect(key);
      },
      { retryLimit: 3, retryDelaySeconds: 1 },
    );
    await j.start();
    await flaky.enqueue(db, { key: 'flaky:1' });
    await until(
      () => stateOf(j, 'retry-flaky'),
      (c) => c.completed === 1,
      10_000,
    );
    expect(attempts).toEqual([1, 2]);
    expect(await effects('flaky:')).toEqual(['flaky:1']);
  });

  test('a burst drains without waiting a polling interval per job', async () => {
    const j = jobs({ pollingIntervalSeconds: 30 });
    const burst = j.define<{ i: number }>(
      'burst',
      async ({ i }) => void (await recordEffect(`burst:${String(i).padStart(2, '0')}`)),
    );
    await j.start();
    await db.transaction(async (tx) => {
      for (let i = 0; i < 20; i++) await burst.enqueue(tx, { i });
    });
    const done = await until(
      () => effects('burst:'),
      (e) => e.length === 20,
      5000,
    );
    expect(done).toHaveLength(20);
  });

  test('with concurrency 2, a job that hangs holds back only its own worker', async () => {
    const release: (() => void)[] = [];
    const held = new Promise<void>((r) => release.push(r));
    const j = jobs({ pollingIntervalSeconds: 30 });
    const calls = j.define<{ team: string }>(
      'hub-calls',
      async ({ team }) => {
        if (team === 'down') await held; // a Hub that does not answer until its timeout
        await recordEffect(`hub-calls:${team}`);
      },
      { concurrency: 2 },
    );
    await j.start();
    await db.transaction((tx) => calls.enqueue(tx, { team: 'down' }));
    await new Promise((r) => setTimeout(r, 300));
    await db.transaction(async (tx) => {
      for (const team of ['a', 'b', 'c']) await calls.enqueue(tx, { team });
    });
    const done = await until(
      () => effects('hub-calls:'),
      (e) => e.length === 3,
      5000,
    );
    expect(done).toEqual(['hub-calls:a', 'hub-calls:b', 'hub-calls:c']);
    for (const r of release) r();
    expect(
      await until(
        () => effects('hub-calls:down'),
        (e) => e.length === 1,
      ),
    ).toEqual(['hub-calls:down']);
  });

  test('enqueue refuses an unknown queue and a queue before start; define refuses after start', async () => {
    const j = jobs();
    const early = j.define('early', async () => undefined);
    await expect(early.enqueue(db, {})).rejects.toThrow(/before jobs.start/);
    await j.start();
    await expect(j.enqueue(db, 'nope', {})).rejects.toThrow(/no job queue named nope/);
    expect(() => j.define('late', async () => undefined)).toThrow(/after jobs.start/);
  });
});
