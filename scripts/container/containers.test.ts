import { randomBytes } from 'node:crypto';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, generateEd25519Key, generateSymmetricKey } from '@latchkey/runtime';
import { createPostgresDb, type SmtpReceiver, startSmtpReceiver } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { MIGRATIONS_DIR as HUB_MIGRATIONS_DIR } from '../../apps/hub/src/db/migrations-dir.ts';
import { MIGRATIONS_DIR } from '../../apps/server/src/db/migrations-dir.ts';
import { DEMO_ADMINS, DEMO_PASSWORD } from '../../apps/server/src/features/demo/seed.ts';
import {
  PEER_HEADER,
  type RoundRobinProxy,
  startRoundRobinProxy,
  UPSTREAM_HEADER,
} from '../../apps/server/src/test/round-robin-proxy.ts';
import { buildImage, imageSize } from './image.mjs';
import { findManifest, type Manifest } from './manifests.ts';
import { kubeConf, podman, podmanMissing, RUN_FLAGS } from './podman.mjs';

/**
 * The image as an operator runs it, on PostgreSQL (TEST_DB=postgres): built from the Containerfile,
 * two server containers and a Hub container on the host's network, the machine's PostgreSQL (a
 * fresh database per test) and Redis, a round-robin proxy in front; then the Kubernetes manifests'
 * pods played by `podman kube play`. Where podman cannot run these tests are skipped, saying why;
 * in CI they must run.
 */
const missing = podmanMissing();
if (missing && process.env.CI) throw new Error(`CI runs the container tests, and ${missing}.`);
if (missing) console.warn(`The container tests are skipped on this machine: ${missing}.`);

const TAG = 'localhost/latchkey:test';
const run = `lk-${randomBytes(3).toString('hex')}`;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const METRICS_TOKEN = randomBytes(24).toString('hex');
const cleanup: (() => unknown)[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits until the container answers 200 at http://127.0.0.1:port/path; the time it took, in seconds. */
async function readyAt(container: string, port: number, path = '/readyz', timeoutMs = 180_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (podman(['inspect', '--format', '{{.State.Running}}', container]).trim() !== 'true')
      throw new Error(`${container} stopped before it was ready:\n${podman(['logs', '--tail', '20', container])}`);
    const status = await fetch(`http://127.0.0.1:${port}${path}`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return (Date.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${container} was not ready at ${port}${path} after ${timeoutMs / 1000} s`);
}

/** Key files as a Secret mounts them: one file per key, readable by the image's user only. */
function keyDir(keys: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-keys-'));
  chownSync(dir, 65532, 65532);
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, value] of Object.entries(keys)) {
    writeFileSync(join(dir, name), value, { mode: 0o400 });
    chownSync(join(dir, name), 65532, 65532);
  }
  return dir;
}
const serverKeys = () => ({
  token_secret: generateSymmetricKey(),
  sealing_key: generateSymmetricKey(),
  code_hash_key: generateSymmetricKey(),
  server_signing_key: generateEd25519Key(),
});
const hubKeys = () => ({
  hub_token_secret: generateSymmetricKey(),
  hub_signing_key: generateEd25519Key(),
  hub_setup_secret: generateSymmetricKey(),
});
const SERVER_KEY_FILES = {
  TOKEN_SECRET_FILE: '/run/secrets/latchkey/token_secret',
  SEALING_KEY_FILE: '/run/secrets/latchkey/sealing_key',
  CODE_HASH_KEY_FILE: '/run/secrets/latchkey/code_hash_key',
  SERVER_SIGNING_KEY_FILE: '/run/secrets/latchkey/server_signing_key',
};
const HUB_KEY_FILES = {
  HUB_TOKEN_SECRET_FILE: '/run/secrets/latchkey/hub_token_secret',
  HUB_SIGNING_KEY_FILE: '/run/secrets/latchkey/hub_signing_key',
  HUB_SETUP_SECRET_FILE: '/run/secrets/latchkey/hub_setup_secret',
};

async function freshDatabase(migrations: string): Promise<Db & { url: string }> {
  const db = await createPostgresDb(migrations);
  cleanup.push(() => db.close());
  return db;
}

/** `podman run` of the image on the host's network, read-only, the keys mounted; its name. */
function runContainer(name: string, command: string, env: Record<string, string>, keys: string): string {
  const container = `${run}-${name}`;
  const settings = Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
  podman([
    'run',
    '--detach',
    '--name',
    container,
    '--network',
    'host',
    '--read-only',
    ...RUN_FLAGS,
    ...settings,
    '--volume',
    `${keys}:/run/secrets/latchkey:ro`,
    TAG,
    command,
  ]);
  cleanup.push(() => podman(['rm', '--force', '--volumes', container]));
  return container;
}

/** The count of a route's answers with a status, from one instance's Prometheus metrics. */
async function answered(port: number, route: string, status: number): Promise<number> {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then(
    (r) => r.text(),
  );
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('http_request_duration_seconds_count{') &&
        l.includes(`route="${route}"`) &&
        l.includes(`status="${status}"`),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

beforeAll(() => {
  if (!missing) buildImage({ tag: TAG, log: () => {} });
}, 1_200_000);

afterAll(async () => {
  for (const step of cleanup.reverse()) {
    try {
      await step();
    } catch (error) {
      console.warn(`cleaning up: ${(error as Error).message}`);
    }
  }
}, 120_000);

describe.skipIf(missing)('the image', () => {
  test(`is at most 250 MB, runs unprivileged, checks its health on /readyz, and holds the command lines`, () => {
    const size = imageSize(TAG);
    console.info(`image ${TAG}: ${(size / 1e6).toFixed(0)} MB`);
    expect(size).toBeLessThanOrEqual(250e6);
    const [config] = JSON.parse(podman(['image', 'inspect', TAG]));
    expect(config.Config.User).toBe('65532:65532');
    expect(config.Healthcheck.Test).toEqual(['CMD', '/nodejs/bin/node', '/app/latchkey.mjs', 'healthcheck']);
    const help = podman([
      'run',
      '--rm',
      '--read-only',
      ...RUN_FLAGS,
      '--env',
      'SMTP_URL=smtp://mail.example.com',
      TAG,
      'cli',
      'help',
    ]);
    expect(help).toContain('usage: latchkey <command>');
    expect(help).toContain('doctor');
  });

  test('two server containers and a Hub container behind a round-robin proxy: signed in through one, every call answered by both', async () => {
    const serverDb = await freshDatabase(MIGRATIONS_DIR);
    const hubDb = await freshDatabase(HUB_MIGRATIONS_DIR);
    const smtp: SmtpReceiver = await startSmtpReceiver();
    cleanup.push(() => smtp.close());
    // A documentation address of this run's own: the rate counters in the shared Redis are keyed by client.
    const peerAddress = `2001:db8:${randomBytes(2).toString('hex')}::${randomBytes(2).toString('hex')}`;
    const proxy: RoundRobinProxy = await startRoundRobinProxy({ peerAddress });
    cleanup.push(() => proxy.close());
    const keys = keyDir(serverKeys());
    const ports = [await freePort(), await freePort()];
    const env = (port: number) => ({
      PORT: String(port),
      DATABASE_URL: serverDb.url,
      REDIS_URL,
      SMTP_URL: smtp.url,
      PUBLIC_URL: proxy.url,
      METRICS_TOKEN,
      TRUST_PROXY: '1',
      ...SERVER_KEY_FILES,
    });
    // The first seeds the demo teams; the second starts on that data.
    const first = runContainer('server-1', 'server', { ...env(ports[0] as number), SEED_DEMO: '1' }, keys);
    await readyAt(first, ports[0] as number);
    // The image's HEALTHCHECK, run as the runtime runs it.
    podman(['healthcheck', 'run', first]);
    const second = runContainer('server-2', 'server', env(ports[1] as number), keys);
    const hubPort = await freePort();
    const hub = runContainer(
      'hub',
      'hub',
      {
        PORT: String(hubPort),
        HUB_DATABASE_URL: hubDb.url,
        REDIS_URL,
        SMTP_URL: smtp.url,
        ALLOWED_ORIGINS: proxy.url,
        ...HUB_KEY_FILES,
      },
      keyDir(hubKeys()),
    );
    const secondReadyIn = await readyAt(second, ports[1] as number);
    console.info(`second server container: ready in ${secondReadyIn.toFixed(1)} s on existing data`);
    await readyAt(hub, hubPort);
    proxy.setUpstreams(ports.map((port) => `http://127.0.0.1:${port}`));

    const call = async (path: string, body: unknown, token?: string) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', [PEER_HEADER]: peerAddress };
      if (token) headers.authorization = `Bearer ${token}`;
      const response = await fetch(proxy.url + path, { method: 'POST', headers, body: JSON.stringify(body) });
      return { status: response.status, instance: Number(response.headers.get(UPSTREAM_HEADER)), body: await response.json() };
    };
    const email = DEMO_ADMINS.superAdmin;
    expect((await call('/api/v1/console/auth/login/', { email, team_slug: 'northwind' })).status).toBe(200);
    const password = await call('/api/v1/console/auth/verify/password/', {
      email,
      password: DEMO_PASSWORD,
      team_slug: 'northwind',
    });
    expect(password.status).toBe(200);
    const [mail] = await smtp.waitFor(email, 1, 20_000);
    const otp = /sign-in code: (\d{6})/.exec(mail?.raw ?? '')?.[1];
    const signedIn = await call('/api/v1/console/auth/verify/otp/', {
      email,
      otp,
      password: DEMO_PASSWORD,
      team_slug: 'northwind',
    });
    expect(signedIn.status).toBe(200);
    const token = signedIn.body.token.access as string;

    const ROUTE = '/api/v1/team/admin/info/';
    const before = await Promise.all(ports.map((port) => answered(port, ROUTE, 200)));
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await call(ROUTE, {}, token));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.map((a) => a.instance).sort()).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
    // Each instance counts the five it answered itself: the session made on one holds on the other.
    const after = await Promise.all(ports.map((port) => answered(port, ROUTE, 200)));
    expect(after.map((count, i) => count - (before[i] as number))).toEqual([5, 5]);
  }, 300_000);

  test('a server container stopped with SIGTERM drains and exits 0, and starts again on its data', async () => {
    const db = await freshDatabase(MIGRATIONS_DIR);
    const port = await freePort();
    const container = runContainer(
      'restart',
      'server',
      { PORT: String(port), DATABASE_URL: db.url, REDIS_URL, SMTP_URL: 'smtp://127.0.0.1:2525', ...SERVER_KEY_FILES },
      keyDir(serverKeys()),
    );
    await readyAt(container, port);
    podman(['stop', '--time', '30', container]);
    expect(podman(['inspect', '--format', '{{.State.ExitCode}}', container]).trim()).toBe('0');
    expect(podman(['logs', container])).toContain('"msg":"stopped"');
    podman(['start', container]);
    const coldStart = await readyAt(container, port);
    console.info(`server container cold start to ready on existing data: ${coldStart.toFixed(1)} s`);
    expect(coldStart).toBeLessThan(60);
  }, 300_000);
});

describe.skipIf(missing)('the Kubernetes manifests, played by podman', () => {
  /** A Deployment's pod as `podman kube play` takes it: on the host's network, this machine's services and key files. */
  function podOf(deployment: Manifest, name: string, settings: Record<string, string>, keys: string): Manifest {
    const spec = structuredClone(deployment.spec.template.spec);
    const port = settings.PORT;
    for (const container of spec.containers) {
      container.image = TAG;
      // On the host's network a pod publishes no port (podman refuses port mappings there).
      delete container.ports;
      const given = new Set(Object.keys(settings));
      container.env = [
        ...container.env.filter((e: Manifest) => !given.has(e.name)),
        ...Object.entries(settings).map(([key, value]) => ({ name: key, value })),
      ];
      for (const probe of ['readinessProbe', 'livenessProbe', 'startupProbe'])
        if (container[probe]?.httpGet) container[probe].httpGet.port = Number(port);
    }
    spec.hostNetwork = true;
    spec.volumes = spec.volumes.map((v: Manifest) =>
      v.secret ? { name: v.name, hostPath: { path: keys, type: 'Directory' } } : v,
    );
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${run}-kube-${name}`, labels: deployment.spec.template.metadata.labels },
      spec,
    };
  }

  test("the server's and the Hub's pods start and turn ready on their readiness probe", async () => {
    const server = findManifest('Deployment', 'latchkey-server');
    const hub = findManifest('Deployment', 'latchkey-hub');
    const serverDb = await freshDatabase(MIGRATIONS_DIR);
    const hubDb = await freshDatabase(HUB_MIGRATIONS_DIR);
    const serverKeyDir = keyDir(serverKeys());
    const common = { REDIS_URL, SMTP_URL: 'smtp://127.0.0.1:2525', METRICS_TOKEN };
    const pods: Manifest[] = [];
    for (let i = 1; i <= server.spec.replicas; i++)
      pods.push(
        podOf(
          server,
          `server-${i}`,
          { ...common, PORT: String(await freePort()), DATABASE_URL: serverDb.url, PUBLIC_URL: 'https://latchkey.example.com' },
          serverKeyDir,
        ),
      );
    pods.push(
      podOf(
        hub,
        'hub',
        {
          ...common,
          PORT: String(await freePort()),
          HUB_DATABASE_URL: hubDb.url,
          ALLOWED_ORIGINS: 'https://latchkey.example.com',
        },
        keyDir(hubKeys()),
      ),
    );
    const dir = mkdtempSync(join(tmpdir(), 'latchkey-kube-'));
    const file = join(dir, 'pods.yaml');
    writeFileSync(file, pods.map((pod) => stringify(pod)).join('---\n'));
    const env = { ...process.env, CONTAINERS_CONF: kubeConf() };
    cleanup.push(() => {
      podman(['kube', 'down', file], { env });
      rmSync(dir, { recursive: true, force: true });
    });
    podman(['kube', 'play', file], { env });

    for (const pod of pods) {
      const [container] = pod.spec.containers;
      const probe = container.readinessProbe.httpGet;
      const readyIn = await readyAt(`${pod.metadata.name}-${container.name}`, probe.port, probe.path);
      console.info(`${pod.metadata.name}: ready in ${readyIn.toFixed(1)} s`);
      // Played as the manifest says: the image's user, a read-only root.
      const [inspected] = JSON.parse(podman(['inspect', `${pod.metadata.name}-${container.name}`]));
      expect(inspected.Config.User).toBe('65532:65532');
      expect(inspected.HostConfig.ReadonlyRootfs).toBe(true);
    }
  }, 300_000);
});
