import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildServer } from '../app.ts';
import { DEMO_ADMINS } from '../features/demo/index.ts';
import { createLimiter, LimitReached } from '../platform/limits.ts';
import { connectRedis, redisCounters } from '../platform/redis-counters.ts';
import { type Harness, startHarness } from './harness.ts';

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

test('parallel attempts from one client cannot slip under the limit: exactly max pass', async () => {
  const limiter = createLimiter(redisCounters(redis, prefix));
  const results = await Promise.allSettled(Array.from({ length: 12 }, () => limiter.begin('password', 'acct-1', '10.0.0.1')));
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
  expect(results.filter((r) => r.status === 'rejected').every((r) => r.reason instanceof LimitReached)).toBe(true);
});

test('peek reads without counting; a hold is a "not before" that only grows and ends by itself', async () => {
  const store = redisCounters(redis, prefix);
  expect((await store.peek('p')).count).toBe(0);
  await store.hit('p', { max: 5, windowMinutes: 15 });
  expect((await store.peek('p')).count).toBe(1);
  expect((await store.peek('p')).count).toBe(1);
  expect(await store.heldFor('d')).toBe(0);
  await store.hold('d', 1);
  await store.hold('d', 0.3); // never shortens
  expect(await store.heldFor('d')).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 1100));
  expect(await store.heldFor('d')).toBe(0);
});

test('over HTTP with REDIS_URL: five wrong passwords from an attacker stop the attacker only, counted in Redis, not in PostgreSQL', async () => {
  const email = DEMO_ADMINS.integrator;
  const attempt = (ip: string, password: string) =>
    h.app.inject({
      method: 'POST',
      url: '/api/v1/console/auth/verify/password/',
      remoteAddress: ip,
      payload: { email, password, team_slug: 'northwind' },
    });
  for (let i = 0; i < 5; i++) expect((await attempt('10.6.0.1', 'not-the-password')).json().code).toBe('password_invalid');
  const locked = await attempt('10.6.0.1', 'Latchkey-demo-2026');
  expect(locked.statusCode).toBe(429);
  expect(locked.json().code).toBe('too_many_requests_msg');
  expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  // The admin, from their own client, is not locked out.
  expect((await h.signIn(email)).token.access).toBeTruthy();
  const [user] = await h.db.query<{ id: string }>('select id from users where email = $1', [email]);
  expect(Number(await redis.get(`latchkey:limit:password:pair:${user?.id}:10.6.0.1`))).toBe(6);
  expect(Number(await redis.get(`latchkey:limit:password:account:${user?.id}`))).toBe(6);
  expect(await h.db.query('select key from auth_limits')).toEqual([]);
  await redis.del(
    `latchkey:limit:password:account:${user?.id}`,
    `latchkey:limit:password:pair:${user?.id}:10.6.0.1`,
    'latchkey:limit:password:ip:10.6.0.1',
  );
});

test('over HTTP with REDIS_URL: the progressive delay holds a client that failed, not a fresh one', async () => {
  const email = DEMO_ADMINS.admin;
  const attempt = (ip: string, password: string) =>
    h.app.inject({
      method: 'POST',
      url: '/api/v1/console/auth/verify/password/',
      remoteAddress: ip,
      payload: { email, password, team_slug: 'northwind' },
    });
  for (let i = 0; i < 6; i++) expect((await attempt(`10.6.2.${i}`, 'wrong')).json().code).toBe('password_invalid');
  const [user] = await h.db.query<{ id: string }>('select id from users where email = $1', [email]);
  expect(await redis.pttl(`latchkey:limit:password:delay:${user?.id}`)).toBeGreaterThan(0);
  const held = await attempt('10.6.2.5', 'Latchkey-demo-2026');
  expect(held.statusCode).toBe(429);
  expect(held.headers['retry-after']).toBe('1');
  expect((await attempt('10.6.2.99', 'Latchkey-demo-2026')).json().code).toBe('otp_sent');
  const keys = await redis.keys(`latchkey:limit:*${user?.id}*`);
  await redis.del(...keys, ...(await redis.keys('latchkey:limit:password:ip:10.6.2.*')));
});

test('fails closed: without a reachable Redis an attempt is refused, never let through uncounted', async () => {
  const errors: Error[] = [];
  const down = connectRedis('redis://127.0.0.1:1', (error) => errors.push(error));
  const limiter = createLimiter(redisCounters(down, prefix));
  await expect(limiter.begin('password', 'acct-down', '10.0.0.2')).rejects.toThrow();
  expect(errors.length).toBeGreaterThan(0);
  down.disconnect();
});

test('with REDIS_URL the request rate limit is shared by every server instance', async () => {
  const a = await buildServer({ config: h.config, db: h.db, rateLimitPerMinute: 3 });
  const b = await buildServer({ config: h.config, db: h.db, rateLimitPerMinute: 3 });
  // A client address of its own, so no other run counts against it.
  const remoteAddress = `10.${randomInt(255)}.${randomInt(255)}.${randomInt(1, 255)}`;
  try {
    const statuses: number[] = [];
    for (const app of [a, b, a, b]) {
      statuses.push((await app.inject({ method: 'POST', url: '/api/v1/team/info/', remoteAddress, payload: {} })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  } finally {
    await a.close();
    await b.close();
  }
});
