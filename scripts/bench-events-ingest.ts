// The event-log bench's ingest (scripts/bench-events.ts): batches of events as the licence server's
// outbox sends them, through the signed feed or straight to the service, a few in flight.
import { randomUUID } from 'node:crypto';
import type { EventInput } from '@latchkey/contracts';
import { signCall } from '@latchkey/runtime';
import { SERVER_KEY } from '../apps/hub/src/testing/hub-fixture.ts';

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

/** One batch through the signed server→Hub feed, signed as the licence server signs it. */
export async function postFeed(base: string, team: string, events: EventInput[]): Promise<unknown> {
  const body = { team_slug: team, events };
  const { token, json } = signCall(SERVER_KEY, `cred-${team}`, FEED, team, body);
  const res = await fetch(base + FEED, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: json,
  });
  if (!res.ok) throw new Error(`the feed answered ${res.status}: ${await res.text()}`);
  return res.json();
}

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
