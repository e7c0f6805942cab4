import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { demoTrust } from '../scripts/demo-keys.mjs';
import { HUB_URL, MAILBOX_HTTP_PORT, MAILBOX_SMTP_PORT, MAILBOX_URL, SERVER_URL } from './support/env.ts';
import { assertPortsFree, suitePorts } from './support/free-ports.ts';
import { hubSiemEnv } from './support/siem.ts';

const root = resolve(import.meta.dirname, '..');

// Every run starts from empty embedded databases, seeded with the demo. The runner creates them
// once; its workers load this file again and inherit the path through the environment.
let dataRoot = process.env.LATCHKEY_E2E_DATA;
if (!dataRoot) {
  // Before any of the suite's servers starts: one that finds its port taken must not start beside
  // the other process (nor its programs talk to that one), and none may fail minutes in.
  await assertPortsFree(suitePorts()).catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
  const created = mkdtempSync(join(tmpdir(), 'latchkey-e2e-'));
  process.env.LATCHKEY_E2E_DATA = created;
  // The servers are stopped before the runner exits; their data goes with them.
  process.on('exit', () => rmSync(created, { recursive: true, force: true }));
  dataRoot = created;
}

// Each program's own key in its data directory, each public half pinned on the other side
// (scripts/demo-keys.mjs); made once by the runner, read by its workers (support/hub-client.ts).
const trust = demoTrust(join(dataRoot, 'server'), join(dataRoot, 'hub'));

// With the spec's two-minute margin the console renews its tokens, and the Hub's with them, ~10 s
// after sign-in. E2E_DEFAULT_LIFETIMES=1 leaves both programs at their own defaults (5 minutes):
// scripts/soak-sessions.mjs runs the two-tab spec so, as a nightly would.
const shortLifetimes: Record<string, string> = process.env.E2E_DEFAULT_LIFETIMES ? {} : { ACCESS_TOKEN_TTL_SECONDS: '130' };

const tsx = join(root, 'node_modules/.bin/tsx');
// Settings from the developer's shell must not point the servers at a real database.
const cleanEnv =
  'env -u DATABASE_URL -u HUB_DATABASE_URL -u REDIS_URL -u TOKEN_SECRET -u HUB_TOKEN_SECRET -u PUBLIC_URL -u SERVER_SIGNING_KEY -u SERVER_SIGNING_KEY_FILE -u HUB_SIGNING_KEY -u HUB_SIGNING_KEY_FILE -u HUB_SETUP_SECRET -u HUB_SETUP_SECRET_FILE';

export default defineConfig({
  testDir: './tests',
  outputDir: join(root, 'test-results/e2e'),
  // Tests are independent (own browser context, own sign-in), so they spread over both workers.
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: SERVER_URL,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    {
      name: 'console',
      testIgnore: /(hub-integration|eventlogs|eventlogs-saved-searches|eventlogs-alerts|scim|directory-sync)\.spec\.ts/,
    },
    // Connects Sam's family team to Hubs of its own and stops them: run it after every spec that
    // reads the family team's Hub state (none connected), so the two never overlap.
    { name: 'hub-integration', testMatch: /hub-integration\.spec\.ts/, dependencies: ['console'] },
    // Add groups to Northwind (an admin change for the event log; a SCIM-provisioned group) and, for
    // saved searches, a super admin for a while: after every spec that counts Northwind's groups or admins.
    {
      name: 'northwind-groups',
      testMatch: /(eventlogs|eventlogs-saved-searches|eventlogs-alerts|scim)\.spec\.ts/,
      dependencies: ['console'],
    },
    // Adds members and groups to Northwind from a directory: after every spec that counts them.
    { name: 'directory', testMatch: /directory-sync\.spec\.ts/, dependencies: ['northwind-groups'] },
  ],
  webServer: [
    {
      name: 'mailbox',
      command: 'node support/mailbox.mjs',
      cwd: import.meta.dirname,
      url: `${MAILBOX_URL}/readyz`,
      env: { MAILBOX_SMTP_PORT: String(MAILBOX_SMTP_PORT), MAILBOX_HTTP_PORT: String(MAILBOX_HTTP_PORT) },
      reuseExistingServer: false,
      timeout: 15_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 2_000 },
    },
    {
      name: 'hub',
      command: `${cleanEnv} ${tsx} apps/hub/src/main.ts`,
      cwd: root,
      url: `${HUB_URL}/readyz`,
      env: {
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: new URL(HUB_URL).port,
        DATA_DIR: join(dataRoot, 'hub'),
        SEED_DEMO: '1',
        DEMO_SERVER_KEY: trust.serverKey,
        DEMO_SERVER_URL: SERVER_URL,
        ALLOWED_ORIGINS: SERVER_URL,
        // Recovery notifications go to the same mailbox as the server's mail.
        SMTP_URL: `smtp://127.0.0.1:${MAILBOX_SMTP_PORT}`,
        // SIEM receivers the event-log spec starts: their certificate trusted, Sentinel's addresses (support/siem.ts).
        ...hubSiemEnv(dataRoot),
        ...shortLifetimes,
        LOG_LEVEL: 'warn',
      },
      // Warnings and fatal start-up errors (pino writes them to stdout) belong in the run's output.
      stdout: 'pipe',
      reuseExistingServer: false,
      timeout: 180_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
    {
      name: 'server',
      command: `${cleanEnv} ${tsx} apps/server/src/main.ts`,
      cwd: root,
      url: `${SERVER_URL}/readyz`,
      env: {
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: new URL(SERVER_URL).port,
        DATA_DIR: join(dataRoot, 'server'),
        SEED_DEMO: '1',
        DEMO_HUB_URL: HUB_URL,
        DEMO_HUB_KEY: trust.hubKey,
        SMTP_URL: `smtp://127.0.0.1:${MAILBOX_SMTP_PORT}`,
        ...shortLifetimes,
        WEB_DIST: 'apps/web/dist',
        // Each test's browser sends its own client address (support/test.ts), as separate admins would.
        TRUST_PROXY: '1',
        LOG_LEVEL: 'warn',
      },
      // Warnings and fatal start-up errors (pino writes them to stdout) belong in the run's output.
      stdout: 'pipe',
      reuseExistingServer: false,
      timeout: 180_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
  ],
});
