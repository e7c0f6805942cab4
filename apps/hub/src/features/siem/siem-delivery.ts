import { createPump, type Db, type JobLog, type Jobs } from '@latchkey/runtime';
import { hubOutboundPolicy } from '../../platform/outbound.ts';
import { eventLogReads, recordHubEvents } from '../eventlogs/index.ts';
import { DeliveryError, SENDERS, type SenderContext } from './senders.ts';
import { siemRepository as repo } from './siem.repository.ts';

/** Events per request to a destination (~600 KB as Splunk HEC JSON; HEC's default limit is far above). */
export const SIEM_BATCH = 1_000;
/** Batches taken by a destination and awaiting its later confirmation (Splunk's indexer acknowledgement) at once. */
const SIEM_IN_FLIGHT = 8;
/** How long one delivery run goes on; then it ends and the pump starts the next (other jobs get their turn). */
const RUN_MS = 20_000;
/** Delivery runs one Hub process makes at once, each to another destination. */
const SIEM_RUNS_AT_ONCE = 8;
const LEASE_SECONDS = 120;
/** How long a destination fails, no batch delivered, before the team's log says so. */
const FAILING_MINUTES = 15;

export interface SiemDeliveryOptions {
  sentinelUrl: string;
  sentinelTokenUrl: string;
  pumpIntervalMs: number;
  log: JobLog;
  ca?: string | undefined;
  /** How long a delivery run holds its destination; a run whose process died frees it when this ends. */
  leaseSeconds?: number;
  /** The backoff after a failure: base doubled per failure, up to max (milliseconds). */
  retry?: { baseMs: number; maxMs: number };
}

/** What every sender is given: the outbound guard, the Hub's Sentinel endpoints, the destination's channel, extra CAs. */
export const senderContext = (o: SiemDeliveryOptions, requestChannel: string): SenderContext => ({
  policy: hubOutboundPolicy(),
  sentinelUrl: o.sentinelUrl,
  sentinelTokenUrl: o.sentinelTokenUrl,
  channel: requestChannel,
  ca: o.ca,
});

/**
 * Delivery that loses nothing: a cursor per destination moved only after the destination accepted
 * a batch, runs on the job queue, one at a time per destination (a lease), backoff with jitter
 * after failures. A pump queues a run for every destination behind its team's head.
 */
export function createSiemDelivery(db: Db, jobs: Jobs, o: SiemDeliveryOptions) {
  const retry = o.retry ?? { baseMs: 1_000, maxMs: 300_000 };

  /**
   * One delivery run for a destination: batches from its cursor until caught up or the run's time is
   * used (then the pump starts the next, and other jobs get their turn). Batches go one after the
   * other, the next read while one is out, so a batch is never sent while an earlier one may still
   * fail (its events would then come twice). What a destination confirms later (Splunk's indexer
   * acknowledgement) is awaited for a few batches at once, in order; the cursor moves past a batch
   * only once it and every batch before it were confirmed.
   */
  async function deliver(id: string): Promise<void> {
    const d = await repo.lease(db, id, o.leaseSeconds ?? LEASE_SECONDS);
    if (!d) return;
    const deadline = Date.now() + RUN_MS;
    const read = (after: number) => eventLogReads.after(db, d.team_slug, after, SIEM_BATCH);
    const waiting: { last: number; count: number; confirmed: Promise<void> }[] = [];
    // Once a confirmation failed, no later batch may move the cursor past it.
    let unconfirmed = false;
    // The cursor moves in order, one update after the other, while the next batch is already on its way;
    // an update that fails stops the ones after it (the chain rejects).
    let committed: Promise<void> = Promise.resolve();
    const settleOldest = async () => {
      const oldest = waiting.shift();
      if (!oldest) return;
      try {
        await oldest.confirmed;
      } catch (error) {
        unconfirmed = true;
        throw error;
      }
      committed = committed.then(() => repo.delivered(db, id, oldest.last, oldest.count));
      committed.catch(() => {
        unconfirmed = true;
      });
    };
    let failure: unknown = null;
    try {
      let rows = await read(Number(d.cursor_seq));
      while (rows.length && !unconfirmed) {
        const last = rows[rows.length - 1]?.seq ?? 0;
        const next = rows.length === SIEM_BATCH && Date.now() < deadline ? read(last) : Promise.resolve([]);
        // A read behind a failed batch is never awaited: its failure must not become an unhandled rejection.
        next.catch(() => undefined);
        const taken = await SENDERS[d.siem_tool](rows, d.config, senderContext(o, d.request_channel)).catch((error: unknown) => {
          // Sent in parts, the first of them taken: the cursor moves past those, so they are not sent twice.
          const through = error instanceof DeliveryError ? error.takenThrough : undefined;
          if (through !== undefined)
            waiting.push({ last: through, count: rows.filter((r) => r.seq <= through).length, confirmed: Promise.resolve() });
          throw error;
        });
        const confirmed = taken?.confirmed ?? Promise.resolve();
        confirmed.catch(() => undefined);
        waiting.push({ last, count: rows.length, confirmed });
        while (waiting.length >= SIEM_IN_FLIGHT || (waiting.length && !taken)) await settleOldest();
        rows = await next;
      }
    } catch (error) {
      failure = error;
    }
    try {
      // Batches taken before a failure still move the cursor as each is confirmed (in order): never sent twice.
      while (waiting.length && !unconfirmed) await settleOldest();
    } catch (error) {
      failure ??= error;
    }
    try {
      await committed;
    } catch (error) {
      failure ??= error;
    }
    try {
      if (failure) {
        const message = failure instanceof DeliveryError ? failure.message : 'The delivery failed.';
        const retryAfterMs = failure instanceof DeliveryError ? failure.retryAfterMs : undefined;
        await repo.failed(db, id, message, { ...retry, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
        o.log.warn({ destination: id, error: message }, 'SIEM delivery failed; retrying with backoff');
        await reportFailing(id, message).catch((err: unknown) => o.log.warn({ err }, 'SIEM failing not recorded'));
      }
    } finally {
      // Confirmations still awaited after a failure end before the destination is free for the next run.
      await Promise.allSettled(waiting.map((b) => b.confirmed));
      await repo.release(db, id);
    }
  }

  /** Failing for FAILING_MINUTES: said once in the team's log (`siem.delivery_failing`), for alert rules. */
  async function reportFailing(id: string, message: string) {
    await db.transaction(async (tx) => {
      const failing = await repo.failingFor(tx, id, FAILING_MINUTES);
      if (!failing) return;
      await recordHubEvents(tx, failing.team_slug, [
        {
          actor: 'system',
          actor_type: 'system',
          activity: 'siem.delivery_failing',
          component: 'event_logs',
          target: failing.siem_tool,
          outcome: 'failure',
          detail: { failing_since: new Date(failing.failing_since).toISOString(), error: message.slice(0, 200) },
        },
      ]);
    });
  }

  // The retry is the destination's backoff (next_attempt_at), so a failed run is not retried by the queue too.
  // Several runs at once (each on its own destination, the lease sees to that): one destination slow to
  // answer or timing out does not hold back every other team's.
  const runs = jobs.define<{ id: string }>('siem-deliver', async ({ id }) => deliver(id), {
    retryLimit: 0,
    retryDelaySeconds: 1,
    expireInSeconds: LEASE_SECONDS,
    concurrency: SIEM_RUNS_AT_ONCE,
  });

  /** Finds destinations behind their team's head and queues one run each (deduplicated by cursor and last attempt, per instance and across). */
  async function pump() {
    for (const d of await repo.behind(db)) {
      // One run per cursor and attempt: a run that failed (its attempt is later) may be followed at once by the next.
      await runs.enqueue(db, { id: d.id }, { key: `${d.id}:${d.cursor_seq}:${d.attempt}` });
    }
  }

  const { start, stop, kick } = createPump(pump, {
    intervalMs: o.pumpIntervalMs,
    log: o.log,
    failed: 'SIEM pump failed',
    whilePumping: 'join',
  });
  return {
    start,
    stop,
    /** New events for a team, or a destination changed: look now rather than at the next tick. */
    kick,
  };
}
