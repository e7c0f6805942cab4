import type { KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoginSuccess } from '@latchkey/contracts';
import { type Db, generateEd25519Key, privateKeyOf, publicJwkOf } from '@latchkey/runtime';
import { createTestDb, type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from '@latchkey/runtime/testing';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { MIGRATIONS_DIR } from '../db/migrations-dir.ts';
import { DEMO_PASSWORD, seedDemo } from '../features/demo/seed.ts';
import { startTestHub, type TestHub } from './hub-process.ts';

/** The demo team's Hub address: nothing listens there unless the harness runs a real Hub (`hub: true`). */
export const HUB_URL = 'http://127.0.0.1:1';

export interface Reply<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  /** The body as sent, for checks that no secret leaks into a reply. */
  text: string;
}

export interface Harness {
  db: Db;
  config: Config;
  app: FastifyInstance;
  url: string;
  /** Every message the SMTP receiver accepted, oldest first. */
  mail: ReceivedMail[];
  /** The SMTP receiver itself (to refuse messages, as a mail server in trouble does). */
  smtp: SmtpReceiver;
  /** The real Hub the demo team is connected to, with `hub: true`. */
  hub: TestHub | undefined;
  /** The server's signing key (its configuration's SERVER_SIGNING_KEY). */
  serverKey: KeyObject;
  post<T = Record<string, unknown>>(path: string, body?: unknown, token?: string): Promise<Reply<T>>;
  postForm<T = Record<string, unknown>>(path: string, fields: Record<string, string>): Promise<Reply<T>>;
  get<T = Record<string, unknown>>(path: string, token?: string): Promise<Reply<T>>;
  /** The code of the newest sign-in mail to `email`; consumes every mail to that address. */
  waitForCode(email: string): Promise<string>;
  /** The token of the newest administrator invitation mailed to `email`; consumes that mail. */
  invitationToken(email: string): Promise<string>;
  /** Waits until every mail queued so far has left (or is waiting for a retry). */
  mailSent(): Promise<void>;
  /** login → verify/password → verify/otp, as the console does. */
  signIn(email: string, teamSlug?: string): Promise<LoginSuccess>;
  close(): Promise<void>;
}

interface HarnessOptions {
  seed?: boolean;
  rateLimitPerMinute?: number;
  /** Extra configuration, e.g. REDIS_URL. */
  env?: Record<string, string>;
  /** Registers extra routes on the built app before it listens (test-only endpoints). */
  beforeListen?: (app: FastifyInstance, db: Db, config: Config) => Promise<void> | void;
  /** Runs a real Hub (own process state and database) that the demo team is connected to. */
  hub?: boolean;
  /** Extra configuration of that Hub, e.g. ACCESS_TOKEN_TTL_SECONDS. */
  hubEnv?: Record<string, string>;
  /** Where the server's JSON log lines go (with LOG_LEVEL in `env`): tests that read the log. */
  logStream?: import('node:stream').Writable;
}

/** A real server: migrated test database, seeded demo, SMTP receiver, listening on a free port. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const db = await createTestDb(MIGRATIONS_DIR);
  const smtp = await startSmtpReceiver();
  const mail = smtp.mail;

  // Key files are generated here, never in the repository.
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-server-'));
  const serverPem = generateEd25519Key();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    SERVER_SIGNING_KEY: serverPem,
    // Independent of whether the console has been built.
    WEB_DIST: join(tmpdir(), 'latchkey-no-web-dist'),
    ...options.env,
  });
  // The Hub is limited as the server is: a test that lifts the server's limit (the access matrix) lifts both.
  const hubLimit = options.rateLimitPerMinute ? { rateLimitPerMinute: options.rateLimitPerMinute } : {};
  const hub = options.hub ? await startTestHub({ ...(options.hubEnv ? { env: options.hubEnv } : {}), ...hubLimit }) : undefined;
  // Without a real Hub, the demo team's Hub has a key nobody holds: grants are issued, nothing answers.
  const hubKey = hub?.publicJwk ?? publicJwkOf(privateKeyOf(generateEd25519Key()));
  if (options.seed ?? true) await seedDemo(db, { hubUrl: hub?.url ?? HUB_URL, hubKey: JSON.stringify(hubKey) });
  const app = await buildServer({ config, db, rateLimitPerMinute: options.rateLimitPerMinute, logStream: options.logStream });
  await options.beforeListen?.(app, db, config);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const serverKey = privateKeyOf(serverPem);
  await hub?.registerDemo({ serverKey: publicJwkOf(serverKey), serverUrl: url });

  async function reply<T>(response: Response): Promise<Reply<T>> {
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : {}) as T, text };
  }

  const harness: Harness = {
    db,
    config,
    app,
    url,
    mail,
    smtp,
    hub,
    serverKey,
    async post(path, body = {}, token) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      return reply(await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body) }));
    },
    async postForm(path, fields) {
      return reply(await fetch(url + path, { method: 'POST', body: new URLSearchParams(fields) }));
    },
    async get(path, token) {
      return reply(await fetch(url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
    },
    async mailSent() {
      const deadline = Date.now() + 5000;
      for (;;) {
        const [left] = await db.query<{ n: number }>(
          "select count(*)::int as n from job_queue.job where name = 'mail' and state in ('created', 'active')",
        );
        if (!left?.n || Date.now() > deadline) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async invitationToken(email) {
      const deadline = Date.now() + 5000;
      for (;;) {
        const message = mail.filter((m) => m.to.includes(email) && m.raw.includes('admin-invitation')).at(-1);
        const raw = message?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        const found = raw && /#\/admin-invitation\/([\w%-]+)/.exec(raw)?.[1];
        if (message && found) {
          mail.splice(mail.indexOf(message), 1);
          return decodeURIComponent(found);
        }
        if (Date.now() > deadline) throw new Error(`no invitation mailed to ${email}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async waitForCode(email) {
      // Mail leaves through the job queue, in order: once it is out, the newest mail is this code's,
      // not an earlier one that happened to arrive late.
      await harness.mailSent();
      const deadline = Date.now() + 5000;
      for (;;) {
        const mine = mail.filter((m) => m.to.includes(email));
        const latest = mine.at(-1);
        if (latest) {
          for (const m of mine) mail.splice(mail.indexOf(m), 1);
          const code = /sign-in code: (\d{6})/.exec(latest.raw)?.[1];
          if (!code) throw new Error(`no code in mail to ${email}`);
          return code;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${email}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async signIn(email, teamSlug = 'northwind') {
      const login = await harness.post('/api/v1/console/auth/login/', { email, team_slug: teamSlug });
      if (login.status !== 200) throw new Error(`login ${login.status}: ${login.text}`);
      const password = await harness.post('/api/v1/console/auth/verify/password/', {
        email,
        password: DEMO_PASSWORD,
        team_slug: teamSlug,
      });
      if (password.status !== 200) throw new Error(`verify/password ${password.status}: ${password.text}`);
      const otp = await harness.waitForCode(email);
      const done = await harness.post('/api/v1/console/auth/verify/otp/', {
        email,
        otp,
        password: DEMO_PASSWORD,
        team_slug: teamSlug,
      });
      if (done.status !== 200) throw new Error(`verify/otp ${done.status}: ${done.text}`);
      return LoginSuccess.parse(done.body);
    },
    async close() {
      await app.close();
      await smtp.close();
      await db.close();
      await hub?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}
