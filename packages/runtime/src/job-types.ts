import type { Queryable } from './db.ts';

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
 *   false, for as long as the first job is kept (until it is deleted, 12 h after it ended).
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
  /**
   * Adds many jobs in `q` in a few statements (each job's key as `enqueue`'s: a key already queued,
   * or twice in the list, adds nothing); how many were added.
   */
  enqueueMany(q: Queryable, jobs: readonly { data: T; key: string }[]): Promise<number>;
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
  /** How often expired runs are failed (and so retried) and ended jobs past their 12 h deleted. */
  maintenanceIntervalSeconds?: number;
  /** Don't run handlers here (a process that only enqueues). */
  noWorkers?: boolean;
  /** pg-boss's schema; `job_queue` unless a test wants its own. */
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
