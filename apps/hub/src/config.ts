import { envFlag, parseConfig } from '@latchkey/runtime';
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
    /**
     * Lets a console register a team's credential through the unprotected connector call. Only
     * the Hub's operator knows it; without it, teams can only be registered by the demo seed.
     */
    HUB_SETUP_KEY: z.string().min(16).max(200).optional(),
    /** Signs the Hub's access tokens; generated and stored in the database when absent. */
    HUB_TOKEN_SECRET: z.string().min(32).optional(),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).default(300),
    /** A Hub session ends after this long without a refresh… */
    REFRESH_TTL_MINUTES: z.coerce.number().int().min(1).default(60),
    /** …and this long after sign-in, whatever happens. */
    SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(12),
    /** redis://host:port: request rate limits are counted there, shared by every Hub instance. */
    REDIS_URL: z.url().optional(),
    /** Behind a load balancer: take the client address from X-Forwarded-For (rate limits). */
    TRUST_PROXY: envFlag,
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** smtp(s)://user:pass@host:port for recovery notifications; without it mail is written to the log. */
    SMTP_URL: z.string().optional(),
    MAIL_FROM: z.string().default('Latchkey Hub <no-reply@latchkey.local>'),
    /** Register the demo team on an empty database, with the secret the demo server shares. */
    SEED_DEMO: envFlag,
    DEMO_TEAM_SLUG: z.string().min(1).max(100).default('northwind'),
    DEMO_CREDENTIAL_ID: z.string().min(1).max(200).default('demo-hub'),
    DEMO_HUB_SECRET: z.string().min(1).optional(),
  })
  // A demo registration with a made-up secret could never accept a grant, so refuse to start.
  .refine((c) => !c.SEED_DEMO || c.DEMO_HUB_SECRET, {
    path: ['DEMO_HUB_SECRET'],
    message: 'required when SEED_DEMO is set (the server must sign grants with the same secret)',
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
