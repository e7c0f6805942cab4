import { envFlag, parseAllowList, parseConfig, shutdownSettings, trustProxySetting } from '@latchkey/runtime';
import { z } from 'zod';

/** Browser origins, exact (scheme://host[:port]); the console calls the Hub from one of them. */
const Origins = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^https?:\/\/[^/\s]+$/, 'an origin is scheme://host[:port], without a path')));

/** Where `npm start` serves the console (the server's default port). */
const LOCAL_CONSOLE_ORIGINS = ['http://127.0.0.1:8080', 'http://localhost:8080'];

const Config = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8081),
    /** A PostgreSQL server; without it the embedded database in DATA_DIR is used. */
    HUB_DATABASE_URL: z.url().optional(),
    DATA_DIR: z.string().default('./data/hub'),
    /** The version this Hub reports; the console unlocks features by it. */
    HUB_VERSION: z
      .string()
      .regex(/^\d+(\.\d+)*$/, 'a dotted version such as 2.2.0')
      .default('2.2.0'),
    /** Consoles allowed to call this Hub from the browser; outside production, the local console by default. */
    ALLOWED_ORIGINS: Origins.optional(),
    /** The Hub's Ed25519 private key (PEM) for its calls to the server; else the file, else generated in DATA_DIR/keys. */
    HUB_SIGNING_KEY: z.string().optional(),
    HUB_SIGNING_KEY_FILE: z.string().optional(),
    /** Signs the setup keys the operator mints (`npm run hub-cli -- setup-key`); else the file, else generated in DATA_DIR/keys. */
    HUB_SETUP_SECRET: z.string().min(32).optional(),
    HUB_SETUP_SECRET_FILE: z.string().optional(),
    /**
     * Signs the Hub's access tokens (rotating it voids those in flight): this value, else
     * the file HUB_TOKEN_SECRET_FILE names, else `<DATA_DIR>/keys/hub_token_secret`, generated
     * with mode 0600 on first start. Never in the database.
     */
    HUB_TOKEN_SECRET: z.string().min(32).optional(),
    HUB_TOKEN_SECRET_FILE: z.string().optional(),
    /**
     * Seals secrets the Hub keeps in its database (a directory's bind password): this value, else the
     * file HUB_SEALING_KEY_FILE names, else `<DATA_DIR>/keys/hub_sealing_key`, generated on first start.
     */
    HUB_SEALING_KEY: z.string().min(32).optional(),
    HUB_SEALING_KEY_FILE: z.string().optional(),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).default(300),
    /** A Hub session ends after this long without a refresh… */
    REFRESH_TTL_MINUTES: z.coerce.number().int().min(1).default(60),
    /** …and this long after sign-in, whatever happens. */
    SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(12),
    /**
     * A just-rotated refresh token is answered again with the same successor for this long: two tabs
     * renewing at once, or a page left during a renewal, keep the session; 0 turns it off.
     */
    REFRESH_GRACE_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
    /** redis://host:port: request rate limits are counted there, shared by every Hub instance. */
    REDIS_URL: z.url().optional(),
    /** Behind load balancers: how many (or which) append to X-Forwarded-For; the client is the address the outermost one saw (rate limits). */
    TRUST_PROXY: trustProxySetting,
    /** When set, /metrics needs `Authorization: Bearer <token>`; without it /metrics is open outside production and off in production. */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** OTLP/HTTP collector for OpenTelemetry traces (`…/v1/traces` is added); without it no trace is made. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ...shutdownSettings,
    /** smtp(s)://user:pass@host:port for recovery notifications; without it mail is written to the log. */
    SMTP_URL: z.string().optional(),
    MAIL_FROM: z.string().default('Latchkey Hub <no-reply@latchkey.local>'),
    /**
     * Register the demo team on an empty database, trusting the demo server's public key (JWK,
     * JSON) and calling it back at DEMO_SERVER_URL: `npm start` pins the two keys crosswise.
     */
    SEED_DEMO: envFlag,
    /** SIEM destinations on these hosts or networks are reachable in production too (they are refused otherwise when private). */
    OUTBOUND_ALLOW: z.string().optional().transform(parseAllowList),
    /** A Hub run for the customer by someone else: the retention is not theirs to set (spec §2: self-hosted only). */
    EVENT_LOGS_MANAGED: envFlag,
    /** Microsoft Sentinel's Data Collector API; `{workspace_id}` is replaced by the form's workspace id. */
    SENTINEL_DATA_COLLECTOR_URL: z
      .string()
      .default('https://{workspace_id}.ods.opinsights.azure.com/api/logs?api-version=2016-04-01'),
    /** Microsoft Entra ID's token endpoint for Sentinel's Logs Ingestion API; `{tenant_id}` is replaced by the form's tenant id. */
    SENTINEL_TOKEN_URL: z.string().default('https://login.microsoftonline.com/{tenant_id}/oauth2/v2.0/token'),
    /** A PEM file of certificate authorities trusted for SIEM destinations besides the system's (a private CA). */
    SIEM_CA_FILE: z.string().optional(),
    /** How long a SIEM delivery run holds its destination, in seconds: a Hub killed mid-run resumes delivery once it ends. */
    SIEM_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(120),
    /** How often the SIEM pump looks for undelivered events, in milliseconds. */
    SIEM_PUMP_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
    /** How long the Hub waits for a SIEM destination to answer (or a syslog collector to close), in milliseconds. */
    SIEM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** After a failed delivery the next waits this long, doubled each failure up to SIEM_RETRY_MAX_MS (with up to 50 % jitter), or as long as the destination's Retry-After says. */
    /** Alert rules: how often the pump looks for events not evaluated yet (every append looks at once too), in milliseconds. */
    ALERT_PUMP_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
    /** How long an evaluation run holds its team's log, and a delivery its firing, in seconds: a Hub killed mid-run resumes once it ends. */
    ALERT_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
    /** An alert's delivery to one destination is retried this many times, the first after ALERT_RETRY_DELAY_SECONDS (doubling). */
    ALERT_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(6),
    ALERT_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
    SIEM_RETRY_BASE_MS: z.coerce.number().int().min(10).default(1_000),
    SIEM_RETRY_MAX_MS: z.coerce.number().int().min(10).default(300_000),
    DEMO_TEAM_SLUG: z.string().min(1).max(100).default('northwind'),
    DEMO_CREDENTIAL_ID: z.string().min(1).max(200).default('demo-hub'),
    DEMO_SERVER_KEY: z.string().min(1).optional(),
    DEMO_SERVER_URL: z.url().optional(),
  })
  // A demo registration without the server's key could never accept a grant, so refuse to start.
  .refine((c) => !c.SEED_DEMO || (c.DEMO_SERVER_KEY && c.DEMO_SERVER_URL), {
    path: ['DEMO_SERVER_KEY'],
    message: "DEMO_SERVER_KEY and DEMO_SERVER_URL are required when SEED_DEMO is set (the demo server's public key and address)",
  })
  // In production the console's address is known and must be given: no origin is trusted by default.
  .refine((c) => c.NODE_ENV !== 'production' || c.ALLOWED_ORIGINS?.length, {
    path: ['ALLOWED_ORIGINS'],
    message: 'required in production: the origin(s) of the console, e.g. https://console.example.com',
  })
  // Outside production mail may go to the log (the demo); in production it must really be sent.
  .refine((c) => c.NODE_ENV !== 'production' || c.SMTP_URL, {
    path: ['SMTP_URL'],
    message: 'required in production (recovery notifications are emailed)',
  })
  .transform((c) => ({ ...c, ALLOWED_ORIGINS: c.ALLOWED_ORIGINS ?? LOCAL_CONSOLE_ORIGINS }));
export type Config = z.output<typeof Config>;

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => parseConfig(Config, env);
