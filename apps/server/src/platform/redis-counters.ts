import { Redis } from 'ioredis';
import type { CounterStore } from './limits.ts';

/**
 * Counts and starts the window in one step, so parallel attempts on many instances cannot both
 * see a fresh key: INCR, then PEXPIRE only on the first hit of a window.
 */
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/** Gives one attempt back without reviving an expired window or going below zero. */
const UNDO = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/** Sets a "not before" (a key that expires then), never shortening one already set. */
const HOLD = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 0`;

/**
 * The brute-force counters in Redis (REDIS_URL): the same contract as `postgresCounters`, for
 * deployments that would rather not write a row per failed attempt to the database. Redis
 * expires each window itself, so nothing needs purging.
 */
export function redisCounters(redis: Redis, prefix = 'latchkey:limit:'): CounterStore {
  return {
    async hit(key, rule) {
      const windowMs = Math.max(1, Math.round(rule.windowMinutes * 60_000));
      const [count, ttl] = (await redis.eval(HIT, 1, prefix + key, windowMs)) as [number, number];
      return { count, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
    },
    async peek(key) {
      const [count, ttl] =
        (await redis
          .multi()
          .get(prefix + key)
          .pttl(prefix + key)
          .exec()) ?? [];
      return { count: Number(count?.[1] ?? 0), retryAfterSeconds: Math.max(1, Math.ceil(Number(ttl?.[1] ?? 0) / 1000)) };
    },
    async undo(key) {
      await redis.eval(UNDO, 1, prefix + key);
    },
    async hold(key, seconds) {
      await redis.eval(HOLD, 1, prefix + key, Math.max(1, Math.round(seconds * 1000)));
    },
    async heldFor(key) {
      const ttl = await redis.pttl(prefix + key);
      return ttl > 0 ? Math.ceil(ttl / 1000) : 0;
    },
  };
}

/**
 * A client that fails fast: a limiter that cannot reach Redis refuses the attempt (the error
 * becomes a 500) instead of letting it through uncounted, and never queues commands forever.
 */
export function connectRedis(url: string, onError: (error: Error) => void = () => {}): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 5000 });
  // Connection trouble is logged (the client reconnects by itself); the attempts meanwhile fail.
  redis.on('error', onError);
  return redis;
}
