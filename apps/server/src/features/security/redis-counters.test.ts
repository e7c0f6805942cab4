import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';
import { createLimiter, LimitReached } from './limits.ts';
import { connectRedis, redisCounters } from './redis-counters.ts';

/** Redis runs beside PostgreSQL on the development machines and in CI (STACK.md). */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// Each run counts under its own prefix, so parallel runs and earlier runs never meet.
const prefix = `latchkey-test:${randomUUID()}:`;
const redis = connectRedis(REDIS_URL);
const other = connectRedis(REDIS_URL);

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { REDIS_URL } });
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await h?.close();
  await redis.quit();
  await other.quit();
});

test('counts per key, shares the count between two clients (two instances), and gives attempts back', async () => {
  const a = redisCounters(redis, prefix);
  const b = redisCounters(other, prefix);
  const rule = { max: 3, windowMinutes: 15 };
  expect((await a.hit('k', rule)).count).toBe(1);
  expect((await b.hit('k', rule)).count).toBe(2);
  const third = await a.hit('k', rule);
  expect(third.count).toBe(3);
  expect(third.retryAfterSeconds).toBeGreaterThan(14 * 60);
  expect(third.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
  await b.undo('k');
  expect((await a.hit('k', rule)).count).toBe(3);
  expect((await a.hit('other', rule)).count).toBe(1);
  // Never below zero, and an undo of a key never hit creates nothing.
  await a.undo('fresh');
  await a.undo('fresh');
  expect(await redis.exists(`${prefix}fresh`)).toBe(0);
});

test('a window ends on its own: the next attempt starts a new count', async () => {
  const store = redisCounters(redis, prefix);
  const rule = { max: 1, windowMinutes: 0.005 }; // 300 ms
  await store.hit('short', rule);
  expect((await store.hit('short', rule)).count).toBe(2);
  await new Promise((resolve) => setTimeout(resolve, 400));
  expect((await store.hit('short', rule)).count).toBe(1);
});

test('parallel attempts cannot slip under the limit: exactly max pass', async () => {
  const limiter = createLimiter(redisCounters(redis, prefix));
  const results = await Promise.allSettled(Array.from({ length: 12 }, () => limiter.begin('password', 'acct-1', '10.0.0.1')));
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
  expect(results.filter((r) => r.status === 'rejected').every((r) => r.reason instanceof LimitReached)).toBe(true);
});

test('over HTTP with REDIS_URL: five wrong passwords lock the account (429), counted in Redis, not in PostgreSQL', async () => {
  const email = DEMO_ADMINS.integrator;
  const wrong = { email, password: 'not-the-password', team_slug: 'northwind' };
  for (let i = 0; i < 5; i++) {
    const res = await h.post('/api/v1/console/auth/verify/password/', wrong);
    expect(res.body.code).toBe('password_invalid');
  }
  const locked = await h.post('/api/v1/console/auth/verify/password/', { ...wrong, password: 'Latchkey-demo-2026' });
  expect(locked.status).toBe(429);
  expect(locked.body.code).toBe('too_many_requests_msg');
  const [user] = await h.db.query<{ id: string }>('select id from users where email = $1', [email]);
  expect(Number(await redis.get(`latchkey:limit:password:account:${user?.id}`))).toBe(6);
  expect(await h.db.query('select key from auth_limits')).toEqual([]);
  await redis.del(`latchkey:limit:password:account:${user?.id}`, 'latchkey:limit:password:ip:127.0.0.1');
});

test('fails closed: without a reachable Redis an attempt is refused, never let through uncounted', async () => {
  const errors: Error[] = [];
  const down = connectRedis('redis://127.0.0.1:1', (error) => errors.push(error));
  const limiter = createLimiter(redisCounters(down, prefix));
  await expect(limiter.begin('password', 'acct-down', '10.0.0.2')).rejects.toThrow();
  expect(errors.length).toBeGreaterThan(0);
  down.disconnect();
});
