import { createHash } from 'node:crypto';
import PgBoss from 'pg-boss';
import type { Db, Queryable } from './db.ts';

/**
 * Durable background work on a PostgreSQL job queue (pg-boss), on embedded PGlite and on a
 * PostgreSQL server alike. The rules every job follows:
 *
 * - **Outbox.** `enqueue(tx, …)` writes the job in the caller's transaction: the job exists if and
 *   only if the domain write committed. Nothing is sent before the commit, nothing is lost after it.
 * - **At least once.** A handler may run more than once for one job: its process can die after the
 *   effect and before the job is marked done (the job is then retried once it expires). Handlers
 *   must tolerate a re-run: check before acting, or make the effect idempotent on the receiving
 *   side (send the job's `key` or `id` as an idempotency key to an HTTP peer).
 * - **Idempotency key.** `enqueue(…, { key })` makes the job's id from the queue and the key, so a
 *   second enqueue with the same key (a retried request, a replayed event) adds nothing and returns
 *   false, for as long as the first job is kept (until it is archived, 12 h after it ended).
 * - **Retries.** A handler that throws is retried `retryLimit` times, the n-th retry after
 *   `retryDelaySeconds · 2^(n-1)` to twice that (jitter); then the job is `failed` (dead), which
 *   /metrics shows. A run longer than `expireInSeconds` counts as a failure, and a job whose worker
 *   died (kill -9, power loss) is retried once that time has passed.
 *
 * A job with an HTTP call, e.g. telling a Hub something:
 *
 * ```ts
 * const notices = jobs.define<{ hubUrl: string; body: unknown }>(
 *   'hub-notice',
 *   async (data, job) => {
 *     const res = await fetch(data.hubUrl, {
 *       method: 'POST',
 *       headers: { 'content-type': 'application/json', 'idempotency-key': job.id },
 *       body: JSON.stringify(data.body),
 *       signal: AbortSignal.timeout(10_000),
 *     });
 *     // Throwing retries the job with backoff; a 4xx that will never succeed should not throw.
 *     if (res.status >= 500) throw new Error(`hub answered ${res.status}`);
 *   },
 *   { retryLimit: 10, retryDelaySeconds: 5, expireInSeconds: 30 },
 * );
 * await db.transaction(async (tx) => {
 *   await repo.endSession(tx, sessionId);
 *   await notices.enqueue(tx, { hubUrl, body: { session: sessionId } }, { key: `session-ended:${sessionId}` });
 * });
 * ```
 */

export interface JobDefinition {
  /** Retries after the first failed run; then the job is failed for good. */
  retryLimit: number;
  /** The first retry's delay; each further one doubles it (with up to 100 % jitter). Whole seconds, at least 1. */
  retryDelaySeconds: number;
  /** A run longer than this fails (the handler's timeout); a dead worker's job is retried after it. */
  expireInSeconds: number;
  /**
   * Jobs of the queue run at once in each process. One slow job (a call to a Hub that is down,
   * waiting for its timeout) then holds back only its own worker, not every other team's jobs.
   */
  concurrency: number;
}

export const DEFAULT_JOB_DEFINITION: JobDefinition = { retryLimit: 8, retryDelaySeconds: 5, expireInSeconds: 60, concurrency: 1 };

export interface JobRun {
  id: string;
  /** 1 for the first run, 2 for the first retry… */
  attempt: number;
}

export type JobHandler<T> = (data: T, job: JobRun) => Promise<void>;

export interface EnqueueOptions {
  /** Same key, same job: a second enqueue with it adds nothing. */
  key?: string;
  /** Run no sooner than this many seconds from now. */
  delaySeconds?: number;
}

export interface JobQueue<T> {
  readonly name: string;
  /** Adds the job in `q` (the caller's transaction, or the database); false when its key was already queued. */
  enqueue(q: Queryable, data: T, options?: EnqueueOptions): Promise<boolean>;
}

/** Job states as pg-boss names them: created and retry wait, active runs, failed is dead. */
export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface JobCount {
  queue: string;
  state: JobState;
  count: number;
}

export interface JobLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobsOptions {
  log: JobLog;
  /** How often an idle worker looks for jobs; 0.5 s is pg-boss's shortest. Jobs enqueued in this process wake it at once. */
  pollingIntervalSeconds?: number;
  /** How often expired runs are failed (and so retried) and old jobs archived. */
  maintenanceIntervalSeconds?: number;
  /** Don't run handlers here (a process that only enqueues). */
  noWorkers?: boolean;
  /** pg-boss's schema. */
  schema?: string;
}

export interface Jobs {
  /** Declares a queue and its handler; before `start`. */
  define<T>(name: string, handler: JobHandler<T>, options?: Partial<JobDefinition>): JobQueue<T>;
  enqueue<T>(q: Queryable, name: string, data: T, options?: EnqueueOptions): Promise<boolean>;
  /** Installs or upgrades the queue's schema, creates the queues and starts the workers. */
  start(): Promise<void>;
  /** Lets running handlers finish (up to `timeoutMs`), then stops; an unfinished job is retried later. */
  stop(timeoutMs?: number): Promise<void>;
  /** Jobs by queue and state, every defined queue with every state (zeros included). */
  counts(): Promise<JobCount[]>;
  /** Called after every run, for metrics. */
  onRun(listener: (queue: string, outcome: 'completed' | 'retry' | 'failed') => void): void;
}

/** The UUID a queue and an idempotency key always give (the job's id: pg-boss keeps ids unique per queue). */
export function jobIdFor(queue: string, key: string): string {
  const h = createHash('sha256').update(`${queue}\0${key}`).digest('hex');
  // Version 8 (custom) and the RFC 4122 variant, so PostgreSQL's uuid type takes it.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

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

/** pg-boss's statement adding a job, as it reaches `onCommitted`. */
const INSERT_JOB = (schema: string) => new RegExp(`^\\s*INSERT INTO ${schema}\\.job \\(`);

export function createJobs(db: Db, options: JobsOptions): Jobs {
  const { log } = options;
  const schema = options.schema ?? 'pgboss';
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 0.5;
  const definitions = new Map<string, { handler: JobHandler<unknown>; definition: JobDefinition }>();
  /** Each queue's workers (pg-boss's ids), `concurrency` of them. */
  const workerIds = new Map<string, string[]>();
  const runListeners: ((queue: string, outcome: 'completed' | 'retry' | 'failed') => void)[] = [];
  let created = false;
  let stopped = false;
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
      // Without parameters pg-boss may send several statements at once (its schema, locked maintenance).
      try {
        return { rows: await db.exec(sql) };
      } catch (error) {
        // Two instances installing the schema at once: pg-boss serialises them with an advisory
        // lock, but the second one's connection looked for the schema before it waited, and its
        // catalog cache still says "absent" once it has the lock; `create schema if not exists`
        // then collides with the one just committed (a unique violation, which pg-boss does not
        // recognise as its lost race). Run again, in a new transaction, it sees the schema and
        // fails as pg-boss expects ("already exists").
        if (isCatalogCollision(error) && sql.includes(`CREATE SCHEMA IF NOT EXISTS ${schema}`))
          return { rows: await db.exec(sql) };
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
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
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

  async function startWorker(name: string) {
    const entry = definitions.get(name);
    if (!entry) return;
    // Assigned once pg-boss answers; a handler that runs before then has no id to wake yet.
    let id = '';
    id = await boss.work<unknown>(name, { pollingIntervalSeconds, batchSize: 1, includeMetadata: true }, async ([job]) => {
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
      return { name, enqueue: (q, data, o) => enqueue(q, name, data, o) };
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
        };
        await retryDeadlocked(() => boss.createQueue(name, queue));
        // An existing queue takes this version's settings.
        await retryDeadlocked(() => boss.updateQueue(name, queue));
      }
      created = true;
      if (!options.noWorkers)
        for (const [name, { definition }] of definitions)
          for (let i = 0; i < definition.concurrency; i++) await startWorker(name);
    },

    async stop(timeoutMs = 10_000) {
      if (stopped) return;
      await boss.stop({ graceful: true, timeout: timeoutMs, wait: true, close: false });
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
