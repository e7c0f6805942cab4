import { randomUUID } from 'node:crypto';
import { type ActivityCode, catalogueEntry, type EventInput } from '@latchkey/contracts';
import { currentRequestOrigin, deviceFromUserAgent, type Queryable } from '@latchkey/runtime';
import { eventChainRepository } from './event-chain.repository.ts';
import type { NewEvent } from './event-rows.ts';

/** What a Hub feature records: the contracts' event, the store filling in its id and time when not given. */
export type HubEvent = Omit<EventInput, 'id' | 'occurred_at'> & Partial<Pick<EventInput, 'id' | 'occurred_at'>>;
/** What the Hub's own features record: an activity the catalogue declares (packages/contracts/src/event-catalogue). */
export type OwnHubEvent = HubEvent & { activity: ActivityCode };

/** The event with every default filled in, as the chain stores it. */
function normalise(e: HubEvent): NewEvent {
  return {
    id: e.id ?? randomUUID(),
    actor: e.actor ?? '',
    actor_type: e.actor_type,
    activity: e.activity,
    component: e.component,
    target: e.target ?? '',
    ip: e.ip ?? '',
    device: e.device ?? '',
    occurred_at: e.occurred_at ?? new Date().toISOString(),
    outcome: e.outcome ?? 'success',
    detail: e.detail ?? {},
  };
}

/**
 * The one way into the log: appends events to the team's chain in the caller's transaction (`q`),
 * each id once. Returns how many were new.
 */
export function appendEvents(q: Queryable, teamSlug: string, events: readonly HubEvent[]): Promise<number> {
  return eventChainRepository.append(q, teamSlug, events.map(normalise));
}

/**
 * Records Hub events in the caller's transaction (`q`): the event exists if and only if the change
 * it describes committed. Other features call this through `features/eventlogs/index.ts`.
 */
export async function recordHubEvents(q: Queryable, teamSlug: string, events: readonly OwnHubEvent[]): Promise<number> {
  // Typed by the catalogue; a code made at run time is checked in tests too (production keeps the event).
  for (const e of events)
    if (process.env.VITEST && !catalogueEntry(e.activity))
      throw new Error(`Activity ${e.activity} is not in the activity catalogue.`);
  // Made while handling a request (a console or app call): its IP and device unless the caller gave them.
  const origin = currentRequestOrigin();
  const device = deviceFromUserAgent(origin.userAgent);
  return appendEvents(
    q,
    teamSlug,
    events.map((e) => ({ ...e, ip: e.ip || origin.ip || '', device: e.device || device })),
  );
}
