import { randomUUID } from 'node:crypto';
import { type SiemTool, type SiemToolName, siemSecretMoved } from '@latchkey/contracts';
import { AppError, type Db, type JobLog, type Jobs } from '@latchkey/runtime';
import { hubOutboundPolicy } from '../../platform/outbound.ts';
import { eventsRepository } from './events.repository.ts';
import { recordHubEvents } from './events.service.ts';
import { type DestinationRow, siemRepository as repo } from './siem.repository.ts';
import { DeliveryError, requiredSecrets, SECRET_FIELDS, SENDERS, type SiemConfig, type SiemEvent } from './siem-senders.ts';

/** Events per request to a destination (~600 KB as Splunk HEC JSON; HEC's default limit is far above). */
export const SIEM_BATCH = 1_000;
/** Batches taken by a destination and awaiting its later confirmation (Splunk's indexer acknowledgement) at once. */
const SIEM_IN_FLIGHT = 8;
/** How long one delivery run goes on; then it ends and the pump starts the next (other jobs get their turn). */
const RUN_MS = 20_000;
/** Delivery runs one Hub process makes at once, each to another destination. */
const SIEM_RUNS_AT_ONCE = 8;
const LEASE_SECONDS = 120;

const notFound = () => new AppError('not_found', 'No SIEM destination is configured.').shows('errors.siem_not_found');
const unreachable = (message: string) =>
  new AppError('url_not_accessible', `The destination did not take a test event: ${message}`).shows('siem_url_unreachable');

/**
 * SIEM export: the team's destination (one per team, spec §3 "SIEM tool"), its state (spec §4:
 * configured inactive → active), and delivery that loses nothing: a cursor per destination moved
 * only after the destination accepted a batch, runs on the job queue, one at a time per
 * destination (a lease), backoff with jitter after failures.
 */
export function createSiemService(
  db: Db,
  jobs: Jobs,
  o: {
    sentinelUrl: string;
    sentinelTokenUrl: string;
    pumpIntervalMs: number;
    log: JobLog;
    ca?: string | undefined;
    /** How long a delivery run holds its destination; a run whose process died frees it when this ends. */
    leaseSeconds?: number;
    /** The backoff after a failure: base doubled per failure, up to max (milliseconds). */
    retry?: { baseMs: number; maxMs: number };
  },
) {
  const retry = o.retry ?? { baseMs: 1_000, maxMs: 300_000 };
  const ctxFor = (requestChannel: string) => ({
    policy: hubOutboundPolicy(),
    sentinelUrl: o.sentinelUrl,
    sentinelTokenUrl: o.sentinelTokenUrl,
    channel: requestChannel,
    ca: o.ca,
  });

  async function view(d: DestinationRow): Promise<SiemTool> {
    const head = await eventsRepository.head(db, d.team_slug);
    const secrets = SECRET_FIELDS[d.siem_tool];
    const cursor = Number(d.cursor_seq);
    return {
      id: d.id,
      siem_tool: d.siem_tool,
      is_active: d.is_active,
      status: d.status,
      last_synced: d.last_success_at ? Math.floor(new Date(d.last_success_at).getTime() / 1000) : null,
      config: Object.fromEntries(Object.entries(d.config).filter(([k]) => !secrets.includes(k))),
      has_secret: secrets.some((k) => Boolean(d.config[k])),
      health: {
        cursor_seq: cursor,
        head_seq: head.seq,
        lag: Math.max(0, head.seq - cursor),
        delivered_count: Number(d.delivered_count),
        last_error: d.last_error,
        last_success_at: d.last_success_at ? new Date(d.last_success_at).toISOString() : null,
        last_attempt_at: d.last_attempt_at ? new Date(d.last_attempt_at).toISOString() : null,
      },
    };
  }

  async function sendTest(tool: SiemToolName, config: SiemConfig, teamSlug: string, requestChannel: string) {
    const now = new Date().toISOString();
    const event: SiemEvent = {
      team_slug: teamSlug,
      id: randomUUID(),
      seq: 0,
      actor: 'system',
      actor_type: 'system',
      activity: 'siem.test',
      component: 'event_logs',
      target: '',
      ip: '',
      device: '',
      occurred_at: now,
      recorded_at: now,
      outcome: 'success',
      detail: { message: 'Latchkey test event' },
      prev_hash: '',
      hash: '',
    };
    try {
      const taken = await SENDERS[tool]([event], config, ctxFor(requestChannel));
      await taken?.confirmed;
    } catch (error) {
      throw unreachable(error instanceof Error ? error.message : 'no answer');
    }
  }

  async function current(teamSlug: string, id: string) {
    const d = await repo.forTeam(db, teamSlug);
    if (!d || d.id !== id) throw notFound();
    return d;
  }

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
    const read = (after: number) => eventsRepository.after(db, d.team_slug, after, SIEM_BATCH);
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
        const taken = await SENDERS[d.siem_tool](rows, d.config, ctxFor(d.request_channel)).catch((error: unknown) => {
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
      }
    } finally {
      // Confirmations still awaited after a failure end before the destination is free for the next run.
      await Promise.allSettled(waiting.map((b) => b.confirmed));
      await repo.release(db, id);
    }
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

  let timer: NodeJS.Timeout | undefined;
  let pumping: Promise<void> | null = null;
  const tick = () => {
    pumping ??= pump()
      .catch((error: unknown) => o.log.warn({ err: error }, 'SIEM pump failed'))
      .finally(() => {
        pumping = null;
      });
    return pumping;
  };

  return {
    start() {
      timer = setInterval(() => void tick(), o.pumpIntervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await pumping;
    },
    /** New events for a team: look now rather than at the next tick. */
    kick: () => void tick(),
    deliver,

    async tool(teamSlug: string) {
      const d = await repo.forTeam(db, teamSlug);
      return d ? { code: 'ok' as const, data: await view(d) } : { code: 'not_found' as const, data: null };
    },

    async configure(
      teamSlug: string,
      actor: string,
      input: { siem_tool: SiemToolName; id?: string | undefined } & Record<string, unknown>,
    ) {
      const existing = await repo.forTeam(db, teamSlug);
      if (input.id && existing?.id !== input.id) throw notFound();
      if (existing?.is_active)
        throw new AppError('not_allowed', 'Deactivate the SIEM destination before editing it.').shows('errors.siem_edit_active');
      const { team_slug: _t, id: _id, siem_tool, ...fields } = input;
      const config: SiemConfig = {};
      for (const [k, v] of Object.entries(fields)) if (typeof v === 'string' || typeof v === 'boolean') config[k] = v;
      for (const k of requiredSecrets(siem_tool, config)) {
        if (config[k]) continue;
        const kept = existing?.siem_tool === siem_tool ? existing.config[k] : undefined;
        if (!kept)
          throw new AppError('invalid_input', 'this field is required', 400, [{ path: k, message: 'this field is required' }]);
        // Checked before any test event: a stored secret is never sent anywhere it did not go before.
        if (existing && siemSecretMoved(siem_tool, existing.config, config))
          throw new AppError(
            'invalid_input',
            'The destination changed: enter its secret again (a stored secret is never sent to a new address).',
            400,
            [{ path: k, message: 'siem.form.secret_again' }],
          ).shows('siem.form.secret_again');
        config[k] = kept;
      }
      // The webhook signs with a secret of its own: a receiver holding the bearer token cannot forge a delivery.
      if (siem_tool === 'other' && config.signing_secret === config.token)
        throw new AppError('invalid_input', 'The signing secret must not be the token.', 400, [
          { path: 'signing_secret', message: 'siem.form.signing_secret_same' },
        ]);
      // A new destination's channel is made before its first test event, and kept with it.
      const requestChannel = existing?.request_channel ?? randomUUID();
      await sendTest(siem_tool, config, teamSlug, requestChannel);
      const saved = await db.transaction(async (tx) => {
        const head = await eventsRepository.head(tx, teamSlug);
        const row = await repo.save(tx, teamSlug, siem_tool, config, head.seq, requestChannel);
        await recordHubEvents(tx, teamSlug, [
          {
            actor,
            actor_type: 'admin',
            activity: existing ? 'siem.updated' : 'siem.configured',
            component: 'event_logs',
            target: siem_tool,
          },
        ]);
        return row;
      });
      return { code: 'ok' as const, data: await view(saved) };
    },

    async update(teamSlug: string, actor: string, input: { id: string; action: string; from_timestamp?: number | undefined }) {
      const d = await current(teamSlug, input.id);
      const audit = (activity: string, detail: Record<string, string | number> = {}) =>
        db.transaction((tx) =>
          recordHubEvents(tx, teamSlug, [
            { actor, actor_type: 'admin', activity, component: 'event_logs', target: d.siem_tool, detail },
          ]),
        );
      switch (input.action) {
        case 'activate':
          await repo.setActive(db, d.id, true);
          await repo.clearBackoff(db, d.id);
          await audit('siem.activated');
          break;
        case 'deactivate':
          await repo.setActive(db, d.id, false);
          await audit('siem.deactivated');
          break;
        case 'delete':
          if (d.is_active)
            throw new AppError('not_allowed', 'Deactivate the SIEM destination before deleting it.').shows(
              'errors.siem_delete_active',
            );
          await repo.remove(db, d.id);
          await audit('siem.deleted');
          return { code: 'deleted' as const, data: null };
        case 'test':
          await sendTest(d.siem_tool, d.config, teamSlug, d.request_channel);
          await repo.clearBackoff(db, d.id);
          break;
        case 'backfill': {
          if (input.from_timestamp === undefined)
            throw new AppError('invalid_input', 'from_timestamp is required', 400, [
              { path: 'from_timestamp', message: 'this field is required' },
            ]);
          const first = await eventsRepository.firstSeqSince(db, teamSlug, new Date(input.from_timestamp * 1000));
          const head = await eventsRepository.head(db, teamSlug);
          await repo.setCursor(db, d.id, Math.max(0, (first ?? head.seq + 1) - 1));
          await repo.clearBackoff(db, d.id);
          await audit('siem.backfill', { from_timestamp: input.from_timestamp });
          break;
        }
      }
      const after = await repo.byId(db, d.id);
      if (!after) throw notFound();
      void tick();
      return { code: 'ok' as const, data: await view(after) };
    },
  };
}
export type SiemService = ReturnType<typeof createSiemService>;
