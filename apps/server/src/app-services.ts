// The services several features share, built once for the composition root (app.ts): keys, the
// Hub client, sessions and the request guard, limits, sealing, mail, the console's address, and sign-in.
import type { Db, Jobs } from '@latchkey/runtime';
import { createSealer } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import { rekeyLegacyRecoveryCodes } from './features/account/recovery-codes.ts';
import { createSecurityKeys } from './features/account/security-keys.ts';
import { createAuthService } from './features/auth/auth.service.ts';
import { createSessionsService } from './features/auth/sessions.service.ts';
import { createHubClient } from './features/integration/hub-client.ts';
import { createHubSessionEnder } from './features/integration/hub-session-ender.ts';
import { loadServerKey } from './features/integration/server-key.ts';
import { ssoSignIn } from './features/sso/index.ts';
import { teamRepository } from './features/team/index.ts';
import { sessionContexts } from './features/team/session-contexts.ts';
import { createGuard } from './http/guard.ts';
import { integrationLookups } from './integration-lookups.ts';
import { createCodeHasher } from './platform/code-hasher.ts';
import { loadServerKeys } from './platform/keys.ts';
import { createLimiter, postgresCounters } from './platform/limits.ts';
import { createMailer, defineMailOutbox, type Mailer } from './platform/mail.ts';
import { redisCounters } from './platform/redis-counters.ts';

interface SharedServiceDeps {
  app: FastifyInstance;
  config: Config;
  db: Db;
  jobs: Jobs;
  redis: Redis | null;
  mailer: Mailer | undefined;
}

export async function createSharedServices({ app, config, db, jobs, redis, mailer }: SharedServiceDeps) {
  // Keys come from configuration or <DATA_DIR>/keys, never the database (platform/keys.ts).
  const serverKeys = loadServerKeys(config);
  const codes = createCodeHasher(serverKeys.codes);
  await rekeyLegacyRecoveryCodes(db, codes);
  // Trust with the Hubs (docs/security.md): one Ed25519 key signs grants and every call to a Hub.
  const hubKey = loadServerKey(config);
  const hubClient = createHubClient(hubKey);
  const hubSessions = createHubSessionEnder(db, hubClient, jobs, app.log, integrationLookups);
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
    // Sign-in asks rooms that build on auth (their admins' teams, their SSO): handed in here.
    adminTeams: teamRepository.adminTeams,
    sso: ssoSignIn,
  });
  return {
    codes,
    hubClient,
    hubSessions,
    sessions,
    guard,
    sessionContext,
    limiter,
    sealer,
    mail,
    consoleUrl,
    relyingParty,
    keys,
    auth,
  };
}

export type SharedServices = Awaited<ReturnType<typeof createSharedServices>>;

/** http://HOST:PORT this server listens on: the development base of links, and what a Hub on this machine calls. */
export function listeningUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') return 'http://127.0.0.1';
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
}
