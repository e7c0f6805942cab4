import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import * as contracts from '@latchkey/contracts';
import {
  createHttpApp,
  createJobs,
  createRouter,
  type Db,
  openApiDocument,
  outboundPolicy,
  registerMetrics,
} from '@latchkey/runtime';
import { registerFeatureRoutes } from './app-routes.ts';
import { createSharedServices } from './app-services.ts';
import type { Config } from './config.ts';
import { registerVerboseReadiness } from './doctor.ts';
import { createEventForwarder } from './features/eventlogs/eventlogs.service.ts';
import { setUpHubsOfTeams } from './features/integration/team-hubs.ts';
import { SCIM_PREFIX } from './features/scim/scim.routes.ts';
import { addProtections } from './http/protections.ts';
import { integrationLookups } from './integration-lookups.ts';
import type { Mailer } from './platform/mail.ts';
import { useOutboundPolicy } from './platform/outbound.ts';
import { connectRedis } from './platform/redis-counters.ts';

interface ServerDeps {
  config: Config;
  db: Db;
  /** How mail leaves (tests and benches pass their own); by default SMTP_URL, or the log. */
  mailer?: Mailer;
  /** Requests per minute per client address before 429. */
  rateLimitPerMinute?: number;
  /** Where the JSON log lines go (tests read them); standard output by default. */
  logStream?: import('node:stream').Writable;
}

/**
 * The composition root: the HTTP app and its protections (http/protections.ts), the shared services
 * (app-services.ts), every feature's calls (app-routes.ts), the background work, and the console's files.
 */
export async function buildServer({ config, db, mailer, rateLimitPerMinute = 600, logStream }: ServerDeps) {
  const app = createHttpApp({
    program: 'latchkey-server',
    logStream,
    logLevel: config.LOG_LEVEL,
    checkReplies: config.NODE_ENV !== 'production',
    trustProxy: config.TRUST_PROXY,
  });
  // Durable background work (mail now; Hub notices later): started once every queue is defined, below.
  const jobs = createJobs(db, { log: app.log });
  registerMetrics(app, { db, jobs, token: config.METRICS_TOKEN, openWithoutToken: config.NODE_ENV !== 'production' });
  // Addresses users give (the Hub's): public ones only in production, unless OUTBOUND_ALLOW names them.
  useOutboundPolicy(outboundPolicy({ production: config.NODE_ENV === 'production', allow: config.OUTBOUND_ALLOW }));
  // Brute-force counters and request rates shared by every instance: in Redis when REDIS_URL is
  // set, else the counters in PostgreSQL and the request rates per instance.
  const redis = config.REDIS_URL
    ? connectRedis(config.REDIS_URL, (error) => app.log.warn({ err: error }, 'redis: shared counters unavailable'))
    : null;
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));
  await addProtections(app, {
    db,
    production: config.NODE_ENV === 'production',
    rateLimitPerMinute,
    redis,
    ownBudgetPrefix: SCIM_PREFIX,
  });

  const services = await createSharedServices({ app, config, db, jobs, redis, mailer });
  // Every call is declared once in the contracts; the router refuses to start while one of the
  // server's declared calls has no handler here, or a handler is for a call not declared as the server's.
  const router = createRouter(app, 'server', contracts.endpointsOf('server'));
  const { billing } = await registerFeatureRoutes({ app, router, config, db, jobs, redis, services });

  // The event log: recordEvent's outbox goes to the team's Hubs, signed, through the queue.
  const eventForwarder = createEventForwarder(
    db,
    jobs,
    {
      hubsOf: (teamId) => setUpHubsOfTeams(db, [teamId], integrationLookups),
      send: (hub, events) => services.hubClient.sendEvents(hub, hub.team_slug, events),
    },
    { log: app.log, intervalMs: config.EVENT_FORWARD_INTERVAL_MS },
  );

  await jobs.start();
  await billing.startSchedule();
  eventForwarder.start();
  app.addHook('onClose', async () => {
    await eventForwarder.stop();
    await jobs.stop(config.SHUTDOWN_GRACE_SECONDS * 1000);
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  registerVerboseReadiness(app, config, db);
  // Generated from the calls actually served (all the server's declared calls, or start-up failed).
  const openapi = openApiDocument('Latchkey server', contracts.CONSOLE_VERSION, router.complete());
  app.get('/openapi.json', async () => openapi);

  const webRoot = resolve(config.WEB_DIST);
  if (existsSync(webRoot)) {
    await app.register(fastifyStatic, {
      root: webRoot,
      // The build writes .br and .gz beside each file (scripts/precompress-web.mjs): the one the
      // browser accepts is sent with Content-Encoding (and Vary: Accept-Encoding), else the file.
      preCompressed: true,
      setHeaders(reply, path) {
        // Hashed assets never change; index.html must always be fresh.
        reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  return app;
}
