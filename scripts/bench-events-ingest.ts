// The event-log bench's ingest (scripts/bench-events.ts): batches of events as the licence server's
// outbox sends them, through the signed feed or straight to the service, a few in flight.
import { randomUUID } from 'node:crypto';
import type { EventInput } from '@latchkey/contracts';
import { signCall } from '@latchkey/runtime';
import { SERVER_KEY } from '../apps/hub/src/testing/hub-fixture.ts';
import { load } from './bench-stats.ts';

const FEED = '/api/v1/integrate/events/';

export const makeEvents = (n: number, i = 0): EventInput[] =>
  Array.from({ length: n }, (_, j) => ({
    id: randomUUID(),
    actor: `member.${(i + j) % 5000}@northwind.example`,
    actor_type: 'admin' as const,
    activity: 'group.member_added',
    component: 'groups',
    target: `Group ${(i + j) % 2000}`,
    ip: `10.1.${(i + j) % 250}.7`,
    device: 'Chrome on macOS',
    occurred_at: new Date().toISOString(),
    detail: { n: i + j },
  }));

/** Sends `total` events in batches of `size`, `concurrency` batches in flight; returns events a second. */
export async function ingestBatches(
  total: number,
  size: number,
  concurrency: number,
  send: (events: EventInput[]) => Promise<unknown>,
): Promise<number> {
  const batches = Array.from({ length: Math.ceil(total / size) }, (_, b) => makeEvents(size, b * size));
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batches.length) await send(batches[next++] as EventInput[]);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

/**
 * Events a second through the signed feed, the batches signed beforehand and sent from their own
 * thread by the bench's bare HTTP client (bench-load.mjs): the licence server is another process,
 * and signing and sending are its work, not the Hub's.
 */
export async function feedRate(base: string, team: string, total: number, size: number, concurrency: number): Promise<number> {
  const signed = Array.from({ length: Math.ceil(total / size) }, (_, b) =>
    signCall(SERVER_KEY, `cred-${team}`, FEED, team, { team_slug: team, events: makeEvents(size, b * size) }),
  );
  const result = await load({
    url: base + FEED,
    token: '',
    tokens: signed.map((s) => s.token),
    bodies: signed.map((s) => s.json),
    seconds: 50,
    concurrency,
    once: true,
  });
  if (result.errors || result.latenciesMs.length !== signed.length)
    throw new Error(`the feed refused ${result.errors} of ${signed.length} batches`);
  return total / result.seconds;
}
