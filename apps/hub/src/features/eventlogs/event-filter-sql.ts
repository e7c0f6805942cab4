import { EventFilters } from '@latchkey/contracts';
import { searchPattern, searchTest } from './event-search.repository.ts';

/**
 * How a search read finds its rows over a seq range: on event_log's own columns alone (`index:
 * false`: the rows not indexed yet, the newest window), or first through the search index (migration
 * 0014). Without one (exports), the columns are tested over the whole filter.
 */
export interface SearchBy {
  index: boolean;
  /** The search index table read (event_search, or one month of it). */
  table?: string;
  /** Through the index: the keys of the values that match (event_search_values), one of which an event holds. */
  keys?: string[];
  /** The seq range searched: (above, upTo]. */
  above: number;
  upTo: number;
}

export const isUnfiltered = (f: Required<EventFilters>) =>
  !f.activities.length &&
  !f.actors.length &&
  !f.components.length &&
  !f.ip_addresses.length &&
  f.dates.start_timestamp == null &&
  f.dates.end_timestamp == null &&
  !f.search_value;

/** The WHERE clause of a filtered read (spec §3 filters), with its parameters from $2 on ($1 is the team). */
export function filterClause(
  f: Required<EventFilters>,
  params: unknown[],
  o: { seqRange?: boolean; search?: SearchBy } = {},
): string {
  const parts = ['team_slug = $1'];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    parts.push(sql(params.length));
  };
  if (f.activities.length) add((n) => `activity = any($${n}::text[])`, f.activities);
  if (f.actors.length) add((n) => `actor = any($${n}::text[])`, f.actors);
  if (f.components.length) add((n) => `component = any($${n}::text[])`, f.components);
  if (f.ip_addresses.length) add((n) => `ip = any($${n}::text[])`, f.ip_addresses);
  const start = f.dates.start_timestamp ?? null;
  const end = f.dates.end_timestamp ?? null;
  if (start !== null) add((n) => `occurred_at >= to_timestamp($${n})`, start);
  if (end !== null) add((n) => `occurred_at <= to_timestamp($${n})`, end);
  // Reads in seq order walk the seq index inside the range; a count reads the occurred_at index alone (index-only).
  if ((o.seqRange ?? true) && (start !== null || end !== null)) {
    // The seq range of the hours the dates cover (event_time_seqs): a superset, so the test above stays.
    const within = ['team_slug = $1'];
    if (start !== null) within.push(`hour >= $${params.push(Math.floor(start / 3600))}`);
    if (end !== null) within.push(`hour <= $${params.push(Math.floor(end / 3600))}`);
    parts.push(
      `seq >= coalesce((select min(min_seq) from event_time_seqs where ${within.join(' and ')}), 1)`,
      `seq <= coalesce((select max(max_seq) from event_time_seqs where ${within.join(' and ')}), 0)`,
    );
  }
  if (f.search_value && o.search) {
    const range = `seq > $${params.push(o.search.above)} and seq <= $${params.push(o.search.upTo)}`;
    parts.push(range);
    if (o.search.index)
      parts.push(
        `(team_slug, seq, recorded_at) in (select team_slug, seq, recorded_at from ${o.search.table ?? 'event_search'}
           where team_slug = $1 and ${range} and value_keys && $${params.push(o.search.keys ?? [])}::bigint[])`,
      );
  }
  // Through the index too, the value decides: a key is 64 bits of a digest.
  if (f.search_value) parts.push(searchTest(params.push(searchPattern(f.search_value))));
  return parts.join(' and ');
}

/** A call's filters with the contract's defaults filled in. */
export const parseFilters = (f: unknown): Required<EventFilters> => EventFilters.parse(f ?? {}) as Required<EventFilters>;
