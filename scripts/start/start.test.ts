import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { buildIsStale } from './build-if-stale.mjs';
import { descendants, survivors } from './process-tree.ts';

/**
 * `npm start` as a new user meets it: the built programs on embedded databases, here in a data
 * directory and on ports of the test's own. SLOW_START_MS holds the programs back as a small
 * machine's first start does (creating the databases, the migrations, the seed took 53 s on two
 * cores): longer than the 30 s the launcher once waited before it gave up with a stack trace,
 * leaving the programs running. The programs are built once here when a source is newer than the
 * last build (`npm test` builds before it runs this), and the three starts run that build.
 */
const root = new URL('../..', import.meta.url).pathname;
const SLOW_START_MS = 35_000;

// Settings from the developer's shell or the test run must not point the programs elsewhere.
const INHERITED =
  /^(DATABASE_URL|HUB_DATABASE_URL|REDIS_URL|SMTP_URL|PUBLIC_URL|DATA_DIR|TOKEN_SECRET.*|HUB_.*|SERVER_.*|SEALING_KEY.*|CODE_HASH_KEY.*|TEST_.*|VITEST.*|SLOW_START_MS|DEMO_.*|PORT|HOST|NODE_ENV|LOG_LEVEL|ALLOWED_ORIGINS)$/;
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !INHERITED.test(name)));

let dataRoot: string;
let ports: { PORT: string; HUB_PORT: string; DEMO_IDP_PORT: string };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Launch {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Every process seen below the launcher so far, and their process groups. */
  seen: { pids: Set<number>; groups: Set<number> };
  stopWatching: () => void;
}

let current: Launch | undefined;

/** `npm start`'s script in a process group of its own, as a terminal runs it in the foreground. */
function launch(env: Record<string, string>): Launch {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...baseEnv, ...ports, DEMO_DATA_DIR: dataRoot, NODE_ENV: 'development', START_BUILD: 'if-missing', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let text = '';
  child.stdout?.on('data', (chunk) => {
    text += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    text += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const seen = { pids: new Set<number>(), groups: new Set<number>([child.pid ?? 0]) };
  const look = () => {
    for (const p of descendants(child.pid ?? 0)) {
      seen.pids.add(p.pid);
      seen.groups.add(p.pgid);
    }
  };
  const watching = setInterval(look, 200);
  current = { child, output: () => text, exited, seen, stopWatching: () => clearInterval(watching) };
  return current;
}

async function until(check: () => boolean, ms: number, what: string, launched: Launch): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen in ${ms / 1000} s. Output:\n${launched.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Waits until nothing the launcher started is left; what is left when `ms` runs out is returned. */
async function leftBehind(launched: Launch, ms: number) {
  launched.stopWatching();
  const deadline = Date.now() + ms;
  for (;;) {
    const left = survivors(launched.seen.pids, launched.seen.groups);
    if (!left.length || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Another process's listener on `port`, dropping whatever connects. */
async function occupy(port: number): Promise<Server> {
  const squatter = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    squatter.once('error', reject);
    squatter.listen(port, '127.0.0.1', resolve);
  });
  return squatter;
}

const ready = (launched: Launch) => launched.output().includes('Latchkey is running');
const exitedCode = (launched: Launch) => launched.child.exitCode !== null || launched.child.signalCode !== null;
// A stack trace through the launcher's own files (scripts/start.mjs, scripts/start/*).
const LAUNCHER_STACK = /^\s+at .*scripts\/start/m;

beforeAll(async () => {
  if (buildIsStale(root)) {
    const built = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stdout}\n${built.stderr}`);
  }
  dataRoot = mkdtempSync(join(tmpdir(), 'latchkey-start-'));
  ports = { PORT: String(await freePort()), HUB_PORT: String(await freePort()), DEMO_IDP_PORT: String(await freePort()) };
}, 300_000);

afterEach(async () => {
  // A failed test leaves nothing running either.
  if (!current) return;
  const launched = current;
  current = undefined;
  launched.stopWatching();
  for (const p of survivors(launched.seen.pids, launched.seen.groups)) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {}
  }
  await leftBehind(launched, 5_000);
});

afterAll(() => {
  if (dataRoot) rmSync(dataRoot, { recursive: true, force: true });
});

describe('npm start', () => {
  test('waits for a slow first start, saying what the programs do, shows the sign-in, and Ctrl-C leaves no process behind', async () => {
    const launched = launch({ SLOW_START_MS: String(SLOW_START_MS) });
    await until(() => ready(launched) || exitedCode(launched), 240_000, 'the sign-in banner', launched);
    const output = launched.output();
    expect(output).toContain('Latchkey is running');
    expect(output).toContain('Demo sign-in   alex@northwind.example');
    // What each program was doing while the launcher waited, from their own lines.
    expect(output).toMatch(/\[server\] creating the embedded database in .* \(first start\)/);
    expect(output).toContain('[hub] migrating the database');
    expect(output).toContain('[server] seeding the demo teams');
    expect(output).toMatch(/Still starting after \d+ s — server: /);
    expect(output).not.toMatch(LAUNCHER_STACK);
    // The server, the Hub and the demo identity provider were running.
    expect(launched.seen.pids.size).toBeGreaterThanOrEqual(3);

    // Ctrl-C: the terminal signals the foreground process group.
    process.kill(-(launched.child.pid ?? 0), 'SIGINT');
    await until(() => exitedCode(launched), 30_000, 'the launcher stopping', launched);
    expect((await launched.exited).code).toBe(0);
    expect(await leftBehind(launched, 5_000)).toEqual([]);
  }, 300_000);

  test('killed outright, it leaves no process behind', async () => {
    const launched = launch({});
    await until(() => ready(launched) || exitedCode(launched), 180_000, 'the sign-in banner', launched);
    expect(launched.output()).toContain('Latchkey is running');
    expect(launched.seen.pids.size).toBeGreaterThanOrEqual(3);

    process.kill(launched.child.pid ?? 0, 'SIGKILL');
    // Each program, told by its closed channel, may drain for SHUTDOWN_GRACE_SECONDS (25 s) first.
    expect(await leftBehind(launched, 40_000)).toEqual([]);
  }, 240_000);

  test('a program that stops, even after a long start, stops the rest and is reported with its last lines, exit 1, no stack trace of the launcher', async () => {
    const launched = launch({ SLOW_START_MS: String(SLOW_START_MS) });
    // Another process takes the Hub's port once the Hub has started: it fails when it starts listening, after the slow start.
    await until(
      () => /\[hub\] (creating|opening) the embedded database/.test(launched.output()),
      60_000,
      'the Hub starting',
      launched,
    );
    const squatter = await occupy(Number(ports.HUB_PORT));
    try {
      await until(() => exitedCode(launched), 180_000, 'the launcher stopping', launched);
      const { code } = await launched.exited;
      const output = launched.output();
      expect(code).toBe(1);
      expect(output).not.toContain('Latchkey is running');
      const report = output.slice(output.indexOf('The Hub stopped (exit code 1) before it was ready. Its last lines:'));
      expect(report).toContain('Its last lines:');
      expect(report).toContain('info registering the demo team');
      expect(report).toContain('EADDRINUSE');
      expect(output).not.toMatch(LAUNCHER_STACK);
      expect(await leftBehind(launched, 5_000)).toEqual([]);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  }, 240_000);

  test('a port taken before the start is refused at once, naming the setting that moves it', async () => {
    const squatter = await occupy(Number(ports.PORT));
    try {
      const launched = launch({});
      await until(() => exitedCode(launched), 15_000, 'the launcher refusing', launched);
      expect((await launched.exited).code).toBe(1);
      expect(launched.output()).toContain(`127.0.0.1:${ports.PORT} (the console) is in use by another process`);
      expect(launched.output()).toContain('choose another port with PORT');
      expect(launched.output()).not.toMatch(LAUNCHER_STACK);
      expect(await leftBehind(launched, 5_000)).toEqual([]);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});
