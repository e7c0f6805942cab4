import type { KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, type Ed25519Jwk, generateEd25519Key, privateKeyOf, publicJwkOf } from '@latchkey/runtime';
import { createTestDb } from '@latchkey/runtime/testing';
import type { FastifyInstance } from 'fastify';
import { buildHub } from '../../../hub/src/app.ts';
import { type Config, loadConfig } from '../../../hub/src/config.ts';
import { MIGRATIONS_DIR } from '../../../hub/src/db/migrations-dir.ts';

export { loadHubTokenSecret } from '../../../hub/src/platform/keys.ts';

import { seedDemoRegistration } from '../../../hub/src/features/registrations/demo-seed.ts';
import { mintSetupKey } from '../../../hub/src/features/registrations/setup-keys.ts';

/** The test Hubs' setup secret, so a test can mint setup keys as the Hub operator's CLI does. */
const TEST_HUB_SETUP_SECRET = 'test-hub-setup-secret-0123456789abcdef';
export const mintTestSetupKey = (teamSlug: string, minutes?: number, now?: number) =>
  mintSetupKey(TEST_HUB_SETUP_SECRET, teamSlug, minutes, now);

export interface TestHub {
  url: string;
  db: Db;
  config: Config;
  app: FastifyInstance;
  /** The Hub's own signing key (a test may play the Hub with it) and its public half. */
  key: KeyObject;
  publicJwk: Ed25519Jwk;
  /** Registers the demo team trusting that server key and calling back that address. */
  registerDemo(server: { serverKey: Ed25519Jwk; serverUrl: string }): Promise<boolean>;
  /** Stops listening (the Hub is down) and starts again on the same address, same database. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real Hub for server tests: its own migrated database, keys in a temporary directory and HTTP
 * listener, so the server's calls to it go over the network exactly as in production.
 * `registerDemo` registers the demo team as the Hub's demo seed does (every service on).
 */
export async function startTestHub(
  options: { version?: string; env?: Record<string, string>; rateLimitPerMinute?: number } = {},
): Promise<TestHub> {
  const db = await createTestDb(MIGRATIONS_DIR);
  const pem = generateEd25519Key();
  const key = privateKeyOf(pem);
  // Key files are generated here, never in the repository.
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-hub-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    HUB_SIGNING_KEY: pem,
    HUB_SETUP_SECRET: TEST_HUB_SETUP_SECRET,
    ...(options.version ? { HUB_VERSION: options.version } : {}),
    ...options.env,
  });
  const limit = options.rateLimitPerMinute ? { rateLimitPerMinute: options.rateLimitPerMinute } : {};
  let app = await buildHub({ config, db, ...limit });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  let running = true;
  return {
    url: `http://127.0.0.1:${port}`,
    db,
    config,
    key,
    publicJwk: publicJwkOf(key),
    get app() {
      return app;
    },
    registerDemo: (server) =>
      seedDemoRegistration(db, {
        teamSlug: 'northwind',
        credentialId: 'demo-hub',
        serverKey: JSON.stringify(server.serverKey),
        serverUrl: server.serverUrl,
      }),
    async stop() {
      running = false;
      await app.close();
    },
    async restart() {
      app = await buildHub({ config, db, ...limit });
      await app.listen({ port, host: '127.0.0.1' });
      running = true;
    },
    async close() {
      if (running) await app.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
