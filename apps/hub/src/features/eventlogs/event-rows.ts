import type { EventInput, EventRecord } from '@latchkey/contracts';
import { canonicalTimeSql } from './event-time.ts';

/** One event as the store appends it: the contracts' event, every default filled in (`id` is the source's stable id). */
export type NewEvent = Required<EventInput>;

/** An event as the log keeps it: the contracts' record and its team (what a SIEM receives). */
export type StoredEvent = EventRecord & { team_slug: string };

/** A stored event as the database answers it (seq may come back as text). */
export type EventRow = Omit<StoredEvent, 'seq'> & { seq: string | number };

export const COLUMNS =
  'team_slug, seq, id, actor, actor_type, activity, component, target, ip, device, occurred_at, recorded_at, outcome, detail, prev_hash, hash';
/** What reads select: the times as the chain's text, from the stored values (event-time.ts). */
export const READ_COLUMNS = COLUMNS.replace(
  'occurred_at, recorded_at',
  `${canonicalTimeSql('occurred_at')} as occurred_at, ${canonicalTimeSql('recorded_at')} as recorded_at`,
);

export function toRecord(r: EventRow): StoredEvent {
  return {
    team_slug: r.team_slug,
    seq: Number(r.seq),
    id: r.id,
    actor: r.actor,
    actor_type: r.actor_type,
    activity: r.activity,
    component: r.component,
    target: r.target,
    ip: r.ip,
    device: r.device,
    occurred_at: r.occurred_at,
    recorded_at: r.recorded_at,
    outcome: r.outcome,
    detail: r.detail ?? {},
    prev_hash: r.prev_hash,
    hash: r.hash,
  };
}

// ── the monthly partitions of event_log and of its search index ──
export const monthStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
export const nextMonth = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
export const partitionName = (d: Date) => `event_log_y${d.getUTCFullYear()}m${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
/** The search index's partition beside an event_log partition (migration 0013: same bounds). */
export const searchPartitionOf = (eventLogPartition: string) => eventLogPartition.replace(/^event_log_/, 'event_search_');
/** The first day (`YYYY-MM-DD`) of an event_log partition's month, as event_search_values keys it. */
export const monthOfPartition = (partition: string) => partition.replace(/^event_log_y(\d{4})m(\d{2})$/, '$1-$2-01');
/** A month's first day from its partition's upper bound. */
export const monthBefore = (upper: Date) => new Date(Date.UTC(upper.getUTCFullYear(), upper.getUTCMonth() - 1, 1));
