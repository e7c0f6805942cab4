import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HubTokens, LoginSuccess, type TokenPair } from '@latchkey/contracts';
import { type Db, generateEd25519Key, migrate, openDb, privateKeyOf, publicJwkOf } from '@latchkey/runtime';
import { startSmtpReceiver } from '@latchkey/runtime/testing';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildHub } from '../../../hub/src/app.ts';
import { loadConfig as loadHubConfig } from '../../../hub/src/config.ts';
import { MIGRATIONS_DIR as HUB_MIGRATIONS_DIR } from '../../../hub/src/db/migrations-dir.ts';
import { seedDemoRegistration } from '../../../hub/src/features/registrations/demo-seed.ts';
import { buildServer } from '../app.ts';
import { loadConfig } from '../config.ts';
import { MIGRATIONS_DIR } from '../db/migrations-dir.ts';
import { DEMO_ADMINS, DEMO_PASSWORD, seedDemo } from '../features/demo/seed.ts';
import { PEER_HEADER, PIN_HEADER, type RoundRobinProxy, startRoundRobinProxy, UPSTREAM_HEADER } from './round-robin-proxy.ts';

const onPostgres = process.env.TEST_DB === 'postgres';

/** Bodies and the instance that answered. */
interface Answer<T> {
  status: number;
  instance: number;
  body: T;
}

async function call<T = Record<string, unknown>>(
  proxy: RoundRobinProxy,
  path: string,
  options: {
    body?: unknown;
    form?: Record<string, string>;
    token?: string;
    pin?: number;
    client: string;
    /** What the client itself puts in X-Forwarded-For (a forgery: it has no proxy of its own). */
    forwarded?: string;
  },
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

describe('the round-robin proxy the two-instance test stands on', () => {
  test('sends each request to the next instance in turn (or the pinned one) with its method, path, headers and body, and appends its peer to X-Forwarded-For', async () => {
    const { createServer } = await import('node:http');
    const seen: string[][] = [[], []];
    const upstreams = await Promise.all(
      [0, 1].map(
        (i) =>
          new Promise<{ url: string; close: () => void }>((resolve) => {
            const server = createServer((req, res) => {
              let body = '';
              req.on('data', (chunk) => (body += chunk));
              req.on('end', () => {
                seen[i]?.push(`${req.method} ${req.url} ${req.headers['x-forwarded-for']} ${req.headers['x-a']} ${body}`);
                res.writeHead(201, { 'x-b': 'b' }).end(`from ${i}`);
              });
            });
            server.listen(0, '127.0.0.1', () => {
              const { port } = server.address() as { port: number };
              resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
            });
          }),
      ),
    );
    const proxy = await startRoundRobinProxy({ peerAddress: '192.0.2.7' });
    try {
      proxy.setUpstreams(upstreams.map((u) => u.url));
      const send = async (path: string, extra: Record<string, string> = {}) => {
        const res = await fetch(proxy.url + path, { method: 'PUT', headers: { 'x-a': 'a', ...extra }, body: `body ${path}` });
        return [res.status, res.headers.get(UPSTREAM_HEADER), res.headers.get('x-b'), await res.text()];
      };
      expect(await send('/one?q=1')).toEqual([201, '0', 'b', 'from 0']);
      expect(await send('/two', { 'x-forwarded-for': '198.51.100.1' })).toEqual([201, '1', 'b', 'from 1']);
      expect(await send('/three', { [PIN_HEADER]: '1' })).toEqual([201, '1', 'b', 'from 1']);
      expect(await send('/four', { [PEER_HEADER]: '192.0.2.9' })).toEqual([201, '0', 'b', 'from 0']);
      expect(seen).toEqual([
        ['PUT /one?q=1 192.0.2.7 a body /one?q=1', 'PUT /four 192.0.2.9 a body /four'],
        ['PUT /two 198.51.100.1, 192.0.2.7 a body /two', 'PUT /three 192.0.2.7 a body /three'],
      ]);
      expect(proxy.served).toEqual([2, 2]);
    } finally {
      await proxy.close();
      for (const u of upstreams) u.close();
    }
  });
});

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
const address = () =>
  `2001:db8:${randomInt(0xffff).toString(16)}:${randomInt(0xffff).toString(16)}::${randomInt(1, 0xffff).toString(16)}`;
// Above what one client of the session tests sends in a minute (about 20), so only the rate-limit tests reach it.
const RATE_LIMIT = 40;

// On PostgreSQL only: embedded PGlite is one process's own database, so there are no two instances to run.
if (onPostgres)
  describe('two server instances and two Hub instances behind one address each, on one PostgreSQL and one Redis', () => {
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

    const server = <T = Record<string, unknown>>(path: string, options: Omit<Parameters<typeof call>[2], 'client'> = {}) =>
      call<T>(serverProxy, path, { client, ...options });
    const hub = <T = Record<string, unknown>>(path: string, options: Omit<Parameters<typeof call>[2], 'client'> = {}) =>
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
    const whoami = (token: string, pin: number) => server('/api/v1/team/admin/info/', { token, pin });
    const hubWhoami = (tokens: HubTokens, pin: number) =>
      hub('/api/v1/session/', { body: { team_slug: 'northwind' }, token: tokens.access, pin });

    test('started together, the instances migrate each database exactly once, and seed the demo once', async () => {
      const serverMigrations = readdirSync(MIGRATIONS_DIR)
        .filter((f) => /^\d{4}_.+\.sql$/.test(f))
        .sort();
      const hubMigrations = readdirSync(HUB_MIGRATIONS_DIR)
        .filter((f) => /^\d{4}_.+\.sql$/.test(f))
        .sort();
      // One instance applied them all, the other found nothing left to do.
      expect(migrated.server.map((m) => m.length).sort()).toEqual([0, serverMigrations.length]);
      expect(migrated.hub.map((m) => m.length).sort()).toEqual([0, hubMigrations.length]);
      const applied = async (db: Db) =>
        (await db.query<{ name: string }>('select name from schema_migrations order by name')).map((r) => r.name);
      expect(await applied(serverDbs[0] as Db)).toEqual(serverMigrations);
      expect(await applied(hubDbs[0] as Db)).toEqual(hubMigrations);
      expect(seeded.sort()).toEqual([false, true]);
      expect(await (serverDbs[0] as Db).query("select slug from teams where slug = 'northwind'")).toHaveLength(1);
    });

    test('a session works through the proxy on both instances: sign-in, calls, refresh, Hub tokens, sign-out ending it everywhere at once', async () => {
      const email = DEMO_ADMINS.superAdmin;
      const signedIn = await signIn(email);
      // The code's mail was sent by one instance's job worker, once, though both run the queue.
      await new Promise((r) => setTimeout(r, 1500));
      expect(await codesMailed(email)).toHaveLength(1);

      // The access token works on both instances.
      expect((await whoami(signedIn.token.access, 0)).status).toBe(200);
      expect((await whoami(signedIn.token.access, 1)).status).toBe(200);

      // Refreshed on one, the new token works on the other; the old refresh token is spent on both.
      const refreshed = await server<TokenPair>('/oauth/refresh/token/', {
        form: { grant_type: 'refresh_token', refresh_token: signedIn.token.refresh_token },
        pin: 0,
      });
      expect(refreshed.status).toBe(200);
      expect(refreshed.instance).toBe(0);
      const tokens = refreshed.body;
      expect((await whoami(tokens.access, 1)).status).toBe(200);

      // The aux code is exchanged at one Hub instance; the Hub tokens work on both, refresh on one, use on the other.
      const aux = signedIn.aux_code;
      expect(aux?.server_url).toBe(hubProxy.url);
      const exchanged = await hub<HubTokens>('/auth/token/', {
        body: { team_slug: 'northwind', device: {} },
        token: aux?.access,
        pin: 1,
      });
      expect(exchanged.status).toBe(200);
      expect((await hubWhoami(exchanged.body, 0)).status).toBe(200);
      expect((await hubWhoami(exchanged.body, 1)).status).toBe(200);
      const hubRefreshed = await hub<HubTokens>('/auth/token/refresh/', { body: { refresh: exchanged.body.refresh }, pin: 0 });
      expect(hubRefreshed.status).toBe(200);
      const hubTokens = hubRefreshed.body;
      expect((await hubWhoami(hubTokens, 1)).status).toBe(200);
      // The spent token sent again to the other instance within the grace window: the same tokens, not a theft.
      const again = await hub<HubTokens>('/auth/token/refresh/', { body: { refresh: exchanged.body.refresh }, pin: 1 });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(hubTokens);

      // Instance 1 has just read this session (and keeps it for its cache's lifetime)…
      expect((await whoami(tokens.access, 1)).status).toBe(200);
      // …signed out on instance 0…
      const signedOut = await server('/api/v1/user/signout/', { token: tokens.access, pin: 0 });
      expect(signedOut.status).toBe(200);
      // …instance 1 refuses it at once, as does instance 0.
      expect((await whoami(tokens.access, 1)).status).toBe(401);
      expect((await whoami(tokens.access, 0)).status).toBe(401);
      // The Hub session it opened ended with it, on both Hub instances.
      expect((await hubWhoami(hubTokens, 0)).status).toBe(401);
      expect((await hubWhoami(hubTokens, 1)).status).toBe(401);
      expect((await hub('/auth/token/refresh/', { body: { refresh: hubTokens.refresh }, pin: 1 })).status).toBe(400);
    });

    test('every sign-in code is mailed exactly once, whichever instance runs the job', async () => {
      const emails = [DEMO_ADMINS.admin, DEMO_ADMINS.integrator, DEMO_ADMINS.recoveryAgent];
      // Enqueued alternately on each instance (round robin).
      for (const email of emails) {
        const login = await server('/api/v1/console/auth/login/', { body: { email, team_slug: 'northwind' } });
        expect(login.status).toBe(200);
        const password = await server('/api/v1/console/auth/verify/password/', {
          body: { email, password: DEMO_PASSWORD, team_slug: 'northwind' },
        });
        expect(password.status).toBe(200);
      }
      for (const email of emails) expect(await codesMailed(email)).toHaveLength(1);
      // Past a few polling intervals of both workers: still one each.
      await new Promise((r) => setTimeout(r, 1500));
      for (const email of emails) expect(await codesMailed(email)).toHaveLength(1);
      const jobs = await (serverDbs[1] as Db).query<{ state: string; n: number }>(
        "select state::text as state, count(*)::int as n from job_queue.job where name = 'mail' group by state",
      );
      // The super admin's code and these three, each run once and completed.
      expect(jobs).toEqual([{ state: 'completed', n: 1 + emails.length }]);
    });

    test('one refresh token renewed on both instances at once: both answer the same successor, the sessions live on', async () => {
      // An admin no other test here signs in (the helper reads the first code mailed to an address).
      const signedIn = await signIn(DEMO_ADMINS.twoTeams);
      const form = { grant_type: 'refresh_token', refresh_token: signedIn.token.refresh_token };
      const renewed = await Promise.all([0, 1].map((pin) => server<TokenPair>('/oauth/refresh/token/', { form, pin })));
      expect(renewed.map((r) => r.status)).toEqual([200, 200]);
      expect(renewed[1]?.body).toEqual(renewed[0]?.body);
      expect((await whoami((renewed[0] as Answer<TokenPair>).body.access, 1)).status).toBe(200);

      const exchanged = await hub<HubTokens>('/auth/token/', {
        body: { team_slug: 'northwind', device: {} },
        token: signedIn.aux_code?.access,
      });
      expect(exchanged.status).toBe(200);
      const body = { refresh: exchanged.body.refresh };
      const hubRenewed = await Promise.all([0, 1].map((pin) => hub<HubTokens>('/auth/token/refresh/', { body, pin })));
      expect(hubRenewed.map((r) => r.status)).toEqual([200, 200]);
      expect(hubRenewed[1]?.body).toEqual(hubRenewed[0]?.body);
      expect((await hubWhoami((hubRenewed[0] as Answer<HubTokens>).body, 0)).status).toBe(200);
    });

    for (const [name, send] of [
      [
        'server',
        (from: string, forwarded?: string) => call(serverProxy, '/api/v1/team/admin/info/', { client: from, forwarded }),
      ],
      [
        'Hub',
        (from: string, forwarded?: string) =>
          call(hubProxy, '/api/v1/session/', { client: from, forwarded, body: { team_slug: 'northwind' } }),
      ],
    ] as const) {
      test(`the ${name}'s request rate limit counts across both instances`, async () => {
        const from = address();
        const answers = [];
        for (let i = 0; i < RATE_LIMIT; i++) answers.push(await send(from));
        // Half through each instance, none limited…
        expect(answers.filter((a) => a.instance === 0)).toHaveLength(RATE_LIMIT / 2);
        expect(answers.filter((a) => a.status === 429)).toEqual([]);
        // …and the next is refused on either, though each instance alone has seen only half the limit.
        expect((await send(from)).status).toBe(429);
        expect((await send(from)).status).toBe(429);
        // Another client is not.
        expect((await send(address())).status).not.toBe(429);
      });

      test(`a client cannot pass for another at the ${name} by sending its own X-Forwarded-For`, async () => {
        const from = address();
        const answers = [];
        // Each request claims a new address in front of what the proxy appends.
        for (let i = 0; i <= RATE_LIMIT; i++) answers.push((await send(from, address())).status);
        expect(answers.slice(0, RATE_LIMIT).filter((s) => s === 429)).toEqual([]);
        expect(answers.at(-1)).toBe(429);
      });
    }
  });

function listening(app: FastifyInstance): string {
  const { port } = app.server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}
