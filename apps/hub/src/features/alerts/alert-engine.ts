import { createPump, type Db, type JobLog, type JobQueue, type Jobs } from '@latchkey/runtime';
import { eventLogReads } from '../eventlogs/index.ts';
import { evaluateBatch } from './alert-evaluate.ts';
import type { DeliverJob } from './alert-firing.ts';
import { alertStateRepository as state } from './alert-state.repository.ts';
import { alertsRepository as repo } from './alerts.repository.ts';

/** Events evaluated per transaction. */
export const ALERT_BATCH = 1_000;
/** How long one run goes on; then the pump starts the next (other teams' runs get their turn). */
const RUN_MS = 10_000;
const RUNS_AT_ONCE = 4;
/** How long a run that caught up waits for more before it ends. */
const IDLE_MS = 1_000;

export interface AlertEngineOptions {
  pumpIntervalMs: number;
  leaseSeconds: number;
  log: JobLog;
}

/**
 * Rules evaluated as events arrive: a cursor per team over its chain's seq, moved in the same
 * transaction as the firings its batch made, so a run killed mid-batch loses nothing and a re-run
 * makes nothing twice. Runs go on the job queue, one per team at once (a lease); a pump (and every
 * append, through `kick`) queues one for each team whose head is past its cursor.
 */
export function createAlertEngine(db: Db, jobs: Jobs, deliver: JobQueue<DeliverJob>, o: AlertEngineOptions) {
  async function run(teamSlug: string): Promise<void> {
    let cursor = await repo.lease(db, teamSlug, o.leaseSeconds);
    if (cursor === null) return;
    const deadline = Date.now() + RUN_MS;
    try {
      let idleUntil = Date.now() + IDLE_MS;
      while (Date.now() < deadline) {
        const events = await eventLogReads.after(db, teamSlug, cursor, ALERT_BATCH);
        const last = events.at(-1);
        if (!last) {
          // Caught up: the run stays a moment for what arrives next (while ingest runs, the next
          // batch comes sooner than a new run would start).
          if (Date.now() >= idleUntil) break;
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        idleUntil = Date.now() + IDLE_MS;
        const from = cursor;
        await db.transaction(async (tx) => {
          // The rules as they are now, read under the cursor's lock (a rule made meanwhile waits for it).
          if ((await repo.lockCursor(tx, teamSlug)) !== from) throw new Error('the alert cursor moved under this run');
          await evaluateBatch(tx, deliver, await repo.enabled(tx, teamSlug), events);
          // Moved from where this run read it, or the whole batch is undone.
          if (!(await repo.advance(tx, teamSlug, from, last.seq))) throw new Error('the alert cursor moved under this run');
        });
        cursor = last.seq;
      }
      await state.forgetExpired(db, teamSlug);
    } finally {
      await repo.release(db, teamSlug);
    }
  }

  const runs = jobs.define<{ team: string }>('alert-evaluate', async ({ team }) => run(team), {
    retryLimit: 0,
    retryDelaySeconds: 1,
    expireInSeconds: o.leaseSeconds,
    concurrency: RUNS_AT_ONCE,
  });

  /** Queues a run for every team with a rule on whose head is past its cursor (one per cursor and last run). */
  async function pump() {
    const due = await repo.due(db);
    if (!due.length) return;
    const heads = await eventLogReads.siemHeads(
      db,
      due.map((d) => d.team_slug),
    );
    for (const d of due) {
      if ((heads.get(d.team_slug)?.seq ?? 0) <= d.cursor_seq) continue;
      await runs.enqueue(db, { team: d.team_slug }, { key: `${d.team_slug}:${d.cursor_seq}:${d.run}` });
    }
  }

  // An append while the pump runs is looked at right after it.
  const { start, stop, kick } = createPump(pump, {
    intervalMs: o.pumpIntervalMs,
    log: o.log,
    failed: 'alert pump failed',
    whilePumping: 'again',
  });
  return {
    start,
    stop,
    /** New events for a team: look now rather than at the next tick. */
    kick,
  };
}
