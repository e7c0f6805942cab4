import { EventFilters } from '@latchkey/contracts';
import type { StoredEvent } from '../eventlogs/index.ts';

/** The filters with the contract's defaults filled in. */
export type RuleFilters = Required<EventFilters>;

export const ruleFilters = (f: unknown): RuleFilters => EventFilters.parse(f ?? {}) as RuleFilters;

/** What the alerts write themselves: never matched, so a rule cannot set itself off. */
const OWN_ACTIVITIES = new Set(['alert.fired', 'alert.test_sent']);

/**
 * The event-log search's test (event-filter-sql.ts) on one event in memory: the rules are tested on
 * each batch as it arrives, not by a query per rule. The free-text search is `ilike` over the same
 * columns, literal and anywhere.
 */
export function matches(f: RuleFilters, e: StoredEvent): boolean {
  if (OWN_ACTIVITIES.has(e.activity)) return false;
  if (f.activities.length && !f.activities.includes(e.activity)) return false;
  if (f.actors.length && !f.actors.includes(e.actor)) return false;
  if (f.components.length && !f.components.includes(e.component)) return false;
  if (f.ip_addresses.length && !f.ip_addresses.includes(e.ip)) return false;
  const at = Date.parse(e.occurred_at) / 1000;
  if (f.dates.start_timestamp != null && at < f.dates.start_timestamp) return false;
  if (f.dates.end_timestamp != null && at > f.dates.end_timestamp) return false;
  if (f.search_value) {
    const body = [e.actor, e.target, e.activity, e.ip, e.device, e.component].join('\x1f').toLowerCase();
    if (!body.includes(f.search_value.toLowerCase())) return false;
  }
  return true;
}

/** The group a threshold counts in: one per actor, address or target, or the rule as a whole. */
export function groupKey(groupBy: 'actor' | 'ip' | 'target' | null, e: StoredEvent): string {
  return groupBy ? e[groupBy] : '';
}
