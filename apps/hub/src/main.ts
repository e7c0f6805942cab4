import { drainOnSignals, followParent, migrate, moveLegacyKeys, openDb, startTracing, startUp } from '@latchkey/runtime';
import { buildHub } from './app.ts';
import { loadConfig } from './config.ts';
import { MIGRATIONS_DIR } from './db/migrations-dir.ts';
import { seedClientDemo } from './features/demo/client-demo.ts';
import { seedDemoRegistration } from './features/registrations/demo-seed.ts';
import { hubKeySources } from './platform/keys.ts';

const config = loadConfig();
followParent();
// Traces go out over OTLP/HTTP only when an endpoint is configured (the variable's standard name).
const stopTracing = config.OTEL_EXPORTER_OTLP_ENDPOINT
  ? startTracing({ serviceName: 'latchkey-hub', endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT })
  : async () => {};
const steps = startUp({ logLevel: config.LOG_LEVEL, nodeEnv: config.NODE_ENV, env: process.env });
steps.databaseStep({ url: config.HUB_DATABASE_URL, dataDir: config.DATA_DIR });
const db = await openDb({ url: config.HUB_DATABASE_URL, dataDir: config.DATA_DIR });
// Keys once kept in the database go to their key files before the migration that drops them.
await moveLegacyKeys(db, config.DATA_DIR, hubKeySources(config));
steps.step('migrating the database');
await migrate(db, MIGRATIONS_DIR);
steps.step('starting the job queue and the routes');
const app = await buildHub({ config, db });
if (config.SEED_DEMO && config.DEMO_SERVER_KEY && config.DEMO_SERVER_URL) {
  steps.step('registering the demo team, unless a team is registered already');
  const seeded = await seedDemoRegistration(db, {
    teamSlug: config.DEMO_TEAM_SLUG,
    credentialId: config.DEMO_CREDENTIAL_ID,
    serverKey: config.DEMO_SERVER_KEY,
    serverUrl: config.DEMO_SERVER_URL,
  });
  if (seeded) {
    app.log.info({ team: config.DEMO_TEAM_SLUG }, 'registered the demo team');
    // What the demo members' apps would have sent, through the ingestion API.
    steps.step("filling the demo team with its members' devices, vault health, shares and recovery requests");
    await seedClientDemo(app, db, { teamSlug: config.DEMO_TEAM_SLUG });
  }
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
app.log.info({ version: config.HUB_VERSION, origins: config.ALLOWED_ORIGINS }, 'hub ready');
