import { hubUrlProblem, INVOICE_PAYERS } from '@latchkey/contracts';
import { envFlag, parseAllowList, parseConfig, shutdownSettings, trustProxySetting } from '@latchkey/runtime';
import { z } from 'zod';

const Config = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** A PostgreSQL server; without it the embedded database in DATA_DIR is used. */
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data/server'),
  /** Public address of the console, for links in emails. */
  PUBLIC_URL: z.string().url().optional(),
  /** smtp(s)://user:pass@host:port; without it mail is written to the log. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Latchkey <no-reply@latchkey.local>'),
  /**
   * Keys (docs/security.md, "Keys"): each is the variable's value, else the file `*_FILE` names,
   * else `<DATA_DIR>/keys/<name>`, generated with mode 0600 on first start. Never in the database.
   * TOKEN_SECRET signs access tokens (rotating it voids those in flight; the console refreshes).
   */
  TOKEN_SECRET: z.string().min(32).optional(),
  TOKEN_SECRET_FILE: z.string().optional(),
  /** Encrypts authenticator secrets at rest (AES-256-GCM); the previous key is still read, and re-sealed on use. */
  SEALING_KEY: z.string().min(32).optional(),
  SEALING_KEY_FILE: z.string().optional(),
  SEALING_KEY_PREVIOUS: z.string().min(32).optional(),
  SEALING_KEY_PREVIOUS_FILE: z.string().optional(),
  /** Keys the HMAC-SHA-256 of backup codes and emailed sign-in codes; the previous key is still accepted. */
  CODE_HASH_KEY: z.string().min(32).optional(),
  CODE_HASH_KEY_FILE: z.string().optional(),
  CODE_HASH_KEY_PREVIOUS: z.string().min(32).optional(),
  CODE_HASH_KEY_PREVIOUS_FILE: z.string().optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).default(300),
  /** A session ends after this long without a refresh… */
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(60),
  /** …and this long after sign-in, whatever happens. */
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(12),
  /**
   * A just-rotated refresh token is answered again with the same successor for this long: two tabs
   * renewing at once, or a page left during a renewal, keep the session; 0 turns it off.
   */
  REFRESH_GRACE_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
  EMAIL_CODE_TTL_MINUTES: z.coerce.number().int().min(1).default(10),
  /** Built console to serve at /. */
  WEB_DIST: z.string().default('apps/web/dist'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Seed the demo teams into an empty database. */
  SEED_DEMO: envFlag,
  /**
   * The Ed25519 private key (PEM) that signs sign-in grants and calls to Hubs; else the file,
   * else generated once in DATA_DIR/keys. Every instance needs the same one.
   */
  SERVER_SIGNING_KEY: z.string().optional(),
  SERVER_SIGNING_KEY_FILE: z.string().optional(),
  /** Hub the demo team is connected to, and that Hub's public key (JWK as JSON), pinned by `npm start`. */
  DEMO_HUB_URL: z.string().url().optional(),
  DEMO_HUB_KEY: z.string().optional(),
  /** redis://host:port: brute-force counters live there instead of PostgreSQL (shared by every instance). */
  REDIS_URL: z.string().url().optional(),
  /** Requests a second each SCIM connector may send (its own budget, apart from the per-address limit); 429 with Retry-After beyond. */
  SCIM_RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).default(200),
  /** Behind load balancers: how many (or which) append to X-Forwarded-For; the client is the address the outermost one saw. */
  TRUST_PROXY: trustProxySetting,
  /** When set, /metrics needs `Authorization: Bearer <token>`; without it /metrics is open outside production and off in production. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** OTLP/HTTP collector for OpenTelemetry traces (`…/v1/traces` is added); without it no trace is made. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  /**
   * Hosts (`hub.corp.example`, `*.corp.example`) and addresses or CIDRs (`10.20.0.0/16`) the server
   * may reach although they are private: on-premise Hubs. Comma-separated; empty by default.
   */
  OUTBOUND_ALLOW: z.string().optional().transform(parseAllowList),
  /** FastSpring's webhook HMAC secret (its "HMAC SHA256 Secret"); without it the webhook refuses every call. */
  FASTSPRING_WEBHOOK_SECRET: z.string().min(16).optional(),
  /**
   * Who marks a manual invoice paid: `super_admin` (self-hosted: the team's super admin is the operator
   * who receives the transfer) or `operator` (a hosted licence server: only `npm run cli -- invoice-paid`).
   */
  INVOICE_PAID_BY: z.enum(INVOICE_PAYERS).default('super_admin'),
  /**
   * Onboarding: the admin-consent apps that add the product to a team's enterprise apps.
   * A cloud whose client id is set uses its real consent address; without one, outside production,
   * the server's own stand-in consent page answers (demo and tests); in production the step then
   * answers url_fetch_failed.
   */
  GOOGLE_WORKSPACE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_WORKSPACE_SCOPES: z.string().default('https://www.googleapis.com/auth/drive.file'),
  MICROSOFT_ENTRA_CLIENT_ID: z.string().min(1).optional(),
  MICROSOFT_ENTRA_SCOPES: z.string().default('https://graph.microsoft.com/.default'),
  /** Where the apps are downloaded: the public downloads page, and each platform's file below it unless DOWNLOAD_LOCATIONS names one. */
  DOWNLOADS_URL: z.string().url().default('https://latchkey.example/downloads/'),
  /** JSON object of download id (windows, macos, linux, ios, android) → address. */
  DOWNLOAD_LOCATIONS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text) return {};
      try {
        return z.record(z.string(), z.string().url()).parse(JSON.parse(text));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'a JSON object of download id to https address' });
        return z.NEVER;
      }
    }),
  /** How often events waiting for the team's Hub are looked for (event logs), in milliseconds. */
  EVENT_FORWARD_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  ...shutdownSettings,
  /** How often elevations past their expiry are ended, recorded and pushed to the Hubs (just-in-time rights), in milliseconds. */
  ELEVATION_SWEEP_INTERVAL_MS: z.coerce.number().int().min(50).default(5000),
});
export type Config = z.output<typeof Config>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = parseConfig(Config, env);
  const problem =
    config.DEMO_HUB_URL && hubUrlProblem(config.DEMO_HUB_URL, { allowLoopbackHttp: config.NODE_ENV !== 'production' });
  if (problem) throw new Error(`Invalid configuration:\n  DEMO_HUB_URL: ${problem}`);
  // Mail written to the log carries sign-in codes and reset links: a demo convenience only.
  if (config.NODE_ENV === 'production' && !config.SMTP_URL)
    throw new Error('Invalid configuration:\n  SMTP_URL: required in production');
  return config;
}
