import type { EventFilters } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { filterClause, isUnfiltered, type SearchBy } from './event-filter-sql.ts';
import { eventRetentionRepository } from './event-retention.repository.ts';
import { type EventRow, monthBefore, monthOfPartition, READ_COLUMNS, searchPartitionOf, toRecord } from './event-rows.ts';
import { eventSearchRepository, searchPattern, searchTest } from './event-search.repository.ts';

export interface PageOptions {
  page: number;
  pageSize: number;
  beforeSeq?: number | undefined;
  headSeq: number;
  /** A search first reads the newest this many indexed events (tests make it small). */
  searchWindow?: number;
}

/**
 * A search first tests the newest this many indexed events one by one (`searchPage`): a term in 2 %
 * of events fills a page of 50 there, where the index would read all its matches first.
 */
const SEARCH_WINDOW = 2_500;
/** The newest indexed events a search samples to tell its common words from its rare ones (`selectiveWords`). */
const SEARCH_SAMPLE = 250;
/**
 * Up to this many matching values, the newest window is tested through their keys in the narrow
 * index rows; with more (a common word), on the events' own columns.
 */
const WINDOW_KEYS = 64;

/** A search's page of the log: through the search index where it pays, on the events' own columns where not. */
export const eventSearchPageRepository = {
  /**
   * A search's page, newest first: the rows the indexer has not reached yet, on their own columns;
   * then the team's values that match (none: done); then the newest SEARCH_WINDOW indexed events one
   * by one (a common term fills its page here, without reading all its matches); then below that
   * window, month by month, newest first, the events holding a value that matches (a rarer term:
   * the walk stops once the page is full, and a month without such a value is not read).
   */
  async searchPage(q: Queryable, teamSlug: string, f: Required<EventFilters>, o: PageOptions) {
    const skip = o.beforeSeq === undefined ? (o.page - 1) * o.pageSize : 0;
    const want = skip + o.pageSize;
    const indexed = await eventSearchRepository.progress(q, teamSlug);
    const rows: EventRow[] = [];
    const read = async (search: SearchBy, eventTable = 'event_log') => {
      if (search.upTo <= search.above) return [];
      const params: unknown[] = [teamSlug];
      const where = filterClause(f, params, { search });
      // The whole page's count, not what is left of it: asked for one row, the planner walks the
      // seq index hoping to meet a match soon (10 ms through a month for a rare value).
      params.push(want);
      return q.query<EventRow>(
        `select ${READ_COLUMNS} from ${eventTable} where ${where} order by seq desc limit $${params.length}`,
        params,
      );
    };
    const upTo = o.beforeSeq !== undefined ? o.beforeSeq - 1 : o.headSeq;
    const indexedUpTo = Math.min(upTo, indexed);
    const page = () => rows.slice(skip, want).map(toRecord);
    rows.push(...(await read({ index: false, above: indexedUpTo, upTo })));
    if (rows.length >= want || indexedUpTo <= 0) return page();

    const keysByMonth = await eventSearchRepository.keysMatching(q, teamSlug, f.search_value, {
      above: indexedUpTo - SEARCH_SAMPLE,
      upTo: indexedUpTo,
    });
    if (!keysByMonth.size) return page();
    const allKeys = [...new Set([...keysByMonth.values()].flat())];
    // With nothing but the search, matches are read from the index alone, then their events by key.
    const onlySearch = isUnfiltered({ ...f, search_value: '' });
    const below = Math.max(0, indexedUpTo - (o.searchWindow ?? SEARCH_WINDOW));
    const window = { index: true, above: below, upTo: indexedUpTo, keys: allKeys, table: 'event_search' };
    rows.push(
      ...(onlySearch && allKeys.length <= WINDOW_KEYS
        ? await eventSearchPageRepository.matchesIn(q, teamSlug, f.search_value, window, 'event_log', want, { rowByRow: true })
        : await read({ ...window, index: false })),
    );
    if (rows.length >= want || below <= 0) return page();

    const inMonth = (name: string, keys: string[]) => {
      const range = { index: true, above: 0, upTo: below, keys, table: searchPartitionOf(name) };
      return onlySearch ? eventSearchPageRepository.matchesIn(q, teamSlug, f.search_value, range, name, want) : read(range, name);
    };
    // A row whose month was not made ahead (the hourly job prevents it) sits in the default
    // partitions, whatever its time: read first and merged in.
    const stray = await inMonth('event_log_default', allKeys);
    // Within a team a later seq is never recorded earlier: newer months hold the higher seqs. A
    // month made ahead that has not begun holds nothing yet.
    const now = Date.now();
    const months = (await eventRetentionRepository.partitions(q))
      .filter((m) => monthBefore(m.upper).getTime() <= now)
      .sort((a, b) => b.upper.getTime() - a.upper.getTime());
    for (const { name } of months) {
      const keys = keysByMonth.get(monthOfPartition(name));
      if (rows.length >= want) break;
      if (keys) rows.push(...(await inMonth(name, keys)));
    }
    rows.push(...stray);
    rows.sort((a, b) => Number(b.seq) - Number(a.seq));
    return page();
  },

  /**
   * The newest `limit` events of `eventTable` in the range whose index rows (in `range.table`) hold
   * one of the range's keys, and whose columns hold the value.
   */
  async matchesIn(
    q: Queryable,
    teamSlug: string,
    value: string,
    range: Required<SearchBy>,
    eventTable: string,
    limit: number,
    o: { rowByRow?: boolean } = {},
  ) {
    // Row by row, newest first, stopping at the limit: `value_keys || '{}'` keeps the planner off
    // the GIN index, which would read every match of every month first.
    const keys = o.rowByRow ? "(value_keys || '{}'::bigint[])" : 'value_keys';
    const matches = await q.query<{ seq: string | number; recorded_at: Date }>(
      `select seq, recorded_at from ${range.table} where team_slug = $1 and seq > $2 and seq <= $3 and ${keys} && $4::bigint[]
       order by seq desc limit $5`,
      [teamSlug, range.above, range.upTo, range.keys, limit],
    );
    if (!matches.length) return [];
    return q.query<EventRow>(
      `select ${READ_COLUMNS} from ${eventTable}
       where team_slug = $1 and (seq, recorded_at) in (select * from unnest($2::bigint[], $3::timestamptz[]))
         and ${searchTest(4)}
       order by seq desc`,
      [teamSlug, matches.map((m) => m.seq), matches.map((m) => m.recorded_at), searchPattern(value)],
    );
  },
};
