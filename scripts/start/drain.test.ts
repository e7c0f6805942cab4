import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type ClientRequest, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { buildIsStale } from './build-if-stale.mjs';

/**
 * How the built server stops when a container runtime or Kubernetes sends SIGTERM: /readyz turns
 * 503 first, a request in flight gets its answer, then the process exits 0; work that outlasts
 * the grace period is abandoned with exit 1. The program runs as a child on an embedded database
 * of the test's own (its first start creates it; the second start reuses it).
 */
const root = new URL('../..', import.meta.url).pathname;
const INHERITED = /^(DATABASE_URL|HUB_DATABASE_URL|REDIS_URL|SMTP_URL|PUBLIC_URL|DATA_DIR|TEST_.*|VITEST.*|PORT|HOST|NODE_ENV)$/;
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !INHERITED.test(name)));
const LOGIN = '/api/v1/console/auth/login/';

let dataDir: string;
let program: { child: ChildProcess; port: number; output: () => string; exited: Promise<number | null> } | undefined;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const readiness = (port: number) =>
  fetch(`http://127.0.0.1:${port}/readyz`).then(
    (response) => response.status,
    () => 'refused' as const,
  );

async function startServer(settings: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ['apps/server/dist/main.mjs'], {
    cwd: root,
    env: { ...baseEnv, NODE_ENV: 'test', PORT: String(port), DATA_DIR: dataDir, ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk) => {
    text += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    text += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  program = { child, port, output: () => text, exited };
  const deadline = Date.now() + 90_000;
  while ((await readiness(port)) !== 200) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return program;
}

/** A sign-in whose body is still arriving: in flight until `finish`. */
function slowSignIn(port: number): { finish: () => void; answer: Promise<{ status: number; body: string }> } {
  const body = JSON.stringify({ email: 'nobody@drain.example', password: 'not-the-password-1' });
  const req: ClientRequest = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: LOGIN,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
  });
  req.write(body.slice(0, 10));
  return { finish: () => req.end(body.slice(10)), answer };
}

beforeAll(() => {
  if (buildIsStale(root)) {
    const built = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stdout}\n${built.stderr}`);
  }
  dataDir = mkdtempSync(join(tmpdir(), 'latchkey-drain-'));
}, 300_000);

afterEach(() => {
  if (program && program.child.exitCode === null) program.child.kill('SIGKILL');
  program = undefined;
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('SIGTERM', () => {
  test('turns readiness off, lets the request in flight finish, then exits 0', async () => {
    const { child, port, output, exited } = await startServer({ SHUTDOWN_DELAY_SECONDS: '1', SHUTDOWN_GRACE_SECONDS: '20' });
    const signIn = slowSignIn(port);
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGTERM');

    // During the delay the instance still listens, and says it is not ready.
    const seen: (number | string)[] = [];
    while (!seen.includes(503) && seen.length < 50) {
      seen.push(await readiness(port));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen).toContain(503);
    expect(child.exitCode).toBeNull();

    // The listener closes after the delay; the request that was in flight still gets its answer.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await readiness(port)).toBe('refused');
    expect(child.exitCode).toBeNull();
    signIn.finish();
    const answer = await signIn.answer;
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body).code).toBe('email_notregistered');

    expect(await exited).toBe(0);
    expect(output()).toContain('"msg":"stopped"');
  }, 120_000);

  test('abandons work that outlasts the grace period, with exit code 1', async () => {
    const { child, port, output, exited } = await startServer({ SHUTDOWN_GRACE_SECONDS: '2' });
    const signIn = slowSignIn(port);
    signIn.answer.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sentAt = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(1);
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1900);
    expect(Date.now() - sentAt).toBeLessThan(6000);
    expect(output()).toContain('work still running when the grace period ended');
  }, 120_000);
});
