import { stat } from 'node:fs/promises';
import tls from 'node:tls';
import { JOBS_SCHEMA, type KeySource, keyFile, type Queryable, readMigrations, verifySmtp } from '@latchkey/runtime';
import { Redis } from 'ioredis';
import { type Check, ok, problem, warning } from './findings.ts';

/** Where an address points, without the credentials a URL may carry. */
const hostOf = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}${u.port ? `:${u.port}` : ''}`;
};
/** An error in words, with its cause when it has one (fetch says only "fetch failed"). */
/** A setting left unset: a problem in production, a warning elsewhere (the demo runs without it). */
const unset = (words: string, production: boolean, demo = '') => (production ? problem(words) : warning(`${words}${demo}`));

const reason = (error: unknown) => {
  const { message, cause } = error as Error & { cause?: Error };
  return cause?.message ? `${message}: ${cause.message}` : message || String(error);
};

/** Reachable, and every migration of this release applied (none unknown: a newer release ran here). */
export function databaseCheck(db: Queryable, migrationsDir: string, kind: string): Check {
  return {
    name: 'database',
    async run() {
      try {
        await db.query('select 1');
      } catch (error) {
        return problem(`${kind} cannot be reached: ${reason(error)}`);
      }
      const known = readMigrations(migrationsDir).map((m) => m.name);
      const [table] = await db.query<{ present: boolean }>("select to_regclass('schema_migrations') is not null as present");
      const applied = table?.present
        ? (await db.query<{ name: string }>('select name from schema_migrations')).map((r) => r.name)
        : [];
      const missing = known.filter((name) => !applied.includes(name));
      const unknown = applied.filter((name) => !known.includes(name));
      if (missing.length) {
        return problem(
          `${kind} reachable; ${missing.length} of ${known.length} migrations not applied (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}): the server applies them when it starts`,
        );
      }
      if (unknown.length) {
        return warning(
          `${kind} reachable; it has ${unknown.length} migrations this release does not know (${unknown.join(', ')}): a newer release ran on it`,
        );
      }
      return ok(`${kind} reachable; all ${known.length} migrations applied`);
    },
  };
}

export function redisCheck(url: string): Check {
  return {
    name: 'redis',
    async run() {
      const redis = new Redis(url, {
        lazyConnect: true,
        connectTimeout: 3_000,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      redis.on('error', () => {});
      try {
        await redis.connect();
        const answer = await redis.ping();
        return ok(`${hostOf(url)} answered ${answer}`);
      } catch (error) {
        return problem(`${hostOf(url)} cannot be reached: ${reason(error)} (the brute-force counters live there)`);
      } finally {
        redis.disconnect();
      }
    },
  };
}

/** Connects, says EHLO, starts TLS and signs in as the server would before sending (nodemailer's verify). */
export function smtpCheck(url: string | undefined, production: boolean): Check {
  return {
    name: 'smtp',
    async run() {
      if (!url) {
        return unset(
          'SMTP_URL is not set: mail (sign-in codes, invitations, resets) is written to the log',
          production,
          ', a demo convenience',
        );
      }
      try {
        await verifySmtp(url);
        return ok(`${hostOf(url)} answered EHLO and accepted the sign-in`);
      } catch (error) {
        return problem(`${hostOf(url)}: ${reason(error)}`);
      }
    },
  };
}

/** Each key given by value, or a file only its owner reads (mode 0600), never a world-readable one. */
export function keysCheck(dataDir: string, sources: Record<string, KeySource>): Check {
  return {
    name: 'keys',
    async run() {
      return Promise.all(
        Object.entries(sources).map(async ([name, source]) => {
          if (source.value) return ok(`${name}: from the environment`);
          const file = source.file ?? keyFile(dataDir, name);
          const given = Boolean(source.file);
          let mode: number;
          try {
            mode = (await stat(file)).mode & 0o777;
          } catch {
            return given
              ? problem(`${name}: ${file}, named by the configuration, does not exist`)
              : warning(
                  `${name}: ${file} does not exist yet; the server makes it on first start (every instance needs the same one)`,
                );
          }
          if (mode & 0o077) {
            return problem(
              `${name}: ${file} can be read by others (mode ${mode.toString(8).padStart(4, '0')}): chmod 600 ${file}`,
            );
          }
          return ok(`${name}: ${file}, readable by its owner only`);
        }),
      );
    },
  };
}

/** PUBLIC_URL set, and answering as a Latchkey server (links in mail lead there). */
export function publicUrlCheck(publicUrl: string | undefined, production: boolean): Check {
  return {
    name: 'public_url',
    async run() {
      if (!publicUrl) {
        return unset('PUBLIC_URL is not set: links in mail (invitations, resets, onboarding) cannot be made', production);
      }
      try {
        const response = await fetch(new URL('openapi.json', publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`), {
          signal: AbortSignal.timeout(5_000),
          redirect: 'error',
        });
        const title = response.ok ? ((await response.json()) as { info?: { title?: string } }).info?.title : undefined;
        if (title === 'Latchkey server') return ok(`${publicUrl} answers as a Latchkey server`);
        return problem(`${publicUrl} answers, but not as a Latchkey server (HTTP ${response.status})`);
      } catch (error) {
        return problem(`${publicUrl} cannot be reached from here: ${reason(error)}`);
      }
    },
  };
}

export interface TlsEndpoint {
  label: string;
  host: string;
  port: number;
  /** How to connect (a user-given Hub goes through the outbound guard); a plain TLS connection by default. */
  connect?: () => Promise<tls.TLSSocket>;
}

const WARN_DAYS = 14;
const DAY_MS = 86_400_000;

/** The certificate each TLS endpoint presents: trusted, and how long until it expires. */
export function tlsCheck(endpoints: TlsEndpoint[], now = () => Date.now()): Check {
  return {
    name: 'certificates',
    async run() {
      if (!endpoints.length) return ok('no TLS endpoint configured');
      return Promise.all(
        endpoints.map(async (endpoint) => {
          let socket: tls.TLSSocket;
          try {
            socket = await (endpoint.connect?.() ?? plainTlsConnect(endpoint.host, endpoint.port));
          } catch (error) {
            return problem(`${endpoint.label} (${endpoint.host}:${endpoint.port}): no TLS connection: ${reason(error)}`);
          }
          const certificate = socket.getPeerCertificate();
          const trusted = socket.authorized;
          const why = socket.authorizationError;
          socket.destroy();
          const expires = new Date(certificate.valid_to);
          const days = Math.floor((expires.getTime() - now()) / DAY_MS);
          const where = `${endpoint.label} (${endpoint.host}:${endpoint.port})`;
          const day = expires.toISOString().slice(0, 10);
          if (days < 0) return problem(`${where}: the certificate expired on ${day}`);
          if (!trusted) return problem(`${where}: the certificate is not trusted (${why})`);
          if (days < WARN_DAYS) return warning(`${where}: the certificate expires on ${day}, in ${days} days`);
          return ok(`${where}: the certificate is trusted and expires on ${day}, in ${days} days`);
        }),
      );
    },
  };
}

function plainTlsConnect(host: string, port: number): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host, port, servername: host, rejectUnauthorized: false, timeout: 5_000 }, () =>
      resolve(socket),
    );
    socket.once('error', reject);
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error('no answer within 5 s'));
    });
  });
}

const SLOW_SECONDS = 60;
const STUCK_SECONDS = 15 * 60;

/** The job queue: how long the oldest due job has waited (workers running?) and how many failed for good. */
export function jobsCheck(db: Queryable, schema = JOBS_SCHEMA): Check {
  return {
    name: 'jobs',
    async run() {
      const [table] = await db.query<{ present: boolean }>(`select to_regclass('${schema}.job') is not null as present`);
      if (!table?.present) return warning('the job queue does not exist yet: the server makes it on first start');
      const [row = { waiting: 0, oldest: null, failed: 0 }] = await db.query<{
        waiting: number;
        oldest: number | null;
        failed: number;
      }>(
        `select count(*) filter (where state in ('created', 'retry') and start_after <= now())::int as waiting,
                extract(epoch from now() - min(start_after) filter (where state in ('created', 'retry') and start_after <= now()))::int as oldest,
                count(*) filter (where state = 'failed')::int as failed
           from ${schema}.job`,
      );
      const failed = row.failed ? `; ${row.failed} failed for good (the server log says why)` : '';
      const oldest = row.oldest ?? 0;
      const words = `${row.waiting} jobs due, the oldest waiting ${oldest} s${failed}`;
      if (oldest > STUCK_SECONDS) return problem(`${words}: are the server's workers running?`);
      if (oldest > SLOW_SECONDS || row.failed) return warning(words);
      return ok(words);
    },
  };
}
