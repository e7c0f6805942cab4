import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HubTokens, LoginSuccess } from '@latchkey/contracts';
import { type Db, generateEd25519Key, migrate, openDb, privateKeyOf, publicJwkOf } from '@latchkey/runtime';
import { startSmtpReceiver } from '@latchkey/runtime/testing';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildHub } from '../../../hub/src/app.ts';
import { loadConfig as loadHubConfig } from '../../../hub/src/config.ts';
import { MIGRATIONS_DIR as HUB_MIGRATIONS_DIR } from '../../../hub/src/db/migrations-dir.ts';
import { seedDemoRegistration } from '../../../hub/src/features/registrations/demo-seed.ts';
import { buildServer } from '../app.ts';
import { loadConfig } from '../config.ts';
import { MIGRATIONS_DIR } from '../db/migrations-dir.ts';
import { DEMO_PASSWORD, seedDemo } from '../features/demo/seed.ts';
import { PEER_HEADER, PIN_HEADER, type RoundRobinProxy, startRoundRobinProxy, UPSTREAM_HEADER } from './round-robin-proxy.ts';

/** Bodies and the instance that answered. */
export interface Answer<T> {
  status: number;
  instance: number;
  body: T;
}

export interface CallOptions {
  body?: unknown;
  form?: Record<string, string>;
  token?: string;
  pin?: number;
  client: string;
  /** What the client itself puts in X-Forwarded-For (a forgery: it has no proxy of its own). */
  forwarded?: string;
}

export async function call<T = Record<string, unknown>>(
  proxy: RoundRobinProxy,
  path: string,
  options: CallOptions,
): Promise<Answer<T>> {
  const headers: Record<string, string> = { [PEER_HEADER]: options.client };
  if (options.forwarded) headers['x-forwarded-for'] = options.forwarded;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.pin !== undefined) headers[PIN_HEADER] = String(options.pin);
  let body: string | URLSearchParams;
  if (options.form) body = new URLSearchParams(options.form);
  else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body ?? {});
  }
  const res = await fetch(proxy.url + path, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, instance: Number(res.headers.get(UPSTREAM_HEADER)), body: (text ? JSON.parse(text) : {}) as T };
}

/** An empty database on the PostgreSQL server (no template: the instances must migrate it themselves). */
async function emptyDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `latchkey_two_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

const secret = () => randomBytes(32).toString('hex');
/** Addresses of the documentation ranges, new each run: the Redis counters are shared with other test files. */
export const address = () =>
  `2001:db8:${randomInt(0xffff).toString(16)}:${randomInt(0xffff).toString(16)}::${randomInt(1, 0xffff).toString(16)}`;
// Above what one client of the session tests sends in a minute (about 20), so only the rate-limit tests reach it.
export const RATE_LIMIT = 40;

function listening(app: FastifyInstance): string {
  const { port } = app.server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

type CallFrom = Omit<CallOptions, 'client'>;

/**
 * A test file's own two servers and two Hubs behind one round-robin proxy each, on fresh databases
 * of one PostgreSQL and on one Redis, started together as main.ts starts them, and closed after the
 * file. The proxies and the SMTP receiver exist once the file's beforeAll ran: read them inside tests.
 */
export function twoInstancesForFile() {
  const cleanup: (() => Promise<unknown> | unknown)[] = [];
  const closing: FastifyInstance[] = [];
  const servers: FastifyInstance[] = [];
  const hubs: FastifyInstance[] = [];
  const serverDbs: Db[] = [];
  const hubDbs: Db[] = [];
  let serverProxy: RoundRobinProxy;
  let hubProxy: RoundRobinProxy;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  const migrated: { server: string[][]; hub: string[][] } = { server: [], hub: [] };
  const seeded: boolean[] = [];
  const client = address();

  beforeAll(async () => {
    const url = process.env.TEST_DATABASE_URL as string;
    const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const serverDatabase = await emptyDatabase(url);
    cleanup.push(() => serverDatabase.drop());
    const hubDatabase = await emptyDatabase(url);
    cleanup.push(() => hubDatabase.drop());
    smtp = await startSmtpReceiver();
    cleanup.push(() => smtp.close());
    // One address the proxies report for every loopback peer (the Hub calling the server and back).
    const peerAddress = address();
    serverProxy = await startRoundRobinProxy({ peerAddress });
    cleanup.push(() => serverProxy.close());
    hubProxy = await startRoundRobinProxy({ peerAddress });
    cleanup.push(() => hubProxy.close());

    // Each program's keys, the same for both of its instances (given by value; each instance has
    // its own data directory, so nothing is shared through key files).
    const serverPem = generateEd25519Key();
    const hubPem = generateEd25519Key();
    const serverEnv = {
      SERVER_SIGNING_KEY: serverPem,
      TOKEN_SECRET: secret(),
      SEALING_KEY: secret(),
      CODE_HASH_KEY: secret(),
    };
    const hubEnv = { HUB_SIGNING_KEY: hubPem, HUB_TOKEN_SECRET: secret(), HUB_SETUP_SECRET: secret() };
    const dataDir = (program: string) => {
      const dir = mkdtempSync(join(tmpdir(), `latchkey-two-${program}-`));
      cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    };
    for (const [database, dbs] of [
      [serverDatabase, serverDbs],
      [hubDatabase, hubDbs],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const db = await openDb({ url: database.url, dataDir: '' });
        dbs.push(db);
      }
    }

    // As main.ts on each instance, started together: migrate, seed the demo, build, listen.
    const startServer = async (db: Db) => {
      migrated.server.push(await migrate(db, MIGRATIONS_DIR));
      seeded.push(
        await seedDemo(db, {
          hubUrl: hubProxy.url,
          hubKey: JSON.stringify(publicJwkOf(privateKeyOf(hubPem))),
        }),
      );
      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir('server'),
        SMTP_URL: smtp.url,
        WEB_DIST: join(tmpdir(), 'latchkey-no-web-dist'),
        REDIS_URL: redisUrl,
        TRUST_PROXY: 'true',
        PUBLIC_URL: serverProxy.url,
        ...serverEnv,
      });
      const app = await buildServer({ config, db, rateLimitPerMinute: RATE_LIMIT });
      await app.listen({ port: 0, host: '127.0.0.1' });
      return app;
    };
    const startHub = async (db: Db) => {
      migrated.hub.push(await migrate(db, HUB_MIGRATIONS_DIR));
      const config = loadHubConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir('hub'),
        REDIS_URL: redisUrl,
        TRUST_PROXY: 'true',
        SMTP_URL: smtp.url,
        ...hubEnv,
      });
      await seedDemoRegistration(db, {
        teamSlug: 'northwind',
        credentialId: 'demo-hub',
        serverKey: JSON.stringify(publicJwkOf(privateKeyOf(serverPem))),
        serverUrl: serverProxy.url,
      });
      const app = await buildHub({ config, db, rateLimitPerMinute: RATE_LIMIT });
      await app.listen({ port: 0, host: '127.0.0.1' });
      return app;
    };
    const started = await Promise.allSettled([...serverDbs.map(startServer), ...hubDbs.map(startHub)]);
    const apps = started.map((s) => (s.status === 'fulfilled' ? s.value : undefined));
    for (const app of apps) if (app) closing.push(app);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    servers.push(...(apps.slice(0, 2) as FastifyInstance[]));
    hubs.push(...(apps.slice(2) as FastifyInstance[]));
    serverProxy.setUpstreams(servers.map((app) => listening(app)));
    hubProxy.setUpstreams(hubs.map((app) => listening(app)));
  }, 60_000);

  afterAll(async () => {
    // The instances first, then their connections, then the rest in reverse order of creation.
    for (const app of closing) await app.close().catch(() => undefined);
    for (const db of [...serverDbs, ...hubDbs]) await db.close().catch(() => undefined);
    for (const step of cleanup.reverse()) await step();
  });

  const server = <T = Record<string, unknown>>(path: string, options: CallFrom = {}) =>
    call<T>(serverProxy, path, { client, ...options });
  const hub = <T = Record<string, unknown>>(path: string, options: CallFrom = {}) =>
    call<T>(hubProxy, path, { client, ...options });

  /** The sign-in codes mailed to `email`, waiting for the first (mail leaves through the job queue). */
  async function codesMailed(email: string): Promise<string[]> {
    const deadline = Date.now() + 10_000;
    const mine = () => smtp.mail.filter((m) => m.to.includes(email));
    while (mine().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    return mine().map((m) => /sign-in code: (\d{6})/.exec(m.raw)?.[1] ?? 'no code');
  }

  async function signIn(email: string): Promise<LoginSuccess> {
    const login = await server('/api/v1/console/auth/login/', { body: { email, team_slug: 'northwind' } });
    expect(login.status).toBe(200);
    const password = await server('/api/v1/console/auth/verify/password/', {
      body: { email, password: DEMO_PASSWORD, team_slug: 'northwind' },
    });
    expect(password.status).toBe(200);
    const [otp] = await codesMailed(email);
    const done = await server('/api/v1/console/auth/verify/otp/', {
      body: { email, otp, password: DEMO_PASSWORD, team_slug: 'northwind' },
    });
    expect(done.status).toBe(200);
    return LoginSuccess.parse(done.body);
  }

  return {
    /** Each program's two database connections, one per instance, filled in by beforeAll. */
    serverDbs,
    hubDbs,
    /** What each instance's migration applied, and whether its demo seed did anything. */
    migrated,
    seeded,
    get serverProxy() {
      return serverProxy;
    },
    get hubProxy() {
      return hubProxy;
    },
    /** Calls through a proxy as this file's one client. */
    server,
    hub,
    codesMailed,
    /** login → verify/password → verify/otp through the server's proxy, as the console does. */
    signIn,
    whoami: (token: string, pin: number) => server('/api/v1/team/admin/info/', { token, pin }),
    hubWhoami: (tokens: HubTokens, pin: number) =>
      hub('/api/v1/session/', { body: { team_slug: 'northwind' }, token: tokens.access, pin }),
  };
}
