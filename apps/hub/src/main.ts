import { migrate, openDb } from '@latchkey/runtime';
import { buildHub } from './app.ts';
import { loadConfig } from './config.ts';
import { MIGRATIONS_DIR } from './db/migrations-dir.ts';
import { seedClientDemo } from './features/demo/client-demo.ts';
import { seedDemoRegistration } from './features/registrations/demo-seed.ts';

const config = loadConfig();
const db = await openDb({ url: config.HUB_DATABASE_URL, dataDir: config.DATA_DIR });
await migrate(db, MIGRATIONS_DIR);
const app = await buildHub({ config, db });
if (config.SEED_DEMO && config.DEMO_HUB_SECRET) {
  const seeded = await seedDemoRegistration(db, {
    teamSlug: config.DEMO_TEAM_SLUG,
    credentialId: config.DEMO_CREDENTIAL_ID,
    secret: config.DEMO_HUB_SECRET,
  });
  if (seeded) {
    app.log.info({ team: config.DEMO_TEAM_SLUG }, 'registered the demo team');
    // What the demo members' apps would have sent, through the ingestion API.
    await seedClientDemo(app, db, {
      teamSlug: config.DEMO_TEAM_SLUG,
      credentialId: config.DEMO_CREDENTIAL_ID,
      secret: config.DEMO_HUB_SECRET,
    });
  }
}
await app.listen({ host: config.HOST, port: config.PORT });
app.log.info({ version: config.HUB_VERSION, origins: config.ALLOWED_ORIGINS }, 'hub ready');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await app.close();
    await db.close();
    process.exit(0);
  });
}
