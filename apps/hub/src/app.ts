import { readFileSync } from 'node:fs';
import type { AuxService } from '@latchkey/contracts';
import * as contracts from '@latchkey/contracts';
import {
  createHttpApp,
  createJobs,
  createMailer,
  createRouter,
  createSealer,
  type Db,
  defineMailOutbox,
  openApiDocument,
  outboundPolicy,
  registerMetrics,
} from '@latchkey/runtime';
import type { Config } from './config.ts';
import {
  alertsRoutes,
  createAlertEngine,
  createAlertsService,
  createRecipientCheck,
  defineAlertDelivery,
} from './features/alerts/index.ts';
import { auditRoutes } from './features/audit/audit.routes.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { createHubSessionsService } from './features/auth/hub-sessions.service.ts';
import { createRoleCheck, createServerCheck } from './features/auth/server-check.ts';
import { servicesFor } from './features/connector/capabilities.ts';
import { connectorRoutes } from './features/connector/connector.routes.ts';
import { createDeviceGuard } from './features/devices/device-guard.ts';
import { devicesRoutes } from './features/devices/devices.routes.ts';
import { createDirectorySync, directoryRoutes } from './features/directory/index.ts';
import {
  createEventsService,
  createSavedSearches,
  createSearchIndexer,
  eventlogsRoutes,
  savedSearchesRoutes,
} from './features/eventlogs/index.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { integrationRoutes } from './features/integration/integration.routes.ts';
import { verifyServerCall } from './features/integration/server-call.ts';
import { onlyWithService, requireService } from './features/integration/service-gate.ts';
import { recoveryRoutes } from './features/recovery/recovery.routes.ts';
import { createRecoveryNotifier } from './features/recovery/recovery-notifier.ts';
import { registrationsRepository } from './features/registrations/index.ts';
import { sharingRoutes } from './features/sharing/sharing.routes.ts';
import { createSiemService, siemDestinationsGauge, siemRoutes } from './features/siem/index.ts';
import { createHubGuard } from './http/guard.ts';
import { registerSecurity } from './http/security.ts';
import { createApprovalGate } from './platform/approval-gate.ts';
import { loadHubKeys, loadHubSealingKey, loadHubTokenSecret } from './platform/keys.ts';
import { useHubOutboundPolicy } from './platform/outbound.ts';
import { registerRateLimit } from './platform/rate-limit.ts';

interface HubDeps {
  config: Config;
  db: Db;
  /** Requests per minute per client address before 429. */
  rateLimitPerMinute?: number;
}

export async function buildHub({ config, db, rateLimitPerMinute = 600 }: HubDeps) {
  const app = createHttpApp({
    program: 'latchkey-hub',
    logLevel: config.LOG_LEVEL,
    checkReplies: config.NODE_ENV !== 'production',
    trustProxy: config.TRUST_PROXY,
  });
  // Durable background work (recovery mail now; SIEM delivery and retention later): started once every queue is defined, below.
  const jobs = createJobs(db, { log: app.log });
  registerMetrics(app, {
    db,
    jobs,
    token: config.METRICS_TOKEN,
    openWithoutToken: config.NODE_ENV !== 'production',
    gauges: [siemDestinationsGauge(db)],
  });
  await registerSecurity(app, config.ALLOWED_ORIGINS);
  await registerRateLimit(app, rateLimitPerMinute, config.REDIS_URL);
  // Replies carry tokens and team data: no browser or proxy may keep them.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  const secret = loadHubTokenSecret(config);
  const keys = loadHubKeys(config);
  const sessions = createHubSessionsService(
    db,
    secret,
    {
      accessTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
      refreshTtlMinutes: config.REFRESH_TTL_MINUTES,
      maxHours: config.SESSION_MAX_HOURS,
      refreshGraceSeconds: config.REFRESH_GRACE_SECONDS,
      hubVersion: config.HUB_VERSION,
    },
    createServerCheck(keys),
  );
  // The guard knows sessions only through this lookup: http/ imports no feature.
  const guard = createHubGuard((accessToken) => sessions.authenticate(accessToken));

  // Every call is declared once in the contracts; the router refuses to start while one of the
  // Hub's declared calls has no handler here, or a handler is for a call not declared as the Hub's.
  const router = createRouter(app, 'hub', contracts.endpointsOf('hub'));
  healthRoutes(app, router, guard, db, config.HUB_VERSION);
  connectorRoutes(router, guard, db, config.HUB_VERSION);
  authRoutes(router, guard, db, sessions);
  integrationRoutes(router, guard, db, config.HUB_VERSION, keys, sessions);

  // Member devices, and the services a team switches on: security audit, sharing, recovery.
  const deviceGuard = createDeviceGuard(db);
  devicesRoutes(router, deviceGuard, db);
  // A Hub answers only for the services its version runs (what its connector reports).
  const offered = servicesFor(config.HUB_VERSION);
  // And only while the team has the service switched on here (the integration screen's switches).
  const gate = (service: AuxService) => [onlyWithService(guard, db, service), onlyWithService(deviceGuard, db, service)] as const;
  // A service this version does not run keeps its handlers accounted for, unserved (404, not in the OpenAPI document).
  const serving = (service: AuxService) => (offered.includes(service) ? router : router.withheld());
  auditRoutes(serving('audit'), ...gate('audit'), db);
  sharingRoutes(serving('secret_sharing'), ...gate('secret_sharing'), db);
  // Links in the notification point at the console this Hub serves (its first allowed origin).
  // Recovery mail carries no secret (who asked, when, where to act): kept in the queue as is.
  const mail = defineMailOutbox(jobs, createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log: app.log }));
  const notifier = createRecoveryNotifier(mail, config.ALLOWED_ORIGINS[0] ?? '');
  recoveryRoutes(router, ...gate('recovery'), db, notifier, createRoleCheck(keys));
  // Event logs and SIEM export. SIEM destinations are addresses admins give: through the outbound guard.
  useHubOutboundPolicy(
    outboundPolicy({
      production: config.NODE_ENV === 'production',
      allow: config.OUTBOUND_ALLOW,
      timeoutMs: config.SIEM_TIMEOUT_MS,
    }),
  );
  const siem = createSiemService(db, jobs, {
    sentinelUrl: config.SENTINEL_DATA_COLLECTOR_URL,
    sentinelTokenUrl: config.SENTINEL_TOKEN_URL,
    pumpIntervalMs: config.SIEM_PUMP_INTERVAL_MS,
    leaseSeconds: config.SIEM_LEASE_SECONDS,
    retry: { baseMs: config.SIEM_RETRY_BASE_MS, maxMs: config.SIEM_RETRY_MAX_MS },
    log: app.log,
    ca: config.SIEM_CA_FILE ? readFileSync(config.SIEM_CA_FILE, 'utf8') : undefined,
  });
  const searchIndexer = createSearchIndexer(db, { log: app.log });
  // Alert rules: evaluated as events arrive, each firing's destinations delivered on the queue.
  // Their secrets are sealed with the Hub's sealing key, as directory sync's bind password is.
  const sealer = createSealer(loadHubSealingKey(config));
  // E-mail goes to the team's administrators only: its licence server says who they are, at save and at each send.
  const alertRecipients = createRecipientCheck(db, keys);
  const alertDelivery = defineAlertDelivery({
    db,
    jobs,
    mail,
    sealer,
    log: app.log,
    consoleUrl: config.ALLOWED_ORIGINS[0] ?? '',
    ca: config.SIEM_CA_FILE ? readFileSync(config.SIEM_CA_FILE, 'utf8') : undefined,
    retry: { limit: config.ALERT_RETRY_LIMIT, delaySeconds: config.ALERT_RETRY_DELAY_SECONDS },
    leaseSeconds: config.ALERT_LEASE_SECONDS,
    recipients: alertRecipients,
  });
  const alertEngine = createAlertEngine(db, jobs, alertDelivery, {
    pumpIntervalMs: config.ALERT_PUMP_INTERVAL_MS,
    leaseSeconds: config.ALERT_LEASE_SECONDS,
    log: app.log,
  });
  const events = createEventsService(db, {
    selfHosted: !config.EVENT_LOGS_MANAGED,
    onAppended: (teamSlug) => {
      siem.kick();
      alertEngine.kick();
      void searchIndexer.nudge(teamSlug);
    },
  });
  // Four-eyes approval of the settings this Hub serves: the team's policy lives at its licence server.
  const approvalGate = createApprovalGate(keys, (id) => registrationsRepository.findById(db, id));
  const [gatedLogs, gatedDevices] = gate('audit_logs');
  eventlogsRoutes(serving('audit_logs'), {
    guard,
    gated: gatedLogs,
    deviceGuard: gatedDevices,
    verifyServerCall: (request, path, teamSlug) => verifyServerCall(db, request, path, teamSlug),
    requireService: (teamSlug) => requireService(db, teamSlug, 'audit_logs'),
    events,
    approvalGate,
  });
  // Saved searches of the log: its gate and rule; a change to a shared one is an event (sent on like any).
  savedSearchesRoutes(
    serving('audit_logs'),
    gatedLogs,
    createSavedSearches(db, {
      onAppended: (teamSlug) => {
        siem.kick();
        void searchIndexer.nudge(teamSlug);
      },
    }),
  );
  alertsRoutes(
    serving('audit_logs'),
    gatedLogs,
    createAlertsService(db, sealer, alertDelivery, alertEngine.kick, alertRecipients),
  );
  // The SIEM settings stay reachable while the event-logs service is off (spec §2).
  siemRoutes(serving('audit_logs'), guard, siem, approvalGate);
  // Directory sync: the Hub reads the team's LDAP inside the customer's network (its address through the outbound policy).
  const directory = createDirectorySync({ db, jobs, keys, sealer, log: app.log });
  directoryRoutes(router, guard, directory, approvalGate);
  // Retention runs hourly on the queue (any instance; one run per hour by its key).
  const prepareMonths = () =>
    events.prepareMonths().catch((err: unknown) => app.log.warn({ err }, 'event log partitions not made ahead'));
  await prepareMonths();
  const retention = jobs.define<{ hour: number }>(
    'event-retention',
    async () => {
      await prepareMonths();
      await events.applyRetention();
    },
    {
      retryLimit: 3,
      retryDelaySeconds: 60,
      expireInSeconds: 600,
    },
  );
  const retentionTick = () => {
    const hour = Math.floor(Date.now() / 3_600_000);
    void retention
      .enqueue(db, { hour }, { key: String(hour) })
      .catch((err: unknown) => app.log.warn({ err }, 'retention not queued'));
  };
  // Generated from the calls actually served.
  const openapi = openApiDocument('Latchkey hub', config.HUB_VERSION, router.complete());
  app.get('/openapi.json', async () => openapi);

  await jobs.start();
  siem.start();
  alertEngine.start();
  searchIndexer.start();
  retentionTick();
  const retentionTimer = setInterval(retentionTick, 3_600_000);
  retentionTimer.unref();
  // Scheduled directory syncs: due ones are queued each minute (one job per team and due time).
  const directoryTimer = setInterval(() => {
    directory.tick().catch((err: unknown) => app.log.warn({ err }, 'directory syncs not queued'));
  }, 60_000);
  directoryTimer.unref();
  app.addHook('onClose', async () => {
    clearInterval(retentionTimer);
    clearInterval(directoryTimer);
    await siem.stop();
    await alertEngine.stop();
    await searchIndexer.stop();
    await jobs.stop(config.SHUTDOWN_GRACE_SECONDS * 1000);
  });
  return app;
}
