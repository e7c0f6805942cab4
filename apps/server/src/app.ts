import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import * as contracts from '@latchkey/contracts';
import {
  addSecurityHeaders,
  createHttpApp,
  createJobs,
  createRouter,
  type Db,
  openApiDocument,
  outboundPolicy,
  registerMetrics,
} from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { accountRoutes } from './features/account/account.routes.ts';
import { createAccountService } from './features/account/account.service.ts';
import { createPasswordResetService } from './features/account/password-reset.service.ts';
import { rekeyLegacyRecoveryCodes } from './features/account/recovery-codes.ts';
import { createSecurityKeys } from './features/account/security-keys.ts';
import { adminsRoutes } from './features/admins/admins.routes.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { createAuthService } from './features/auth/auth.service.ts';
import { createOnboardingInvites } from './features/auth/onboarding-invites.ts';
import { createSessionsService } from './features/auth/sessions.service.ts';
import { signInLinkRoutes } from './features/auth/sign-in-links.routes.ts';
import { billingRoutes } from './features/billing/billing.routes.ts';
import { brandingRoutes } from './features/branding/branding.routes.ts';
import { analyticsRoutes, dashboardRoutes } from './features/dashboard/dashboard.routes.ts';
import { devicesRoutes } from './features/devices/devices.routes.ts';
import { createEventForwarder } from './features/eventlogs/eventlogs.service.ts';
import { familyRoutes } from './features/family/family.routes.ts';
import { groupsRoutes } from './features/groups/groups.routes.ts';
import { createHubClient } from './features/integration/hub-client.ts';
import { createHubSessionEnder } from './features/integration/hub-session-ender.ts';
import { integrationRepository } from './features/integration/integration.repository.ts';
import { integrationRoutes, recoverySwitchRoutes } from './features/integration/integration.routes.ts';
import { loadServerKey } from './features/integration/server-key.ts';
import { membersRoutes } from './features/members/members.routes.ts';
import { googleWorkspaceConsent, microsoftEntraConsent, standInConsent } from './features/onboarding/consent.ts';
import { onboardingRoutes } from './features/onboarding/onboarding.routes.ts';
import { createOnboardingService } from './features/onboarding/onboarding.service.ts';
import { auditPolicyRoutes, policiesRoutes } from './features/policies/policies.routes.ts';
import { SCIM_PREFIX, scimRoutes } from './features/scim/scim.routes.ts';
import { createScimService } from './features/scim/scim.service.ts';
import { scimConnectorsRoutes } from './features/scim/scim-connectors.routes.ts';
import { createScimConnectorsService } from './features/scim/scim-connectors.service.ts';
import { ssoRoutes } from './features/sso/sso.routes.ts';
import { createSsoService } from './features/sso/sso.service.ts';
import { sessionContexts } from './features/team/session-contexts.ts';
import { teamRenameRoutes, teamRoutes } from './features/team/team.routes.ts';
import { createGuard } from './http/guard.ts';
import { createHubOrigins, type HubOrigins } from './http/hub-origins.ts';
import { createCodeHasher } from './platform/code-hasher.ts';
import { loadServerKeys } from './platform/keys.ts';
import { createLimiter, postgresCounters } from './platform/limits.ts';
import { createMailer, defineMailOutbox, type Mailer } from './platform/mail.ts';
import { useOutboundPolicy } from './platform/outbound.ts';
import { connectRedis, redisCounters } from './platform/redis-counters.ts';
import { createSealer } from './platform/sealed.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configured Hubs' origins for the CSP (tests refresh it after changing hubs). */
    hubOrigins: HubOrigins;
  }
}

export interface ServerDeps {
  config: Config;
  db: Db;
  /** How mail leaves (tests and benches pass their own); by default SMTP_URL, or the log. */
  mailer?: Mailer;
  /** Requests per minute per client address before 429. */
  rateLimitPerMinute?: number;
  /** Where the JSON log lines go (tests read them); standard output by default. */
  logStream?: import('node:stream').Writable;
}

export async function buildServer({ config, db, mailer, rateLimitPerMinute = 600, logStream }: ServerDeps) {
  const app = createHttpApp({
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
  const devConnect = config.NODE_ENV === 'production' ? [] : ['http://127.0.0.1:*', 'http://localhost:*'];
  // Brute-force counters and request rates shared by every instance: in Redis when REDIS_URL is
  // set, else the counters in PostgreSQL and the request rates per instance.
  const redis = config.REDIS_URL
    ? connectRedis(config.REDIS_URL, (error) => app.log.warn({ err: error }, 'redis: shared counters unavailable'))
    : null;
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));
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
      request.url.startsWith(`${SCIM_PREFIX}/`) ||
      ((request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/')),
  });
  // Replies carry tokens and member data: no browser or proxy may keep them. The console's own
  // files set their caching themselves (below).
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  // Keys come from configuration or <DATA_DIR>/keys, never the database (platform/keys.ts).
  const serverKeys = loadServerKeys(config);
  const codes = createCodeHasher(serverKeys.codes);
  await rekeyLegacyRecoveryCodes(db, codes);
  // Trust with the Hubs (docs/security.md): one Ed25519 key signs grants and every call to a Hub.
  const hubKey = loadServerKey(config);
  const hubClient = createHubClient(hubKey);
  const hubSessions = createHubSessionEnder(db, hubClient, jobs, app.log);
  const sessions = createSessionsService(
    db,
    serverKeys.token,
    {
      accessTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
      idleMinutes: config.SESSION_IDLE_MINUTES,
      maxHours: config.SESSION_MAX_HOURS,
      refreshGraceSeconds: config.REFRESH_GRACE_SECONDS,
    },
    hubSessions.sessionsEnded,
  );
  // The guard's lookups: http/ knows no feature.
  const sessionContext = sessionContexts(db);
  const guard = createGuard({ verifyAccess: (token) => sessions.verifyAccess(token), sessionContext });
  const limiter = createLimiter(redis ? redisCounters(redis) : postgresCounters(db));
  const sealer = createSealer(serverKeys.sealing);
  // Every mail goes through the queue, sealed: its jobs hold sign-in codes and links.
  const mail = defineMailOutbox(
    jobs,
    mailer ?? createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log: app.log }),
    { sealer },
  );
  // Links in emails and security keys are bound to configuration, never to a request's Origin or
  // Host (an attacker would send mail with links to their own site). Without PUBLIC_URL,
  // development and tests use the loopback address this server listens on; production then
  // sends no link and registers no key.
  const consoleUrl = (): string | null =>
    config.PUBLIC_URL?.replace(/\/$/, '') ?? (config.NODE_ENV !== 'production' ? listeningUrl(app) : null);
  // WebAuthn refuses an IP address as relying party: in development, a loopback address becomes
  // localhost (the same machine, still from configuration, never from a header).
  const relyingParty = () => {
    const configured = consoleUrl();
    if (!configured) return null;
    const url = new URL(configured);
    if (!config.PUBLIC_URL && ['127.0.0.1', '[::1]', '0.0.0.0', '[::]'].includes(url.hostname)) url.hostname = 'localhost';
    return { origin: url.origin, rpID: url.hostname };
  };
  const keys = createSecurityKeys(db);
  const auth = createAuthService({
    keys,
    relyingParty,
    db,
    sessions,
    limiter,
    sealer,
    codes,
    mail,
    emailCodeTtlMinutes: config.EMAIL_CODE_TTL_MINUTES,
    hubKey,
  });

  // Every call is declared once in the contracts; the router refuses to start while one of the
  // server's declared calls has no handler here, or a handler is for a call not declared as the server's.
  const router = createRouter(app, 'server', contracts.endpointsOf('server'));
  authRoutes(router, guard, auth, sessions);
  const reset = createPasswordResetService({
    db,
    limiter,
    mail,
    consoleUrl,
    hubSessions,
  });
  accountRoutes(router, guard, createAccountService({ db, limiter, sealer, codes, keys, relyingParty, hubSessions }), reset);
  teamRoutes(router, guard, db, hubClient);
  // The order of registration is the order of the OpenAPI document's paths (docs/openapi/server.json).
  dashboardRoutes(router, guard, db);
  teamRenameRoutes(router, guard, db, hubClient);
  analyticsRoutes(router, guard, db);
  membersRoutes(router, guard, db, mail);
  adminsRoutes(router, guard, db, { hubSessions, mail, consoleUrl, invites: createOnboardingInvites({ db, consoleUrl, mail }) });

  signInLinkRoutes(router, guard, auth);

  groupsRoutes(router, guard, db);
  devicesRoutes(router, guard, db);
  brandingRoutes(app, router, guard, db);

  policiesRoutes(router, guard, db);

  integrationRoutes(router, guard, db, {
    allowLoopbackHttp: config.NODE_ENV !== 'production',
    hubClient,
    // Where a Hub calls back (session checks): PUBLIC_URL, else the address this server listens on.
    selfUrl: () => config.PUBLIC_URL ?? listeningUrl(app),
  });

  // The server's part of the Hub's audit and recovery services.
  auditPolicyRoutes(router, guard, db);
  recoverySwitchRoutes(router, guard, db);

  // SCIM provisioning: connectors in the console, the SCIM server under /scim/v2.
  const scimBase = () => `${(config.PUBLIC_URL ?? listeningUrl(app)).replace(/\/$/, '')}${SCIM_PREFIX}`;
  const scimConnectors = createScimConnectorsService(db, codes, scimBase, (error) =>
    app.log.warn({ err: error }, 'scim request log not written'),
  );
  scimConnectorsRoutes(router, guard, scimConnectors);
  await scimRoutes(app, scimConnectors, createScimService(db, mail, scimBase), scimBase, {
    perSecond: config.SCIM_RATE_LIMIT_PER_SECOND,
    redis,
  });
  const billing = billingRoutes(app, router, guard, db, jobs, {
    fastSpringSecret: config.FASTSPRING_WEBHOOK_SECRET,
    invoicePaidBy: config.INVOICE_PAID_BY,
  });
  // A cloud with a configured consent app uses its real admin-consent address; outside production
  // the others get this server's stand-in consent page.
  const standIn = config.NODE_ENV !== 'production';
  const fallback = standIn ? standInConsent(consoleUrl) : undefined;
  onboardingRoutes(
    app,
    router,
    guard,
    createOnboardingService(db, {
      providers: {
        google_drive: config.GOOGLE_WORKSPACE_CLIENT_ID
          ? googleWorkspaceConsent(config.GOOGLE_WORKSPACE_CLIENT_ID, config.GOOGLE_WORKSPACE_SCOPES)
          : fallback,
        one_drive: config.MICROSOFT_ENTRA_CLIENT_ID
          ? microsoftEntraConsent(config.MICROSOFT_ENTRA_CLIENT_ID, config.MICROSOFT_ENTRA_SCOPES)
          : fallback,
      },
      callbackUrl: consoleUrl,
      downloadsUrl: config.DOWNLOADS_URL,
      downloadLocations: config.DOWNLOAD_LOCATIONS,
    }),
    { standIn },
  );
  familyRoutes(router, guard, db);
  ssoRoutes(
    router,
    guard,
    createSsoService({ db, sealer, consoleUrl, allowLoopbackHttp: config.NODE_ENV !== 'production', limiter, hubSessions }),
  );

  // The event log's outbox (recordEvent) goes to the team's Hubs, signed, through the queue.
  const eventForwarder = createEventForwarder(
    db,
    jobs,
    {
      hubsOf: (teamId) => integrationRepository.setUpHubsOfTeams(db, [teamId]),
      send: (hub, events) => hubClient.sendEvents(hub, hub.team_slug, events),
    },
    { log: app.log, intervalMs: config.EVENT_FORWARD_INTERVAL_MS },
  );

  await jobs.start();
  await billing.startSchedule();
  eventForwarder.start();
  app.addHook('onClose', async () => {
    await eventForwarder.stop();
    await jobs.stop();
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => {
    await db.query('select 1');
    return { status: 'ready' };
  });
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

/** http://HOST:PORT this server listens on: the development base of links, and what a Hub on this machine calls. */
function listeningUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') return 'http://127.0.0.1';
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
}
