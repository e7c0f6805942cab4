import type { Db, JobLog, Jobs } from '@latchkey/runtime';
import { type OutboxEvent, eventlogsRepository as repo } from './eventlogs.repository.ts';

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

/** One Hub's share of the job: the team's outbox from that Hub's cursor, batch by batch, in order. */
async function forwardToHub(db: Db, hubs: EventHubs, teamId: string, hub: EventHub): Promise<void> {
  let after = await repo.cursor(db, teamId, hub.credential_id);
  for (;;) {
    const rows = await repo.batchAfter(db, teamId, after, BATCH);
    const last = rows.at(-1);
    if (!last) return;
    await hubs.send(
      hub,
      rows.map((r) => r.event),
    );
    after = last.seq;
    await repo.advance(db, teamId, hub.credential_id, after);
    if (rows.length < BATCH) return;
  }
}

/**
 * Sends a team's waiting events to each of its set-up Hubs at once, each from its own cursor, then
 * deletes what all of them have taken. A Hub that is down holds back only itself; the job then
 * fails, and is retried with backoff, for that Hub (the others have nothing left to send, and the
 * Hub de-duplicates by event id whatever is sent twice).
 */
export async function forwardTeam(db: Db, hubs: EventHubs, teamId: string): Promise<void> {
  const targets = await hubs.hubsOf(teamId);
  if (!targets.length) return;
  const sent = await Promise.allSettled(targets.map((hub) => forwardToHub(db, hubs, teamId, hub)));
  await repo.pruneDelivered(
    db,
    teamId,
    targets.map((t) => t.credential_id),
  );
  const failed = sent.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Moves the outbox to the Hubs: a poller queues one job per team with events waiting (deduplicated
 * by a time bucket); the job is `forwardTeam`. A Hub that is down fails the job, which pg-boss
 * retries with exponential backoff and jitter; its rows wait. A team without a set-up Hub keeps its
 * events until one is set up.
 */
export function createEventForwarder(db: Db, jobs: Jobs, hubs: EventHubs, o: { log: JobLog; intervalMs?: number }) {
  const forward = jobs.define<{ teamId: string }>('events-to-hub', async ({ teamId }) => forwardTeam(db, hubs, teamId), {
    retryLimit: 20,
    retryDelaySeconds: 1,
    expireInSeconds: 120,
    // One team's Hub that is down (each call waiting for its timeout) holds back only one of these.
    concurrency: 4,
  });

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
