import type { StoredEvent } from '../eventlogs/index.ts';

/** An event as the SIEM delivery reads it from the log (oldest first, with its team). */
export type SiemEvent = StoredEvent;

/** The event as every JSON destination receives it: flat, stable keys, the chain fields included. */
export const eventJson = (e: SiemEvent) => ({
  id: e.id,
  seq: e.seq,
  team: e.team_slug,
  occurred_at: e.occurred_at,
  recorded_at: e.recorded_at,
  actor: e.actor,
  actor_type: e.actor_type,
  activity: e.activity,
  component: e.component,
  target: e.target,
  ip: e.ip,
  device: e.device,
  outcome: e.outcome,
  detail: e.detail,
  prev_hash: e.prev_hash,
  hash: e.hash,
});

export const ndjson = (events: SiemEvent[]) => `${events.map((e) => JSON.stringify(eventJson(e))).join('\n')}\n`;
