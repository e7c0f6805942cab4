import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';

/** Probes from orchestrators and load balancers are never limited. */
const EXEMPT = new Set(['/healthz', '/readyz']);

/**
 * Requests per client address per minute (@fastify/rate-limit). The Hub's token calls are
 * reachable from the internet; this caps how hard one client can hammer them. With REDIS_URL the
 * count is shared by every Hub instance, so running more of them does not multiply a client's
 * budget; without it each instance counts alone. Answers 429 with Retry-After, which the
 * runtime's error mapping turns into `too_many_requests_msg`.
 */
export async function registerRateLimit(app: FastifyInstance, perMinute: number, redisUrl?: string): Promise<void> {
  const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 5000 }) : null;
  if (redis) {
    // Connection trouble is logged; the client reconnects by itself.
    redis.on('error', (error) => app.log.warn({ err: error }, 'redis: shared rate limits unavailable'));
    app.addHook('onClose', async () => void (await redis.quit()));
  }
  await app.register(rateLimit, {
    max: perMinute,
    timeWindow: '1 minute',
    ...(redis ? { redis, nameSpace: 'latchkey:hub:rate:' } : {}),
    // A Redis outage must not take the Hub down: requests then go unlimited (and it is logged).
    skipOnError: true,
    allowList: (request) => EXEMPT.has(request.url.split('?')[0] ?? ''),
  });
}
