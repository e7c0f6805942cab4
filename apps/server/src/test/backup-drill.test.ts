import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import type { HubTokens, LoginSuccess } from '@latchkey/contracts';
import { type Db, migrate, openDb } from '@latchkey/runtime';
import { type SmtpReceiver, startSmtpReceiver } from '@latchkey/runtime/testing';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildHub } from '../../../hub/src/app.ts';
import { loadConfig as loadHubConfig } from '../../../hub/src/config.ts';
import { MIGRATIONS_DIR as HUB_MIGRATIONS_DIR } from '../../../hub/src/db/migrations-dir.ts';
import { createEventsService } from '../../../hub/src/features/eventlogs/index.ts';
import { seedDemoRegistration } from '../../../hub/src/features/registrations/demo-seed.ts';
import { loadHubKeys } from '../../../hub/src/platform/keys.ts';
import { buildServer } from '../app.ts';
import { loadConfig } from '../config.ts';
import { MIGRATIONS_DIR } from '../db/migrations-dir.ts';
import { DEMO_ADMINS, DEMO_PASSWORD, seedDemo } from '../features/demo/seed.ts';
import { loadServerKey } from '../features/integration/server-key.ts';

/**
 * The backup drill, as an operator runs it: a seeded server and Hub (members, SSO and SCIM
 * connectors, a Hub event chain) are backed up with their own command lines, wiped, refused a
 * wrong passphrase and a damaged archive (nothing written), restored, and then serve again: an
 * admin signs in over HTTP, the members are all there, the SCIM token still works, the Hub's whole
 * event chain verifies to the same head. On embedded PGlite, and on PostgreSQL (fresh databases).
 */

const onPostgres = process.env.TEST_DB === 'postgres';
const ROOT = join(dirname(new URL(import.meta.url).pathname), '../../../..');
const PASSPHRASE = `drill-${randomBytes(12).toString('hex')}`;

/** A fresh database on the test PostgreSQL server, and how to wipe it (drop, create empty again). */
async function freshDatabase(base: string) {
  const name = `latchkey_drill_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    wipe: async () => {
      await admin(`drop database ${name} with (force)`);
      await admin(`create database ${name}`);
    },
    drop: () => admin(`drop database if exists ${name} with (force)`),
    tables: async () => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: number }>(
          "select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')",
        );
        return rows[0]?.n ?? 0;
      } finally {
        await client.end();
      }
    },
  };
}

/** Runs `npm run cli` / `npm run hub-cli` as the operator does, with only the given configuration. */
function cli(program: 'server' | 'hub', args: string[], env: Record<string, string>) {
  const script = program === 'server' ? 'apps/server/src/cli.ts' : 'apps/hub/src/cli.ts';
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [script, ...args], {
    cwd: ROOT,
    env: { PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`, HOME: tmpdir(), NODE_ENV: 'test', ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out, err })),
  );
}

interface Running {
  server: FastifyInstance;
  hub: FastifyInstance;
  serverDb: Db;
  hubDb: Db;
  serverUrl: string;
  hubUrl: string;
  close(): Promise<void>;
}

describe(`backup and restore of a server and its Hub (${onPostgres ? 'PostgreSQL' : 'embedded PGlite'})`, () => {
  const work = mkdtempSync(join(tmpdir(), 'latchkey-drill-'));
  const serverDir = join(work, 'server');
  const hubDir = join(work, 'hub');
  const serverArchive = join(work, 'server.age');
  const hubArchive = join(work, 'hub.age');
  let smtp: SmtpReceiver;
  let databases:
    | { server: Awaited<ReturnType<typeof freshDatabase>>; hub: Awaited<ReturnType<typeof freshDatabase>> }
    | undefined;
  const serverEnv = () => ({ DATA_DIR: serverDir, ...(databases ? { DATABASE_URL: databases.server.url } : {}) });
  const hubEnv = () => ({ DATA_DIR: hubDir, ...(databases ? { HUB_DATABASE_URL: databases.hub.url } : {}) });

  /** Both programs on their data, as `npm start` runs them (keys from DATA_DIR/keys, none given). */
  async function start(seed: boolean): Promise<Running> {
    const hubConfig = loadHubConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...hubEnv() });
    const hubDb = await openDb({ url: hubConfig.HUB_DATABASE_URL, dataDir: hubDir });
    await migrate(hubDb, HUB_MIGRATIONS_DIR);
    const hub = await buildHub({ config: hubConfig, db: hubDb });
    const hubUrl = await hub.listen({ port: 0, host: '127.0.0.1' });
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SMTP_URL: smtp.url,
      WEB_DIST: join(tmpdir(), 'latchkey-no-web-dist'),
      ...serverEnv(),
    });
    const serverDb = await openDb({ url: config.DATABASE_URL, dataDir: serverDir });
    await migrate(serverDb, MIGRATIONS_DIR);
    if (seed) await seedDemo(serverDb, { hubUrl, hubKey: JSON.stringify(loadHubKeys(hubConfig).publicJwk) });
    else await serverDb.query("update hubs set server_url = $1 where credential_id = 'demo-hub'", [hubUrl]);
    const server = await buildServer({ config, db: serverDb });
    const serverUrl = await server.listen({ port: 0, host: '127.0.0.1' });
    if (seed)
      await seedDemoRegistration(hubDb, {
        teamSlug: 'northwind',
        credentialId: 'demo-hub',
        serverKey: JSON.stringify(loadServerKey(config).publicJwk),
        serverUrl,
      });
    else await hubDb.query('update registrations set server_url = $1', [serverUrl]);
    return {
      server,
      hub,
      serverDb,
      hubDb,
      serverUrl,
      hubUrl,
      async close() {
        await server.close();
        await hub.close();
        await serverDb.close();
        await hubDb.close();
      },
    };
  }

  const post = async <T = Record<string, unknown>>(url: string, body: unknown, token?: string) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as T, text };
  };

  /** login → password → emailed code, over HTTP, then the Hub session from the aux code. */
  async function signIn(run: Running, email: string) {
    const api = (path: string, body: unknown) => post(`${run.serverUrl}/api/v1/console/auth/${path}`, body);
    expect((await api('login/', { email, team_slug: 'northwind' })).status).toBe(200);
    expect((await api('verify/password/', { email, password: DEMO_PASSWORD, team_slug: 'northwind' })).status).toBe(200);
    const deadline = Date.now() + 10_000;
    let code: string | undefined;
    while (!code && Date.now() < deadline) {
      const mail = smtp.mail.filter((m) => m.to.includes(email)).at(-1);
      code = mail && /sign-in code: (\d{6})/.exec(mail.raw)?.[1];
      if (!code) await new Promise((r) => setTimeout(r, 50));
    }
    smtp.mail.splice(0);
    const done = await post<LoginSuccess>(`${run.serverUrl}/api/v1/console/auth/verify/otp/`, {
      email,
      otp: code,
      password: DEMO_PASSWORD,
      team_slug: 'northwind',
    });
    expect(done.status, done.text).toBe(200);
    const hub = await post<HubTokens>(
      `${run.hubUrl}/auth/token/`,
      { team_slug: 'northwind', device: {} },
      done.body.aux_code?.access,
    );
    expect(hub.status, hub.text).toBe(200);
    return { console: done.body.token.access, hub: hub.body.access };
  }

  /** Every member's email, page by page, through the members API. */
  async function members(run: Running, token: string): Promise<string[]> {
    const emails: string[] = [];
    let after: string | null = null;
    do {
      const page: { status: number; body: { results: { email: string }[]; next_cursor: string | null } } = await post(
        `${run.serverUrl}/api/v1/team/members/`,
        { after, page_size: 100 },
        token,
      );
      expect(page.status).toBe(200);
      emails.push(...page.body.results.map((m) => m.email));
      after = page.body.next_cursor;
    } while (after);
    return emails;
  }

  const verifyChain = async (run: Running, hubToken: string) =>
    post<{ ok: boolean; checked: number; last_seq: number; head_hash: string }>(
      `${run.hubUrl}/audit/logs/verify/`,
      { team_slug: 'northwind' },
      hubToken,
    );

  /** Everything in a directory, for "nothing was written". */
  const files = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : []);

  const before: {
    members: string[];
    chain: { checked: number; last_seq: number; head_hash: string };
    scimToken: string;
    ssoName: string;
  } = {
    members: [],
    chain: { checked: 0, last_seq: 0, head_hash: '' },
    scimToken: '',
    ssoName: `Okta ${randomUUID().slice(0, 8)}`,
  };
  let consoleTokenBefore = '';

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    if (onPostgres) {
      const base = process.env.TEST_DATABASE_URL as string;
      databases = { server: await freshDatabase(base), hub: await freshDatabase(base) };
    }
    const run = await start(true);
    try {
      const tokens = await signIn(run, DEMO_ADMINS.superAdmin);
      consoleTokenBefore = tokens.console;
      const scim = await post<{ token: string }>(
        `${run.serverUrl}/api/v1/team/scim/connector/create/`,
        { idp: 'okta', name: 'Okta' },
        tokens.console,
      );
      expect(scim.status, scim.text).toBe(200);
      before.scimToken = scim.body.token;
      const sso = await post(
        `${run.serverUrl}/sso/login/config/create/`,
        { config_name: before.ssoName, idp_type: 'generic_saml' },
        tokens.console,
      );
      expect(sso.status, sso.text).toBe(200);
      // A member through SCIM, as the IdP adds one.
      const scimUser = await fetch(`${run.serverUrl}/scim/v2/Users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${before.scimToken}`, 'content-type': 'application/scim+json' },
        body: JSON.stringify({
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          userName: 'drill.member@northwind.example',
          name: { givenName: 'Drill', familyName: 'Member' },
          active: true,
        }),
      });
      expect(scimUser.status).toBe(201);
      // The licence server's signed feed of admin activity, as it lands on the Hub's chain.
      await createEventsService(run.hubDb, { selfHosted: true }).ingestFromServer(
        'northwind',
        Array.from({ length: 120 }, (_, i) => ({
          id: randomUUID(),
          actor: DEMO_ADMINS.admin,
          actor_type: 'admin',
          activity: i % 2 ? 'group.created' : 'member.invited',
          component: i % 2 ? 'groups' : 'members',
          target: `drill ${i}`,
          occurred_at: new Date(Date.now() - (120 - i) * 1000).toISOString(),
        })),
      );
      before.members = await members(run, tokens.console);
      expect(before.members).toContain('drill.member@northwind.example');
      const chain = await verifyChain(run, tokens.hub);
      expect(chain.body).toMatchObject({ ok: true });
      expect(chain.body.checked).toBeGreaterThanOrEqual(120);
      before.chain = chain.body;
    } finally {
      await run.close();
    }
  }, 240_000);

  afterAll(async () => {
    await smtp?.close();
    await databases?.server.drop();
    await databases?.hub.drop();
    rmSync(work, { recursive: true, force: true });
  });

  test('each program backs up its database and keys into one encrypted archive of its own', async () => {
    const server = await cli('server', ['backup', serverArchive], { ...serverEnv(), BACKUP_PASSPHRASE: PASSPHRASE });
    expect(server.code, server.err).toBe(0);
    expect(server.out).toMatch(/Wrote .*server\.age/);
    const hub = await cli('hub', ['backup', hubArchive], { ...hubEnv(), BACKUP_PASSPHRASE: PASSPHRASE });
    expect(hub.code, hub.err).toBe(0);
    // Encrypted: neither a member's address nor a key is readable in it.
    const sealed = readFileSync(serverArchive);
    expect(sealed.subarray(0, 21).toString()).toBe('age-encryption.org/v1');
    expect(sealed.includes('drill.member@northwind.example')).toBe(false);
    const sealingKey = readFileSync(join(serverDir, 'keys', 'sealing_key'), 'utf8').trim();
    expect(sealed.includes(sealingKey)).toBe(false);
    // Never over an existing file.
    const again = await cli('server', ['backup', serverArchive], { ...serverEnv(), BACKUP_PASSPHRASE: PASSPHRASE });
    expect(again.code).toBe(1);
    expect(again.err).toContain('exists already');
  }, 240_000);

  test('wiped, the deployment refuses a wrong passphrase, a damaged archive and the other program’s archive, writing nothing', async () => {
    rmSync(serverDir, { recursive: true, force: true });
    rmSync(hubDir, { recursive: true, force: true });
    await databases?.server.wipe();
    await databases?.hub.wipe();

    const wrong = await cli('server', ['restore', serverArchive], {
      ...serverEnv(),
      BACKUP_PASSPHRASE: 'not-the-passphrase-at-all',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('wrong passphrase or key');

    // One byte changed in the middle of the dump: the archive fails its authentication there.
    const damaged = join(work, 'damaged.age');
    const bytes = readFileSync(serverArchive);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
    writeFileSync(damaged, bytes);
    const broken = await cli('server', ['restore', damaged], { ...serverEnv(), BACKUP_PASSPHRASE: PASSPHRASE });
    expect(broken.code).toBe(1);
    expect(broken.err).toContain('damaged or cut short');

    const swapped = await cli('hub', ['restore', serverArchive], { ...hubEnv(), BACKUP_PASSPHRASE: PASSPHRASE });
    expect(swapped.code).toBe(1);
    expect(swapped.err).toContain('This is a backup of a server');

    // Nothing written: no key, no embedded database, no table.
    expect(files(join(serverDir, 'keys'))).toEqual([]);
    expect(existsSync(join(serverDir, 'PG_VERSION'))).toBe(false);
    expect(files(join(hubDir, 'keys'))).toEqual([]);
    if (databases) expect(await databases.server.tables()).toBe(0);
  }, 240_000);

  test('restored, both programs serve again: sign-in over HTTP, every member, the SSO and SCIM connectors, the whole event chain', async () => {
    const server = await cli('server', ['restore', serverArchive], { ...serverEnv(), BACKUP_PASSPHRASE: PASSPHRASE });
    expect(server.code, server.err).toBe(0);
    expect(server.out).toContain(`Restored the server's ${onPostgres ? 'postgres' : 'pglite'} database`);
    const hub = await cli('hub', ['restore', hubArchive], { ...hubEnv(), BACKUP_PASSPHRASE: PASSPHRASE });
    expect(hub.code, hub.err).toBe(0);

    // Restore goes into an empty deployment only: a second one is refused.
    const twice = await cli('server', ['restore', serverArchive], { ...serverEnv(), BACKUP_PASSPHRASE: PASSPHRASE });
    expect(twice.code).toBe(1);
    expect(twice.err).toContain('Restore goes into an empty deployment only');

    const run = await start(false);
    try {
      // The token key came back: a session's access token from before the backup is still good.
      expect((await post(`${run.serverUrl}/api/v1/team/members/count/`, {}, consoleTokenBefore)).status).toBe(200);
      // The server's signing key came back: the Hub, which pinned it, accepts the new sign-in's aux code.
      const tokens = await signIn(run, DEMO_ADMINS.superAdmin);
      expect(await members(run, tokens.console)).toEqual(before.members);
      const chain = await verifyChain(run, tokens.hub);
      // The whole chain verifies, and it is the same chain: the event that was the head is there with its hash
      // (this sign-in may have added events after it).
      expect(chain.body).toMatchObject({ ok: true });
      expect(chain.body.checked).toBeGreaterThanOrEqual(before.chain.checked);
      const [head] = await run.hubDb.query<{ hash: string }>(
        "select hash from event_log where team_slug = 'northwind' and seq = $1",
        [before.chain.last_seq],
      );
      expect(head?.hash).toBe(before.chain.head_hash);
      const sso = await post<{ configs: { config_name: string }[] }>(`${run.serverUrl}/sso/login/configs/`, {}, tokens.console);
      expect(sso.body.configs.map((c) => c.config_name)).toContain(before.ssoName);
      // The SCIM token (stored as a hash) still lets the IdP in.
      const scim = await fetch(
        `${run.serverUrl}/scim/v2/Users?filter=${encodeURIComponent('userName eq "drill.member@northwind.example"')}`,
        {
          headers: { authorization: `Bearer ${before.scimToken}` },
        },
      );
      expect(scim.status).toBe(200);
      expect(((await scim.json()) as { totalResults: number }).totalResults).toBe(1);
    } finally {
      await run.close();
    }
  }, 240_000);
});
