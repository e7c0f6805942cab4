// `npm run bench`: the figures the project's targets ask for, measured on this machine.
//   - the sign-in route's initial JS (gzip), from a fresh build;
//   - start to ready of the built server and Hub together on an existing embedded database (median of 3).
import './node-runtime.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipKb, initialChunks, screenChunks } from './bundle-budget.mjs';
import { demoTrust } from './demo-keys.mjs';
import { SERVER_NODE_FLAGS } from './node-flags.mjs';

const root = new URL('..', import.meta.url).pathname;
spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
const signInKb = initialChunks().reduce((sum, f) => sum + gzipKb(f), 0);
const screens = screenChunks()
  .map(({ screen, files }) => ({ screen, kb: files.reduce((sum, f) => sum + gzipKb(f), 0) }))
  .sort((a, b) => b.kb - a.kb);

const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-bench-'));
const trust = demoTrust(join(dataDir, 'server'), join(dataDir, 'hub'));

async function startBoth() {
  const started = performance.now();
  const env = { ...process.env, LOG_LEVEL: 'warn', SEED_DEMO: '1' };
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'apps/server/dist/main.mjs'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...env,
      PORT: '18180',
      DATA_DIR: join(dataDir, 'server'),
      DEMO_HUB_URL: 'http://127.0.0.1:18181',
      DEMO_HUB_KEY: trust.hubKey,
    },
  });
  const hub = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'apps/hub/dist/main.mjs'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...env,
      PORT: '18181',
      DATA_DIR: join(dataDir, 'hub'),
      DEMO_SERVER_KEY: trust.serverKey,
      DEMO_SERVER_URL: 'http://127.0.0.1:18180',
    },
  });
  await Promise.all(['http://127.0.0.1:18180/readyz', 'http://127.0.0.1:18181/readyz'].map(waitFor));
  const seconds = (performance.now() - started) / 1000;
  for (const child of [server, hub]) child.kill('SIGTERM');
  await Promise.all([server, hub].map((c) => new Promise((r) => c.once('exit', r))));
  return seconds;
}

async function waitFor(url) {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 25));
  }
}

const first = await startBoth(); // creates and seeds the databases
const runs = [await startBoth(), await startBoth(), await startBoth()].sort((a, b) => a - b);
rmSync(dataDir, { recursive: true, force: true });

console.info(`sign-in route initial JS     ${signInKb.toFixed(1)} KB gzip (budget 120 KB)`);
console.info('each screen adds, on its first visit (gzip):');
for (const { screen, kb } of screens) console.info(`  ${kb.toFixed(1).padStart(6)} KB  ${screen}`);
console.info(`first start (create + seed)  ${first.toFixed(2)} s`);
console.info(
  `start to ready, existing DB  ${runs[1].toFixed(2)} s median (${runs.map((r) => r.toFixed(2)).join(', ')}; target 5 s)`,
);

// The members list of a 100,000-member team through the real API beside raw SQL, the Hub's
// security audit of as many members, and the restore time of a backup at that size.
if (process.env.TEST_DATABASE_URL) {
  // Each in one process with its program, so with the programs' own flags.
  for (const script of [
    'scripts/bench-people.ts',
    'scripts/bench-hub.ts',
    'scripts/bench-scim.ts',
    'scripts/bench-events.ts',
    'scripts/bench-alerts.ts',
    'scripts/bench-backup.ts',
    'scripts/bench-directory.ts',
  ]) {
    spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', script], { cwd: root, stdio: 'inherit' });
  }
} else {
  console.info('members list and Hub audit at 100k members: set TEST_DATABASE_URL to a PostgreSQL server to measure them');
}

// Lighthouse on a cold signed-in load of the dashboard and users list.
const { lighthouseBench } = await import('./bench-lighthouse.mjs');
await lighthouseBench();
