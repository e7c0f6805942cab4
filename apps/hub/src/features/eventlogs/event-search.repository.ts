import { escapeLike, type Queryable } from '@latchkey/runtime';

/**
 * The searched columns of an event as one text, joined by U+001F: the test on event_log's own rows
 * (those not indexed yet, exports). A search pattern holds no U+001F, so it matches within one
 * column, never across two.
 */
const SEARCH_BODY =
  "(actor || E'\\x1f' || target || E'\\x1f' || activity || E'\\x1f' || ip || E'\\x1f' || device || E'\\x1f' || component)";

/**
 * A column's value as the trigram index of event_search_values reads it (migration 0014): `. @ _ -`
 * written as the letters `ϙ ϛ ϝ ϟ`. The trigram index splits words at anything but letters and digits, so an
 * address, an IP or `member.invited` stays one word there, and its rare trigrams (`ϙ17ϛ` of `.17@`)
 * narrow the lookup. Those four letters in the events' own text become U+001E, which no pattern holds: exact.
 */
const indexText = (sql: string) => `translate(${sql}, 'ϙϛϝϟ.@_-', E'\\x1e\\x1e\\x1e\\x1eϙϛϝϟ')`;
const SEARCHED = ['actor', 'target', 'activity', 'ip', 'device', 'component'];
/** An event's index row: the keys of its searched values (migration 0014's event_value_key). */
export const INDEX_KEYS = `array[${SEARCHED.map((c) => `event_value_key(${c})`).join(', ')}]`;
/** The distinct values of a team's events in (above, upTo], column by column, with their UTC month. */
export const INDEX_VALUES = `select distinct team_slug, (date_trunc('month', recorded_at at time zone 'UTC'))::date, v.value
  from event_log, unnest(array[${SEARCHED.join(', ')}]) as v(value)
  where team_slug = $1 and seq > $2 and seq <= $3`;
/** A value as the trigram index of event_search_values reads it (its expression). */
const INDEXED_VALUE = indexText('value');
const TO_INDEX: Record<string, string> = { ϙ: '\x1e', ϛ: '\x1e', ϝ: '\x1e', ϟ: '\x1e', '.': 'ϙ', '@': 'ϛ', _: 'ϝ', '-': 'ϟ' };

/** A control character in a search value means nothing (and U+001E, U+001F are the bodies' own). */
const clean = (value: string) => value.replaceAll('\x1e', '').replaceAll('\x1f', '');
/** The `ilike` pattern of a search value over event_log's columns: literal, anywhere in a column. */
export const searchPattern = (value: string) => `%${escapeLike(clean(value))}%`;
/**
 * The test of event_log's rows for a search value, its pattern the parameter `$n`. What `ilike`
 * does in a UTF-8 database (lower both, then `like`), with the row's text lowered once, not per
 * column and character: a third faster over the newest events a search tests one by one.
 */
export const searchTest = (n: number) => `lower(${SEARCH_BODY}) like lower($${n})`;
/** The same pattern over event_search_values' `value`. */
const indexPattern = (value: string) => `%${escapeLike(clean(value).replace(/[ϙϛϝϟ.@_-]/g, (c) => TO_INDEX[c] ?? c))}%`;

/** A seq range (above, upTo] of a team's events. */
interface SeqRange {
  above: number;
  upTo: number;
}

/** The search index's rows (event_search) and each team's progress mark. */
export const eventSearchRepository = {
  /** The seq up to which the team's events are indexed (0: none). */
  async progress(q: Queryable, teamSlug: string): Promise<number> {
    const [row] = await q.query<{ seq: string | number }>('select seq from event_search_progress where team_slug = $1', [
      teamSlug,
    ]);
    return Number(row?.seq ?? 0);
  },

  /**
   * Indexes the team's next `limit` events after its mark, in the caller's transaction. Another
   * instance indexing the same team holds the mark's row: this one then does nothing (skip locked).
   */
  async indexNext(q: Queryable, teamSlug: string, limit: number): Promise<number> {
    await q.query('insert into event_search_progress (team_slug, seq) values ($1, 0) on conflict do nothing', [teamSlug]);
    const [mark] = await q.query<{ seq: string | number; floor_seq: string | number | null }>(
      `select p.seq, h.floor_seq from event_search_progress p left join event_chain_heads h on h.team_slug = p.team_slug
       where p.team_slug = $1 for update of p skip locked`,
      [teamSlug],
    );
    if (!mark) return 0;
    // Below the retention floor nothing is left to index.
    const from = Math.max(Number(mark.seq), Number(mark.floor_seq ?? 1) - 1);
    // Appends commit in seq order (the chain-head lock), so what this statement sees is gap-free.
    const [done] = await q.query<{ n: string | number; last: string | number | null }>(
      `with added as (
         insert into event_search (team_slug, seq, recorded_at, value_keys)
         select team_slug, seq, recorded_at, ${INDEX_KEYS} from event_log
         where team_slug = $1 and seq > $2 and seq <= $2::bigint + $3::bigint
         returning seq
       )
       select count(*) as n, max(seq) as last from added`,
      [teamSlug, from, limit],
    );
    const n = Number(done?.n ?? 0);
    if (!n) return 0;
    await q.query(
      `insert into event_search_values (team_slug, month, value) ${INDEX_VALUES}
       on conflict (team_slug, month, md5(value)) do nothing`,
      [teamSlug, from, done?.last],
    );
    await q.query('update event_search_progress set seq = $2 where team_slug = $1', [teamSlug, done?.last]);
    return n;
  },

  /**
   * The keys of the team's values that match a search value, by month (first day, `YYYY-MM-DD`):
   * only these months can hold a match, and only events holding one of these keys.
   */
  async keysMatching(q: Queryable, teamSlug: string, value: string, sample: SeqRange): Promise<Map<string, string[]>> {
    const words = await this.selectiveWords(q, teamSlug, value, sample);
    const params: unknown[] = [teamSlug, indexPattern(value)];
    const lookup = words.length
      ? `${words.map((w) => `${INDEXED_VALUE} ilike $${params.push(indexPattern(w))}`).join(' and ')} and (${INDEXED_VALUE} || '') ilike $2`
      : `${INDEXED_VALUE} ilike $2`;
    const rows = await q.query<{ month: string; keys: string[] }>(
      `select month::text as month, array_agg(event_value_key(value)::text) as keys
       from event_search_values where team_slug = $1 and ${lookup} group by month`,
      params,
    );
    return new Map(rows.map((r) => [r.month, r.keys]));
  },

  /**
   * The parts of a search value worth the trigram index's time. A word in most events (a team's
   * mail domain in every actor) narrows nothing, yet its trigrams' lists are the longest to read: a
   * word found in over a tenth of the `sample` events (the newest) is left to the final test. A short
   * word still gives trigrams with the . @ _ - around it (".17@" is "ϙ17ϛ" to the index: see
   * indexText). Empty: look up the whole value.
   */
  async selectiveWords(q: Queryable, teamSlug: string, value: string, sample: SeqRange): Promise<string[]> {
    const parts = new Set<string>();
    // A word with the . @ _ - around it, which the index reads as letters of the same word. (A space
    // around it would add the index's word-start trigrams, as common as "  1" of every number.)
    const joining = (c: string | undefined) => (c && '.@_-'.includes(c) ? c : '');
    for (const m of value.matchAll(/[\p{L}\p{N}]+/gu)) {
      const part = `${joining(value[m.index - 1])}${m[0]}${joining(value[m.index + m[0].length])}`.toLowerCase();
      // Only a part with three word characters in a row (as the index writes it) gives a trigram to look up.
      if (/[\p{L}\p{N}]{3}/u.test(indexPattern(part))) parts.add(part);
    }
    const words = [...parts];
    if (words.length < 2) return [];
    const [row] = await q.query<Record<string, string | number>>(
      `select count(*) as n, ${words.map((_, i) => `count(*) filter (where ${searchTest(i + 4)}) as p${i}`).join(', ')}
       from event_log where team_slug = $1 and seq > $2 and seq <= $3`,
      [teamSlug, sample.above, sample.upTo, ...words.map(searchPattern)],
    );
    const n = Number(row?.n ?? 0);
    const selective = words.filter((_, i) => Number(row?.[`p${i}`] ?? 0) * 10 <= n);
    return selective.length && selective.length < words.length ? selective : [];
  },

  /** Teams whose events are not all indexed (after a restart, or an append the indexer was not told of). */
  async teamsBehind(q: Queryable): Promise<string[]> {
    const rows = await q.query<{ team_slug: string }>(
      `select h.team_slug from event_chain_heads h left join event_search_progress p on p.team_slug = h.team_slug
       where h.seq > coalesce(p.seq, 0)`,
    );
    return rows.map((r) => r.team_slug);
  },

  /** Retention: the index rows of events below the team's new floor. */
  async removeBelow(q: Queryable, teamSlug: string, floorSeq: number): Promise<void> {
    await q.query('delete from event_search where team_slug = $1 and seq < $2', [teamSlug, floorSeq]);
  },

  /** Retention: a dropped month's values, of one team or (no team) of all. */
  async removeMonth(q: Queryable, month: string, teamSlug?: string): Promise<void> {
    if (teamSlug) await q.query('delete from event_search_values where month = $1 and team_slug = $2', [month, teamSlug]);
    else await q.query('delete from event_search_values where month = $1', [month]);
  },
};
