// The doctor: what an operator checks first when something is wrong, in words. Run by
// `npm run cli -- doctor` and served at /readyz?verbose (behind the metrics token).
import { bearerMatches, type Queryable } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { MIGRATIONS_DIR } from './db/migrations-dir.ts';
import { hubReachability, hubTlsEndpoints } from './features/integration/index.ts';
import {
  databaseCheck,
  jobsCheck,
  keysCheck,
  publicUrlCheck,
  redisCheck,
  smtpCheck,
  type TlsEndpoint,
  tlsCheck,
} from './platform/doctor/checks.ts';
import { type Check, type Finding, runChecks, warning } from './platform/doctor/findings.ts';
import { serverKeySources } from './platform/keys.ts';

const SIGNING_KEY_FILE = 'hub-signing-ed25519.pem';

/** Checks that read the product's tables wait for its migrations (the database check says what is missing). */
const afterMigrations =
  (db: Queryable, run: Check['run']): Check['run'] =>
  async () => {
    const [table] = await db.query<{ migrated: boolean }>("select to_regclass('hubs') is not null as migrated");
    return table?.migrated ? run() : warning('not checked: the database is not migrated');
  };

export function doctorChecks(config: Config, db: Queryable): Check[] {
  const production = config.NODE_ENV === 'production';
  const kind = config.DATABASE_URL
    ? `PostgreSQL at ${new URL(config.DATABASE_URL).host}`
    : `the embedded database in ${config.DATA_DIR}`;
  const configured: TlsEndpoint[] = [];
  if (config.PUBLIC_URL?.startsWith('https:')) {
    const url = new URL(config.PUBLIC_URL);
    configured.push({ label: 'PUBLIC_URL', host: url.hostname, port: Number(url.port || 443) });
  }
  if (config.SMTP_URL?.startsWith('smtps:')) {
    const url = new URL(config.SMTP_URL);
    configured.push({ label: 'SMTP', host: url.hostname, port: Number(url.port || 465) });
  }
  return [
    databaseCheck(db, MIGRATIONS_DIR, kind),
    ...(config.REDIS_URL ? [redisCheck(config.REDIS_URL)] : []),
    smtpCheck(config.SMTP_URL, production),
    keysCheck(config.DATA_DIR, {
      ...serverKeySources(config),
      [SIGNING_KEY_FILE]: { value: config.SERVER_SIGNING_KEY, file: config.SERVER_SIGNING_KEY_FILE },
    }),
    publicUrlCheck(config.PUBLIC_URL, production),
    { name: 'hubs', run: afterMigrations(db, () => hubReachability(db)) },
    {
      name: 'certificates',
      run: afterMigrations(db, async () => tlsCheck([...configured, ...(await hubTlsEndpoints(db))]).run()),
    },
    jobsCheck(db),
  ];
}

/** Ready when the database answers and is migrated; the other findings inform, they never take an instance out. */
export const isReady = (findings: Finding[]) => !findings.some((f) => f.check === 'database' && f.verdict === 'problem');

/**
 * GET /readyz?verbose: the doctor's findings. They name hosts and files, so they need the metrics
 * token when one is set, and are not served in production without one.
 */
export function registerVerboseReadiness(app: FastifyInstance, config: Config, db: Queryable): void {
  app.get('/readyz', async (request, reply) => {
    if (!Object.hasOwn(request.query as object, 'verbose')) {
      await db.query('select 1');
      return { status: 'ready' };
    }
    const token = config.METRICS_TOKEN;
    const allowed = token ? bearerMatches(request.headers.authorization, token) : config.NODE_ENV !== 'production';
    if (!allowed) {
      return reply.code(401).send({ code: 'unauthorized', description: 'The verbose readiness needs the metrics token.' });
    }
    const findings = await runChecks(doctorChecks(config, db));
    const ready = isReady(findings);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks: findings });
  });
}
