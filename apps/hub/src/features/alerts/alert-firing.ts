import { randomUUID } from 'node:crypto';
import type { JobQueue, Queryable } from '@latchkey/runtime';
import { type OwnHubEvent, recordHubEvents } from '../eventlogs/index.ts';
import { alertStateRepository as state } from './alert-state.repository.ts';
import type { RuleRow } from './alerts.repository.ts';

export interface DeliverJob {
  firing_id: string;
  destination_id: string;
}

/**
 * A firing in the caller's transaction: its row (once per rule and window), a delivery per
 * destination queued on the job queue, and an `alert.fired` event in the team's log (what the
 * SIEM export carries; marked for the SIEM when the rule names it). All of it or nothing: a run
 * killed before its commit leaves no trace, and the next run makes the same firing.
 */
export async function recordFiring(
  q: Queryable,
  deliver: JobQueue<DeliverJob>,
  rule: RuleRow,
  f: { windowKey: string; group: string; events: { id: string; seq: number }[]; test?: boolean; actor?: string },
  /** Given, the firing's event is added here for the caller to append with the batch's others (one append per batch). */
  logged?: OwnHubEvent[],
): Promise<string | null> {
  const id = await state.fire(q, { id: randomUUID(), ruleId: rule.id, teamSlug: rule.team_slug, ...f });
  if (!id) return null;
  // The SIEM destination is the event itself: delivered once it is in the log.
  await state.addDeliveries(
    q,
    id,
    rule.destinations.map((d) => ({ id: d.id, kind: d.kind, done: d.kind === 'siem' })),
  );
  for (const d of rule.destinations)
    if (d.kind !== 'siem') await deliver.enqueue(q, { firing_id: id, destination_id: d.id }, { key: `${id}:${d.id}` });
  const event: OwnHubEvent = {
    actor: f.actor ?? 'system',
    actor_type: f.actor ? 'admin' : 'system',
    activity: f.test ? 'alert.test_sent' : 'alert.fired',
    component: 'event_logs',
    target: rule.name,
    outcome: 'success',
    detail: {
      rule_id: rule.id,
      firing_id: id,
      matched: f.events.length,
      group: f.group,
      siem_alert: rule.destinations.some((d) => d.kind === 'siem'),
    },
  };
  if (logged) logged.push(event);
  else await recordHubEvents(q, rule.team_slug, [event]);
  return id;
}
