// The doctor as an operator meets it: /readyz?verbose over HTTP on a real server and database, the
// checks against real SMTP, Redis, TLS and HTTP endpoints, and `npm run cli -- doctor` as a child process.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { keyFile, migrate, openDb } from '@latchkey/runtime';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Config } from './config.ts';
import { MIGRATIONS_DIR } from './db/migrations-dir.ts';
import { registerVerboseReadiness } from './doctor.ts';
import { jobsCheck, tlsCheck } from './platform/doctor/checks.ts';
import type { Finding } from './platform/doctor/findings.ts';
import { selfSignedRsa } from './platform/self-signed.ts';
import { type Harness, HUB_URL, startHarness } from './test/harness.ts';

let h: Harness;
const servers: { close(): unknown }[] = [];
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  for (const s of servers) s.close();
  await h?.close();
});

/** /readyz?verbose of a server with this configuration over the harness's database, over HTTP. */
async function verbose(overrides: Partial<Config> = {}, authorization?: string) {
  const app = Fastify();
  registerVerboseReadiness(app, { ...h.config, PUBLIC_URL: h.url, ...overrides }, h.db);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  servers.push(app);
  const response = await fetch(`${url}/readyz?verbose`, { headers: authorization ? { authorization } : {} });
  return { status: response.status, body: (await response.json()) as { status: string; checks: Finding[] } };
}
const finding = (checks: Finding[], name: string, text: string) =>
  checks.find((f) => f.check === name && f.detail.includes(text));

/** An HTTP server answering /healthz with its clock `offsetSeconds` away from ours: a Hub whose clock drifted. */
async function hubWithClock(offsetSeconds: number): Promise<string> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, {
      date: new Date(Date.now() + offsetSeconds * 1000).toUTCString(),
      'content-type': 'application/json',
    });
    response.end('{"status":"ok"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe('GET /readyz', () => {
  test('without verbose, answers as before', async () => {
    const reply = await h.get('/readyz');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ready' });
  });

  test('verbose on a healthy deployment: database migrated, SMTP answers EHLO, PUBLIC_URL is this console, keys owner-only, jobs flowing', async () => {
    const { status, body } = await verbose({ REDIS_URL });
    expect(status).toBe(200);
    expect(body.status).toBe('ready');
    expect(finding(body.checks, 'redis', 'answered PONG')?.verdict).toBe('ok');
    const verdict = (name: string) => body.checks.filter((f) => f.check === name).map((f) => f.verdict);
    expect(finding(body.checks, 'database', 'migrations applied')?.verdict).toBe('ok');
    expect(finding(body.checks, 'smtp', 'answered EHLO')?.verdict).toBe('ok');
    expect(finding(body.checks, 'public_url', 'answers as a Latchkey server')?.verdict).toBe('ok');
    expect(verdict('keys')).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(finding(body.checks, 'keys', 'hub-signing-ed25519.pem: from the environment')).toBeDefined();
    expect(verdict('jobs')).toEqual(['ok']);
    // The demo team's Hub address has nobody listening in these tests.
    expect(finding(body.checks, 'hubs', `${HUB_URL} cannot be reached`)?.verdict).toBe('problem');
  });

  test('the words name what is wrong: Redis and SMTP down, PUBLIC_URL elsewhere, a key file others can read', async () => {
    const file = keyFile(h.config.DATA_DIR, 'token_secret');
    chmodSync(file, 0o644);
    try {
      const { status, body } = await verbose({
        REDIS_URL: 'redis://:secret-password@127.0.0.1:1',
        SMTP_URL: 'smtp://127.0.0.1:1',
        PUBLIC_URL: 'http://127.0.0.1:1',
      });
      // None of these takes the instance out of the load balancer: the database answers.
      expect(status).toBe(200);
      expect(finding(body.checks, 'redis', '127.0.0.1:1 cannot be reached')?.verdict).toBe('problem');
      expect(JSON.stringify(body)).not.toContain('secret-password');
      expect(finding(body.checks, 'smtp', '127.0.0.1:1: connect ECONNREFUSED')?.verdict).toBe('problem');
      expect(finding(body.checks, 'public_url', 'http://127.0.0.1:1 cannot be reached')?.verdict).toBe('problem');
      expect(finding(body.checks, 'keys', `chmod 600 ${file}`)?.verdict).toBe('problem');
      expect(finding(body.checks, 'keys', 'mode 0644')).toBeDefined();
    } finally {
      chmodSync(file, 0o600);
    }
  });

  test("a Hub's clock: close is fine, 2 minutes off is a problem a signed call would meet", async () => {
    const [row] = await h.db.query<{ server_url: string }>('select server_url from hubs where server_url is not null limit 1');
    const near = await hubWithClock(2);
    const far = await hubWithClock(-120);
    try {
      await h.db.query('update hubs set server_url = $1 where server_url = $2', [near, row?.server_url]);
      const close = await verbose();
      expect(finding(close.body.checks, 'hubs', `${near} is reachable; its clock is`)?.verdict).toBe('ok');
      await h.db.query('update hubs set server_url = $1 where server_url = $2', [far, near]);
      const drifted = await verbose();
      const found = finding(drifted.body.checks, 'hubs', `${far} is reachable`);
      expect(found?.verdict).toBe('problem');
      expect(found?.detail).toMatch(/clock is 1(19|20|21) s from ours: signed calls are refused beyond 30 s/);
    } finally {
      await h.db.query('update hubs set server_url = $1 where server_url in ($2, $3)', [row?.server_url, near, far]);
    }
  });

  test('verbose needs the metrics token when one is set, and is not served in production without one', async () => {
    const token = 'doctor-token-0123456789';
    expect((await verbose({ METRICS_TOKEN: token })).status).toBe(401);
    expect((await verbose({ METRICS_TOKEN: token }, 'Bearer wrong-token-000000000')).status).toBe(401);
    expect((await verbose({ METRICS_TOKEN: token }, `Bearer ${token}`)).status).toBe(200);
    expect((await verbose({ NODE_ENV: 'production' })).status).toBe(401);
  });
});

describe('the certificate check', () => {
  let port = 0;
  let certificatePem = '';
  let notAfter = 0;

  beforeAll(async () => {
    const made = await selfSignedRsa('localhost', 1);
    certificatePem = made.certificatePem;
    notAfter = Date.parse(new X509Certificate(certificatePem).validTo);
    const server = tls.createServer({ key: made.privateKeyPem, cert: made.certificatePem }, (socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    port = (server.address() as { port: number }).port;
  });

  const trusted = () =>
    new Promise<tls.TLSSocket>((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port, servername: 'localhost', ca: certificatePem }, () => resolve(socket));
      socket.once('error', reject);
    });
  const run = async (now: number, connect?: () => Promise<tls.TLSSocket>) =>
    (await tlsCheck([{ label: 'PUBLIC_URL', host: 'localhost', port, connect }], () => now).run()) as Omit<Finding, 'check'>[];

  test('a certificate nobody vouches for is a problem', async () => {
    const [found] = await run(Date.now());
    expect(found?.verdict).toBe('problem');
    expect(found?.detail).toContain('is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT)');
  });

  test('trusted: fine with time left, a warning within 14 days, a problem once expired', async () => {
    expect((await run(Date.now(), trusted))[0]?.verdict).toBe('ok');
    const soon = (await run(notAfter - 5 * 86_400_000, trusted))[0];
    expect(soon?.verdict).toBe('warning');
    expect(soon?.detail).toMatch(/expires on \d{4}-\d{2}-\d{2}, in [45] days/);
    const late = (await run(notAfter + 86_400_000, trusted))[0];
    expect(late?.verdict).toBe('problem');
    expect(late?.detail).toContain('the certificate expired on');
  });
});

describe('the job queue check', () => {
  test('due jobs waiting long mean no worker runs them', async () => {
    const schema = `doctor_jobs_${process.pid}`;
    await h.db.query(`create schema ${schema}`);
    await h.db.query(`create table ${schema}.job (state text not null, start_after timestamptz not null)`);
    const check = jobsCheck(h.db, schema);
    expect(await check.run()).toMatchObject({ verdict: 'ok', detail: '0 jobs due, the oldest waiting 0 s' });
    await h.db.query(`insert into ${schema}.job values ('created', now() - interval '2 minutes'), ('failed', now())`);
    expect(await check.run()).toMatchObject({ verdict: 'warning' });
    await h.db.query(`insert into ${schema}.job values ('retry', now() - interval '20 minutes')`);
    const stuck = (await check.run()) as Omit<Finding, 'check'>;
    expect(stuck.verdict).toBe('problem');
    expect(stuck.detail).toMatch(
      /^2 jobs due, the oldest waiting 1\d{3} s; 1 failed for good .*: are the server's workers running\?$/,
    );
  });
});

describe('npm run cli -- doctor (embedded database)', () => {
  const ROOT = join(import.meta.dirname, '../../..');
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-doctor-'));
  async function doctor(): Promise<{ code: number; stdout: string; stderr: string }> {
    const env = { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir };
    try {
      const run = await promisify(execFile)(
        join(ROOT, 'node_modules/.bin/tsx'),
        [join(ROOT, 'apps/server/src/cli.ts'), 'doctor'],
        {
          env,
          timeout: 60_000,
        },
      );
      return { code: 0, ...run };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  test('reports missing migrations without applying them (exit 1), then passes once migrated (exit 0)', async () => {
    const fresh = await doctor();
    expect(fresh.code).toBe(1);
    expect(fresh.stdout).toMatch(/✘ database +the embedded database in .* reachable; (\d+) of \1 migrations not applied/);
    expect(fresh.stderr).toContain('latchkey doctor: 1 problem to fix.');
    const again = await doctor();
    expect(again.stdout).toContain('migrations not applied');

    const db = await openDb({ dataDir });
    await migrate(db, MIGRATIONS_DIR);
    await db.close();
    const migrated = await doctor();
    expect(migrated.code, migrated.stdout + migrated.stderr).toBe(0);
    expect(migrated.stdout).toMatch(/✔ database +the embedded database in .* reachable; all \d+ migrations applied/);
    expect(migrated.stdout).toContain('! smtp          SMTP_URL is not set');
  }, 180_000);

  test('a data directory a running server holds: the doctor says where to ask instead', async () => {
    const db = await openDb({ dataDir });
    try {
      const held = await doctor();
      expect(held.code).toBe(1);
      expect(held.stderr).toContain('is in use by a running server: ask it at /readyz?verbose');
    } finally {
      await db.close();
    }
  }, 120_000);
});
