import type { FastifyInstance } from 'fastify';

/** Probes from orchestrators and load balancers are never limited. */
const EXEMPT = new Set(['/healthz', '/readyz']);

/**
 * Requests per client address per minute, counted in this process (a fixed window). The Hub's
 * token calls are reachable from the internet; this caps how hard one client can hammer them. Answers 429, which
 * the runtime's error mapping turns into `too_many_requests_msg`.
 */
export function registerRateLimit(app: FastifyInstance, perMinute: number): void {
  let windowStart = Date.now();
  let counts = new Map<string, number>();
  app.addHook('onRequest', async (request, reply) => {
    if (EXEMPT.has(request.url.split('?')[0] ?? '')) return;
    const t = Date.now();
    if (t - windowStart >= 60_000) {
      // A new window forgets every address, so memory never outgrows one minute's clients.
      windowStart = t;
      counts = new Map();
    }
    const count = (counts.get(request.ip) ?? 0) + 1;
    counts.set(request.ip, count);
    if (count > perMinute) {
      reply.header('retry-after', String(Math.ceil((windowStart + 60_000 - t) / 1000)));
      throw Object.assign(new Error('Too many requests.'), { statusCode: 429 });
    }
  });
}
