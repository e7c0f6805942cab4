import { PgBoss } from 'pg-boss';
import type { Db, Queryable } from './db.ts';
import { jobIdFor } from './job-id.ts';
import {
  DEFAULT_JOB_DEFINITION,
  type EnqueueOptions,
  JOB_STATES,
  type JobDefinition,
  type JobHandler,
  type JobQueue,
  type JobState,
  type Jobs,
  type JobsOptions,
} from './job-types.ts';
import { LEGACY_JOBS_SCHEMA, moveLegacyJobs } from './jobs-legacy.ts';

/** A unique violation on a system catalog: concurrent DDL on an object both sessions saw as absent. */
const isCatalogCollision = (error: unknown) =>
  (error as { code?: string }).code === '23505' && /"pg_\w+_index"/.test(String((error as Error).message));

/**
 * Instances starting together create the same queues at once: pg-boss's `create_queue` inserts the
 * queue's row, then locks the queue table to add its partition's foreign key, so one waiting on the
 * other's row while holding its own row lock deadlocks, and PostgreSQL aborts one of them. Run
 * again, the aborted one finds the queue made and does nothing.
 */
async function retryDeadlocked(step: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await step();
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 100 * attempt));
    }
  }
}

/**
 * pg-boss's statement adding a job, as it reaches `onCommitted`: into the queue's table, `job_common`
 * or its own partition (`j` and a hash of the name).
 */
const INSERT_JOB = (schema: string) => new RegExp(`^\\s*INSERT INTO ${schema}\\.(job_common|j[0-9a-f]+) \\(`);

/** Jobs per statement of enqueueMany: one JSON parameter stays a few megabytes at most. */
const ENQUEUE_CHUNK = 1000;

/** The job queue's schema (pg-boss 12's; the previous release's, pg-boss 10's, is jobs-legacy.ts). */
export const JOBS_SCHEMA = 'job_queue';

/** The job queue over `db` (the rules every job follows: job-types.ts). */
export function createJobs(db: Db, options: JobsOptions): Jobs {
  const { log } = options;
  const schema = options.schema ?? JOBS_SCHEMA;
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 0.5;
  const maintenanceIntervalSeconds = options.maintenanceIntervalSeconds ?? 30;
  const definitions = new Map<string, { handler: JobHandler<unknown>; definition: JobDefinition }>();
  /** Each queue's workers (pg-boss's ids), `concurrency` of them. */
  const workerIds = new Map<string, string[]>();
  const runListeners: ((queue: string, outcome: 'completed' | 'retry' | 'failed') => void)[] = [];
  let created = false;
  let stopped = false;
  let legacyTimer: NodeJS.Timeout | undefined;
  // pg-boss does not await every statement it starts (it completes a job without awaiting it): stop
  // waits for those, so the database is never closed under one.
  let inFlight = 0;

  const executeSql = async (sql: string, params?: unknown[]): Promise<{ rows: unknown[] }> => {
    // After stop the database may be closed: nothing runs. A job a handler was finishing then stays
    // active and is retried once it expires (at least once). No rows (not an empty list) is what
    // pg-boss reads as "nothing affected" when it completes or fails a job.
    if (stopped) return {} as { rows: unknown[] };
    inFlight++;
    try {
      if (params?.length) return { rows: await db.query(sql, params) };
      // Without parameters pg-boss may send several statements at once (its schema, locked maintenance),
      // and reads the rows of each.
      try {
        return { rows: await db.execAll(sql) };
      } catch (error) {
        // Two instances installing the schema at once: pg-boss serialises them with an advisory
        // lock, but the second one's connection looked for the schema before it waited, and its
        // catalog cache still says "absent" once it has the lock; `create schema if not exists`
        // then collides with the one just committed (a unique violation, which pg-boss does not
        // recognise as its lost race). Run again, in a new transaction, it sees the schema and
        // fails as pg-boss expects ("already exists").
        if (isCatalogCollision(error) && sql.includes(`CREATE SCHEMA IF NOT EXISTS ${schema}`))
          return { rows: await db.execAll(sql) };
        // A failed `BEGIN; …; COMMIT;` string leaves the session in the aborted transaction; on
        // PGlite that is the only connection. (pg drops a pool client that failed.)
        if (db.kind === 'pglite' && /^\s*BEGIN;/.test(sql)) await db.exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      inFlight--;
    }
  };

  const boss = new PgBoss({
    db: { executeSql },
    schema,
    // No cron schedules yet; the timekeeper would poll for them.
    schedule: false,
    supervise: !options.noWorkers,
    // One pass fails expired runs (monitor) and deletes old jobs (maintenance); supervise starts it.
    superviseIntervalSeconds: maintenanceIntervalSeconds,
    monitorIntervalSeconds: maintenanceIntervalSeconds,
    maintenanceIntervalSeconds,
  });
  boss.on('error', (err) => log.warn({ err }, 'job queue error'));

  const wakeAll = () => {
    for (const id of [...workerIds.values()].flat()) boss.notifyWorker(id);
  };
  // A job committed by this process wakes the workers at once instead of at their next poll.
  const insertJob = INSERT_JOB(schema);
  db.onCommitted((sql) => {
    if (insertJob.test(sql)) wakeAll();
  });

  async function enqueue<T>(q: Queryable, name: string, data: T, opts: EnqueueOptions = {}): Promise<boolean> {
    if (!definitions.has(name)) throw new Error(`no job queue named ${name}`);
    // pg-boss adds a job only to a queue it knows: before start the job would be silently dropped.
    if (!created) throw new Error(`jobs.enqueue(${name}) before jobs.start()`);
    const id = await boss.send(name, data as object, {
      ...(opts.key ? { id: jobIdFor(name, opts.key) } : {}),
      ...(opts.delaySeconds ? { startAfter: opts.delaySeconds } : {}),
      db: { executeSql: async (sql: string, params: unknown[]) => ({ rows: await q.query(sql, params) }) },
    });
    return id !== null;
  }

  /** One multi-row insert per thousand jobs instead of a statement each (a directory sync's invitations). */
  async function enqueueMany<T>(q: Queryable, name: string, jobs: readonly { data: T; key: string }[]): Promise<number> {
    if (!definitions.has(name)) throw new Error(`no job queue named ${name}`);
    if (!created) throw new Error(`jobs.enqueueMany(${name}) before jobs.start()`);
    // pg-boss refuses a list that names one id twice: the same key twice is one job, as with enqueue.
    const byId = new Map(jobs.map((job) => [jobIdFor(name, job.key), job.data as object]));
    const rows = [...byId].map(([id, data]) => ({ id, data }));
    let added = 0;
    for (let at = 0; at < rows.length; at += ENQUEUE_CHUNK) {
      const ids = await boss.insert(name, rows.slice(at, at + ENQUEUE_CHUNK), {
        returnId: true,
        db: { executeSql: async (sql: string, params?: unknown[]) => ({ rows: await q.query(sql, params) }) },
      });
      added += ids?.length ?? 0;
    }
    return added;
  }

  /** Takes over the jobs the previous release's instances left waiting (jobs-legacy.ts). */
  async function moveLegacy() {
    if (schema === LEGACY_JOBS_SCHEMA || stopped) return;
    inFlight++;
    const moved = await moveLegacyJobs(db, [...definitions.keys()], async (tx, name, jobs) => {
      await boss.insert(name, jobs, {
        db: { executeSql: async (sql: string, params?: unknown[]) => ({ rows: await tx.query(sql, params) }) },
      });
    }).finally(() => inFlight--);
    if (moved) log.info({ moved }, "jobs moved from the previous release's queue");
  }

  async function startWorker(name: string) {
    const entry = definitions.get(name);
    if (!entry) return;
    // Assigned once pg-boss answers; a handler that runs before then has no id to wake yet.
    let id = '';
    id = await boss.work(name, { pollingIntervalSeconds, batchSize: 1, includeMetadata: true }, async ([job]) => {
      if (!job) return;
      try {
        await entry.handler(job.data, { id: job.id, attempt: job.retryCount + 1 });
        for (const listener of runListeners) listener(name, 'completed');
      } catch (err) {
        const last = job.retryCount >= job.retryLimit;
        // Job data may carry secrets (a sign-in code): only the queue, the id and the error are logged.
        const entryLog = { queue: name, job: job.id, attempt: job.retryCount + 1, err };
        if (last) log.error(entryLog, `job failed for good after ${job.retryCount + 1} runs`);
        else log.warn(entryLog, 'job failed; it will be retried');
        for (const listener of runListeners) listener(name, last ? 'failed' : 'retry');
        throw err;
      } finally {
        // Take the next job now rather than after the polling interval, so a burst drains quickly.
        if (id) boss.notifyWorker(id);
      }
    });
    workerIds.set(name, [...(workerIds.get(name) ?? []), id]);
  }

  return {
    define<T>(name: string, handler: JobHandler<T>, opts: Partial<JobDefinition> = {}): JobQueue<T> {
      if (created) throw new Error(`jobs.define(${name}) after jobs.start()`);
      if (definitions.has(name)) throw new Error(`job queue ${name} is defined twice`);
      const definition = { ...DEFAULT_JOB_DEFINITION, ...opts };
      definitions.set(name, { handler: handler as JobHandler<unknown>, definition });
      return {
        name,
        enqueue: (q, data, o) => enqueue(q, name, data, o),
        enqueueMany: (q, jobs) => enqueueMany(q, name, jobs),
      };
    },

    enqueue,

    async start() {
      await boss.start();
      for (const [name, { definition }] of definitions) {
        const queue = {
          name,
          retryLimit: definition.retryLimit,
          retryDelay: Math.max(1, Math.round(definition.retryDelaySeconds)),
          retryBackoff: true,
          expireInSeconds: definition.expireInSeconds,
          // How long an ended job (and so its idempotency key) is kept.
          deleteAfterSeconds: 12 * 60 * 60,
        };
        await retryDeadlocked(() => boss.createQueue(name, queue));
        // An existing queue takes this version's settings.
        await retryDeadlocked(() => boss.updateQueue(name, queue));
      }
      created = true;
      // Only a process that runs the jobs takes them over (not the command line's).
      if (options.noWorkers) return;
      await moveLegacy();
      legacyTimer = setInterval(
        () => void moveLegacy().catch((err) => log.warn({ err }, 'moving jobs from the previous release failed')),
        maintenanceIntervalSeconds * 1000,
      );
      legacyTimer.unref();
      for (const [name, { definition }] of definitions) {
        for (let i = 0; i < definition.concurrency; i++) await startWorker(name);
      }
    },

    async stop(timeoutMs = 10_000) {
      if (stopped) return;
      clearInterval(legacyTimer);
      await boss.stop({ graceful: true, timeout: timeoutMs, close: false });
      const deadline = Date.now() + 2000;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      stopped = true;
    },

    async counts() {
      const rows = await db.query<{ name: string; state: JobState; n: number }>(
        `select name, state::text as state, count(*)::int as n from ${schema}.job group by name, state`,
      );
      const queues = new Set([...definitions.keys(), ...rows.map((r) => r.name)]);
      return [...queues].sort().flatMap((queue) =>
        JOB_STATES.map((state) => ({
          queue,
          state,
          count: rows.find((r) => r.name === queue && r.state === state)?.n ?? 0,
        })),
      );
    },

    onRun(listener) {
      runListeners.push(listener);
    },
  };
}
