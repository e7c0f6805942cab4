// `npm run soak:sessions`: the two-tab and mid-renewal-reload tests (e2e/tests/session-tabs.spec.ts)
// at the programs' default token lifetimes (5 minutes: a renewal every 3 minutes), as a nightly run
// would. The suite runs the same tests with 130-second tokens; this run takes ~8 minutes.
//
//   node scripts/soak-sessions.mjs [--no-build]
//
// It builds the console first (skip with --no-build when it is fresh) and runs on ports of its own
// (E2E_PORT_BASE, 28080 by default), so it can run beside the suite. Exit code: Playwright's.
import './node-runtime.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;

if (!existsSync('/usr/bin/chromium')) {
  console.error("The end-to-end tests drive Debian's Chromium: apt-get install -y chromium");
  process.exit(1);
}
if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const env = { ...process.env, E2E_DEFAULT_LIFETIMES: '1', E2E_PORT_BASE: process.env.E2E_PORT_BASE ?? '28080' };
// Lifetimes from the developer's shell would make this something else than the defaults (the config
// itself keeps the shell's databases and keys away).
for (const name of ['ACCESS_TOKEN_TTL_SECONDS', 'REFRESH_TTL_MINUTES', 'SESSION_IDLE_MINUTES', 'REFRESH_GRACE_SECONDS']) {
  delete env[name];
}

const started = Date.now();
const run = spawnSync(
  'npx',
  ['playwright', 'test', '-c', 'e2e/playwright.config.ts', 'e2e/tests/session-tabs.spec.ts', '--project', 'console'],
  { cwd: root, stdio: 'inherit', env },
);
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.info(`\nSession soak at the default token lifetimes: ${run.status === 0 ? 'passed' : 'FAILED'} in ${minutes} min.`);
process.exit(run.status ?? 1);
