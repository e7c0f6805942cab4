import { drainOnSignals, followParent, migrate, moveLegacyKeys, openDb, startTracing, startUp } from '@latchkey/runtime';
import { buildServer } from './app.ts';
import { loadConfig } from './config.ts';
import { MIGRATIONS_DIR } from './db/migrations-dir.ts';
import { seedBillingDemo } from './features/billing/index.ts';
import { DEMO_PASSWORD, seedSecurityDemo } from './features/demo/index.ts';
import { seedDemo } from './features/demo/seed.ts';
import { serverKeySources } from './platform/keys.ts';

const config = loadConfig();
followParent();
// Traces go out over OTLP/HTTP only when an endpoint is configured (the variable's standard name).
const stopTracing = config.OTEL_EXPORTER_OTLP_ENDPOINT
  ? startTracing({ serviceName: 'latchkey-server', endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT })
  : async () => {};
const steps = startUp({ logLevel: config.LOG_LEVEL, nodeEnv: config.NODE_ENV, env: process.env });
steps.databaseStep({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
const db = await openDb({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
// Keys once kept in the database go to their key files before the migration that drops them.
await moveLegacyKeys(db, config.DATA_DIR, serverKeySources(config));
steps.step('migrating the database');
await migrate(db, MIGRATIONS_DIR);
steps.step('starting the job queue and the routes');
const app = await buildServer({ config, db });
if (config.SEED_DEMO) {
  steps.step('seeding the demo teams, unless the database holds teams already');
  const seeded = await seedDemo(db, { hubUrl: config.DEMO_HUB_URL, hubKey: config.DEMO_HUB_KEY });
  if (seeded) await seedSecurityDemo(db);
  if (seeded) await seedBillingDemo(db, DEMO_PASSWORD);
  if (seeded) app.log.info('seeded the demo teams');
}
// SIGTERM (a container runtime, Kubernetes) or Ctrl-C: readiness off, the work in flight finished, then exit.
drainOnSignals(app, {
  graceSeconds: config.SHUTDOWN_GRACE_SECONDS,
  delaySeconds: config.SHUTDOWN_DELAY_SECONDS,
  async cleanup() {
    await db.close();
    await stopTracing();
  },
});
await steps.holdBack();
await app.listen({ host: config.HOST, port: config.PORT });
