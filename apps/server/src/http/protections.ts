import rateLimit from '@fastify/rate-limit';
import * as contracts from '@latchkey/contracts';
import { addSecurityHeaders, type Db } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { createHubOrigins, type HubOrigins } from './hub-origins.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configured Hubs' origins for the CSP (tests refresh it after changing hubs). */
    hubOrigins: HubOrigins;
  }
}

interface ProtectionOptions {
  db: Db;
  production: boolean;
  /** Requests per minute per client address before 429. */
  rateLimitPerMinute: number;
  /** Shared request rates across instances; null: counted per instance. */
  redis: Redis | null;
  /** A path prefix with its own budget (SCIM's, per connector), left out of the per-address rate. */
  ownBudgetPrefix: string;
}

/**
 * What every reply of the server carries and every request passes: the security headers with a CSP
 * that names the Hubs set up now, the per-address request rate, and no-store on replies.
 */
export async function addProtections(
  app: FastifyInstance,
  { db, production, rateLimitPerMinute, redis, ownBudgetPrefix }: ProtectionOptions,
) {
  const devConnect = production ? [] : ['http://127.0.0.1:*', 'http://localhost:*'];
  const hubOrigins = createHubOrigins(db);
  app.decorate('hubOrigins', hubOrigins);
  // Before the headers below: the CSP names the Hubs as they are now (a read at most every 15 s).
  app.addHook('onRequest', async () => hubOrigins.fresh());
  // A Hub set up or removed here shows in the CSP at once on this instance (others within the TTL).
  const hubChanges = new Set([contracts.credentialsSetupEndpoint.path, contracts.credentialsDeleteEndpoint.path]);
  // (before the reply leaves, so the caller's next page load already sees it).
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 && hubChanges.has(request.routeOptions.url ?? '')) {
      await hubOrigins.refresh().catch((error: unknown) => request.log.warn({ err: error }, 'hub origins not refreshed'));
    }
    return payload;
  });
  addSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine sets style attributes at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // The console calls the team's Hub directly: only the Hubs set up on this server.
        connectSrc: ["'self'", ...devConnect, () => hubOrigins.current.join(' ')],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // The same refusal as frame-ancestors 'none', for browsers that only read X-Frame-Options.
    frameguard: { action: 'deny' },
    // The onboarding consent popup goes through the cloud's pages and posts back to the console:
    // the console keeps the popups it opens (no other page may still reach it).
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // HSTS only means something on https; helmet sends it, browsers ignore it on http.
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
  });
  await app.register(rateLimit, {
    max: rateLimitPerMinute,
    timeWindow: '1 minute',
    ...(redis ? { redis, nameSpace: 'latchkey:server:rate:' } : {}),
    // A Redis outage must not stop every call: rates then go uncounted (logged); the brute-force
    // counters still fail closed.
    skipOnError: true,
    // Every call counts, whatever its path; only reads of the console's files and the health
    // probes (GETs outside /api/) do not.
    // SCIM has a budget per connector instead (scim.routes.ts): an IdP's requests come from a few addresses.
    allowList: (request) =>
      request.url.startsWith(`${ownBudgetPrefix}/`) ||
      ((request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/')),
  });
  // Replies carry tokens and member data: no browser or proxy may keep them. The console's own
  // files set their caching themselves (app.ts).
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
