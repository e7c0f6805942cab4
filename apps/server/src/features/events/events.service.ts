import type { Db, JobLog, Jobs } from '@latchkey/runtime';
import { type OutboxEvent, eventsRepository as repo } from './events.repository.ts';

export interface EventHub {
  server_url: string;
  credential_id: string;
  team_slug: string;
}

/** How the forwarder reaches a team's Hubs (the integration feature's, given by the composition root). */
export interface EventHubs {
  hubsOf(teamId: string): Promise<EventHub[]>;
  send(hub: EventHub, events: OutboxEvent[]): Promise<unknown>;
}

const BATCH = 500;

/**
 * Moves the outbox to the Hubs: a poller queues one job per team with events waiting (deduplicated
 * by a time bucket), the job sends them in batches in order, each batch to every set-up Hub of the
 * team, and deletes a batch once all took it. A Hub that is down fails the job, which pg-boss
 * retries with exponential backoff and jitter; the rows wait. A team without a set-up Hub keeps its
 * events until one is set up.
 */
export function createEventForwarder(db: Db, jobs: Jobs, hubs: EventHubs, o: { log: JobLog; intervalMs?: number }) {
  const forward = jobs.define<{ teamId: string }>(
    'events-to-hub',
    async ({ teamId }) => {
      const targets = await hubs.hubsOf(teamId);
      if (!targets.length) return;
      for (;;) {
        const rows = await repo.batch(db, teamId, BATCH);
        if (!rows.length) return;
        for (const hub of targets)
          await hubs.send(
            hub,
            rows.map((r) => r.event),
          );
        await repo.remove(db, teamId, rows[rows.length - 1]?.seq ?? '0');
        if (rows.length < BATCH) return;
      }
    },
    { retryLimit: 20, retryDelaySeconds: 1, expireInSeconds: 120 },
  );

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  const tick = () => {
    running ??= (async () => {
      const bucket = Math.floor(Date.now() / 1_000);
      for (const teamId of await repo.pendingTeams(db)) {
        if (!(await hubs.hubsOf(teamId)).length) continue;
        await forward.enqueue(db, { teamId }, { key: `${teamId}:${bucket}` });
      }
    })()
      .catch((error: unknown) => o.log.warn({ err: error }, 'event forwarding not queued'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  return {
    start() {
      timer = setInterval(() => void tick(), o.intervalMs ?? 1_000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
    tick,
  };
}
