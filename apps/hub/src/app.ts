import type { AuxService } from '@latchkey/contracts';
import * as contracts from '@latchkey/contracts';
import { createHttpApp, createJobs, createMailer, type Db, defineMailOutbox, registerMetrics } from '@latchkey/runtime';
import type { Config } from './config.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { createHubSessionsService } from './features/auth/hub-sessions.service.ts';
import { createServerCheck } from './features/auth/server-check.ts';
import { connectorRoutes } from './features/connector/connector.routes.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { createHubGuard } from './http/guard.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { registerSecurity } from './http/security.ts';
import { loadHubKeys, loadHubTokenSecret } from './platform/keys.ts';

// Sign-in and account security (issue 3)

// Groups, branding, member devices (issue 4)

// Policies (issue 5)

// Security audit, sharing, recovery (issue 6)
import { auditRoutes } from './features/audit/audit.routes.ts';
import { servicesFor } from './features/connector/capabilities.ts';
import { createDeviceGuard } from './features/devices/device-guard.ts';
import { devicesRoutes } from './features/devices/devices.routes.ts';
import { eventsRoutes } from './features/events/events.routes.ts';
// Hub integration (issue 6)
import { integrationRoutes } from './features/integration/integration.routes.ts';
import { onlyWithService } from './features/integration/service-gate.ts';
import { recoveryRoutes } from './features/recovery/recovery.routes.ts';
import { createRecoveryNotifier } from './features/recovery/recovery-notifier.ts';
import { sharingRoutes } from './features/sharing/sharing.routes.ts';

/** Every call this program answers, for its OpenAPI document. */
export const HUB_ENDPOINTS = [
  contracts.hubHealthEndpoint,
  contracts.hubConnectorEndpoint,
  contracts.hubTokenEndpoint,
  contracts.hubRefreshEndpoint,
  contracts.hubWhoAmIEndpoint,

  // Sign-in and account security (issue 3)

  // Groups, branding, member devices (issue 4)

  // Policies (issue 5)

  // Hub integration (issue 6)
  contracts.hubRegisterEndpoint,
  contracts.hubVerifyEndpoint,
  contracts.hubSetServicesEndpoint,
  contracts.hubRevokeSessionsEndpoint,
  contracts.hubDeleteConnectorEndpoint,
  contracts.hubEnabledServicesEndpoint,

  // Security audit, sharing, recovery (issue 6)
  ...contracts.INGESTION_ENDPOINTS,
  contracts.auditSummariesEndpoint,
  contracts.auditSummaryEndpoint,
  contracts.sharingLinksEndpoint,
  contracts.sharingRevokeEndpoint,
  contracts.sharingLimitsEndpoint,
  contracts.sharingLimitsUpdateEndpoint,
  contracts.recoveryRequestsEndpoint,
  contracts.recoveryApproveEndpoint,
  contracts.recoveryDeleteEndpoint,
  contracts.recoveryAdminsEndpoint,
  contracts.recoveryCreateAdminRequestEndpoint,
  contracts.recoveryFetchAdminRequestsEndpoint,
  contracts.recoveryRemoveAdminEndpoint,
  contracts.userKeyVerifyEndpoint,
  contracts.memberSecretVerifyEndpoint,
  contracts.recoverySettingsEndpoint,
  contracts.recoveryLinkExpirationEndpoint,
  contracts.recoveryNotificationEndpoint,
];

export interface HubDeps {
  config: Config;
  db: Db;
  /** Requests per minute per client address before 429. */
  rateLimitPerMinute?: number;
}

export async function buildHub({ config, db, rateLimitPerMinute = 600 }: HubDeps) {
  const app = createHttpApp({
    logLevel: config.LOG_LEVEL,
    checkReplies: config.NODE_ENV !== 'production',
    trustProxy: config.TRUST_PROXY,
  });
  // Durable background work (recovery mail now; SIEM delivery and retention later): started once every queue is defined, below.
  const jobs = createJobs(db, { log: app.log });
  registerMetrics(app, { db, jobs, token: config.METRICS_TOKEN, openWithoutToken: config.NODE_ENV !== 'production' });
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
      hubVersion: config.HUB_VERSION,
    },
    createServerCheck(keys),
  );
  const guard = createHubGuard(sessions);

  healthRoutes(app, guard, db, config.HUB_VERSION, HUB_ENDPOINTS);
  connectorRoutes(app, guard, db, config.HUB_VERSION);
  authRoutes(app, guard, db, sessions);

  // Sign-in and account security (issue 3)

  // Groups, branding, member devices (issue 4)

  // Policies (issue 5)

  // Hub integration (issue 6)
  integrationRoutes(app, guard, db, config.HUB_VERSION, keys, sessions);

  // Security audit, sharing, recovery (issue 6)
  const deviceGuard = createDeviceGuard(db);
  devicesRoutes(app, deviceGuard, db);
  // A Hub answers only for the services its version runs (what its connector reports).
  const offered = servicesFor(config.HUB_VERSION);
  // And only while the team has the service switched on here (the integration screen's switches).
  const gate = (service: AuxService) => [onlyWithService(guard, db, service), onlyWithService(deviceGuard, db, service)] as const;
  if (offered.includes('audit')) auditRoutes(app, ...gate('audit'), db);
  if (offered.includes('secret_sharing')) sharingRoutes(app, ...gate('secret_sharing'), db);
  // Links in the notification point at the console this Hub serves (its first allowed origin).
  // Recovery mail carries no secret (who asked, when, where to act): kept in the queue as is.
  const mail = defineMailOutbox(jobs, createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log: app.log }));
  const notifier = createRecoveryNotifier(mail, config.ALLOWED_ORIGINS[0] ?? '');
  recoveryRoutes(app, ...gate('recovery'), db, notifier);
  eventsRoutes(app, gate('audit_logs')[1], db);

  await jobs.start();
  app.addHook('onClose', () => jobs.stop());
  return app;
}
