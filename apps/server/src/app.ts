import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import * as contracts from '@latchkey/contracts';
import { createHttpApp, type Db, openApiDocument } from '@latchkey/runtime';
import type { Config } from './config.ts';
import { ADMINS_ENDPOINTS, adminsRoutes } from './features/admins/admins.routes.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { createAuthService } from './features/auth/auth.service.ts';
import { createSessionsService } from './features/auth/sessions.service.ts';
import { PEOPLE_ENDPOINTS, peopleRoutes } from './features/people/people.routes.ts';
import { accountRoutes } from './features/security/account.routes.ts';
import { createAccountService } from './features/security/account.service.ts';
import { createLimiter, postgresCounters } from './features/security/limits.ts';
import { createPasswordResetService } from './features/security/password-reset.service.ts';
import { createSecurityKeys } from './features/security/security-keys.ts';
import { teamRoutes } from './features/team/team.routes.ts';
import { createGuard } from './http/guard.ts';
import { createMailer, type Mailer } from './platform/mail.ts';
import { createSealer } from './platform/sealed.ts';
import { ensureSecret } from './platform/secrets.ts';

// Sign-in and account security (issue 3)

// Groups, branding, member devices (issue 4)

// Policies (issue 5)
import { POLICIES_ENDPOINTS, policiesRoutes } from './features/policies/policies.routes.ts';

// Hub integration (issue 6)

// Security audit, sharing, recovery (issue 6)

/** Every call this program answers, for its OpenAPI document. */
export const SERVER_ENDPOINTS = [
  contracts.loginEndpoint,
  contracts.verifyPasswordEndpoint,
  contracts.verifyOtpEndpoint,
  contracts.verifyTotpEndpoint,
  contracts.verifyRecoveryCodeEndpoint,
  contracts.refreshTokenEndpoint,
  contracts.signoutEndpoint,
  contracts.accountSecurityEndpoint,
  contracts.updateAuthTypeEndpoint,
  contracts.changePasswordEndpoint,
  contracts.setFirstPasswordEndpoint,
  contracts.totpRegisterEndpoint,
  contracts.totpRegisterVerifyEndpoint,
  contracts.totpChangeEndpoint,
  contracts.totpChangeVerifyEndpoint,
  contracts.regenerateRecoveryCodesEndpoint,
  contracts.requestPasswordResetEndpoint,
  contracts.validatePasswordRequestEndpoint,
  contracts.changePasswordRequestEndpoint,
  contracts.setPasswordFirstLoginEndpoint,
  contracts.u2fRegisterOptionsEndpoint,
  contracts.u2fRegisterVerifyEndpoint,
  contracts.u2fSignInOptionsEndpoint,
  contracts.verifyU2fEndpoint,
  contracts.teamInfoEndpoint,
  contracts.adminScopeEndpoint,
  contracts.adminInfoEndpoint,
  contracts.allTeamsEndpoint,
  contracts.auxServicesEndpoint,
  ...PEOPLE_ENDPOINTS,
  ...ADMINS_ENDPOINTS,

  // Sign-in and account security (issue 3)

  // Groups, branding, member devices (issue 4)

  // Policies (issue 5)
  ...POLICIES_ENDPOINTS,

  // Hub integration (issue 6)

  // Security audit, sharing, recovery (issue 6)
];

export interface ServerDeps {
  config: Config;
  db: Db;
  mailer?: Mailer;
  /** Requests per minute per client address before 429. */
  rateLimitPerMinute?: number;
}

export async function buildServer({ config, db, mailer, rateLimitPerMinute = 600 }: ServerDeps) {
  const app = createHttpApp({
    logLevel: config.LOG_LEVEL,
    checkReplies: config.NODE_ENV !== 'production',
    trustProxy: config.TRUST_PROXY,
  });
  const devConnect = config.NODE_ENV === 'production' ? [] : ['http://127.0.0.1:*', 'http://localhost:*'];
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine sets style attributes at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // The console calls the team's Hub directly, at whatever https address it has.
        connectSrc: ["'self'", 'https:', ...devConnect],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // The same refusal as frame-ancestors 'none', for browsers that only read X-Frame-Options.
    frameguard: { action: 'deny' },
    // HSTS only means something on https; helmet sends it, browsers ignore it on http.
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
  });
  await app.register(rateLimit, {
    max: rateLimitPerMinute,
    timeWindow: '1 minute',
    // The console's static files are not calls: only the API counts against a client.
    allowList: (request) =>
      !request.url.startsWith('/api/') && !request.url.startsWith('/oauth/') && !request.url.startsWith('/sso/'),
  });

  const secret = await ensureSecret(db, 'token_secret', config.TOKEN_SECRET);
  const sessions = createSessionsService(db, secret, {
    accessTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
    idleMinutes: config.SESSION_IDLE_MINUTES,
    maxHours: config.SESSION_MAX_HOURS,
  });
  const guard = createGuard(db, sessions);
  // Brute-force counters in PostgreSQL: shared by every instance on the same database.
  const limiter = createLimiter(postgresCounters(db));
  const sealer = createSealer(await ensureSecret(db, 'sealing_key'));
  // Links in emails and security keys are bound to PUBLIC_URL. Without it, development and tests
  // use the page's own origin; production then sends no link and registers no key rather than
  // trust a request header.
  const consoleUrl = (origin: string | undefined): string | null =>
    config.PUBLIC_URL?.replace(/\/$/, '') ??
    (config.NODE_ENV !== 'production' && origin && URL.canParse(origin) ? new URL(origin).origin : null);
  const relyingParty = (origin: string | undefined) => {
    const base = consoleUrl(origin);
    return base ? { origin: base, rpID: new URL(base).hostname } : null;
  };
  const keys = createSecurityKeys(db);
  const auth = createAuthService({
    keys,
    relyingParty,
    db,
    sessions,
    limiter,
    sealer,
    mailer: mailer ?? createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log: app.log }),
    emailCodeTtlMinutes: config.EMAIL_CODE_TTL_MINUTES,
  });

  authRoutes(app, guard, auth, sessions);
  const reset = createPasswordResetService({
    db,
    limiter,
    mailer: mailer ?? createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log: app.log }),
    consoleUrl,
  });
  accountRoutes(app, guard, createAccountService({ db, limiter, sealer, keys, relyingParty }), reset);
  teamRoutes(app, guard, db);
  peopleRoutes(app, guard, db, mailer ?? createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log: app.log }));
  adminsRoutes(app, guard, db);

  // Sign-in and account security (issue 3)

  // Groups, branding, member devices (issue 4)

  // Policies (issue 5)
  policiesRoutes(app, guard, db);

  // Hub integration (issue 6)

  // Security audit, sharing, recovery (issue 6)

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => {
    await db.query('select 1');
    return { status: 'ready' };
  });
  const openapi = openApiDocument('Latchkey server', contracts.CONSOLE_VERSION, SERVER_ENDPOINTS);
  app.get('/openapi.json', async () => openapi);

  const webRoot = resolve(config.WEB_DIST);
  if (existsSync(webRoot)) {
    await app.register(fastifyStatic, {
      root: webRoot,
      setHeaders(reply, path) {
        // Hashed assets never change; index.html must always be fresh.
        reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  return app;
}
