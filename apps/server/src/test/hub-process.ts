import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '@latchkey/runtime';
import { createTestDb } from '@latchkey/runtime/testing';
import type { FastifyInstance } from 'fastify';
import { buildHub } from '../../../hub/src/app.ts';
import { type Config, loadConfig } from '../../../hub/src/config.ts';
import { MIGRATIONS_DIR } from '../../../hub/src/db/migrations-dir.ts';
import { seedDemoRegistration } from '../../../hub/src/features/registrations/demo-seed.ts';

/** The operator setup key of the test Hubs. */
export const TEST_HUB_SETUP_KEY = 'test-hub-setup-key-0123456789';

export interface TestHub {
  url: string;
  db: Db;
  config: Config;
  app: FastifyInstance;
  /** Stops listening (the Hub is down) and starts again on the same address, same database. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real Hub for server tests: its own migrated database and HTTP listener, so the server's
 * calls to it go over the network exactly as in production. With `demoSecret`, the demo team
 * is registered with every service switched on, as the demo seeds do.
 */
export async function startTestHub(options: { demoSecret?: string; version?: string } = {}): Promise<TestHub> {
  const db = await createTestDb(MIGRATIONS_DIR);
  if (options.demoSecret) {
    await seedDemoRegistration(db, { teamSlug: 'northwind', credentialId: 'demo-hub', secret: options.demoSecret });
  }
  // Key files are generated here, never in the repository.
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-hub-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    HUB_SETUP_KEY: TEST_HUB_SETUP_KEY,
    ...(options.version ? { HUB_VERSION: options.version } : {}),
  });
  let app = await buildHub({ config, db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  let running = true;
  return {
    url: `http://127.0.0.1:${port}`,
    db,
    config,
    get app() {
      return app;
    },
    async stop() {
      running = false;
      await app.close();
    },
    async restart() {
      app = await buildHub({ config, db });
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
