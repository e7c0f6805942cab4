import type { EventFilters, EventRecord, ExportFormat } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { chainedHash, GENESIS_HASH, unchainedText } from './chain.ts';
import { eventSearchRepository, searchPattern, searchTest } from './event-search.repository.ts';
import { canonicalTime, canonicalTimeSql } from './event-time.ts';
import { exportBatchSql } from './export-sql.ts';

/** One event as the store appends it (already validated; `id` is the source's stable id). */
export interface NewEvent {
  id: string;
  actor: string;
  actor_type: EventRecord['actor_type'];
  activity: string;
  component: string;
  target: string;
  ip: string;
  device: string;
  occurred_at: string;
  outcome: EventRecord['outcome'];
  detail: Record<string, unknown>;
}

interface EventRow {
  team_slug: string;
  seq: string | number;
  id: string;
  actor: string;
  actor_type: EventRecord['actor_type'];
  activity: string;
  component: string;
  target: string;
  ip: string;
  device: string;
  /** Canonical text, made by the database from the stored value (event-time.ts). */
  occurred_at: string;
  recorded_at: string;
  outcome: EventRecord['outcome'];
  detail: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

const COLUMNS =
  'team_slug, seq, id, actor, actor_type, activity, component, target, ip, device, occurred_at, recorded_at, outcome, detail, prev_hash, hash';
/** What reads select: the times as the chain's text, from the stored values. */
const READ_COLUMNS = COLUMNS.replace(
  'occurred_at, recorded_at',
  `${canonicalTimeSql('occurred_at')} as occurred_at, ${canonicalTimeSql('recorded_at')} as recorded_at`,
);

export function toRecord(r: EventRow): EventRecord & { team_slug: string } {
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

const monthStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
const nextMonth = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
export const partitionName = (d: Date) => `event_log_y${d.getUTCFullYear()}m${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
/** The search index's partition beside an event_log partition (migration 0013: same bounds). */
const searchPartitionOf = (eventLogPartition: string) => eventLogPartition.replace(/^event_log_/, 'event_search_');
/** The first day (`YYYY-MM-DD`) of an event_log partition's month, as event_search_values keys it. */
const monthOfPartition = (partition: string) => partition.replace(/^event_log_y(\d{4})m(\d{2})$/, '$1-$2-01');

/**
 * How a search read finds its rows over a seq range: on event_log's own columns alone (`index:
 * false`: the rows not indexed yet, the newest window), or first through the search index (migration
 * 0014). Without one (exports), the columns are tested over the whole filter.
 */
interface SearchBy {
  index: boolean;
  /** The search index table read (event_search, or one month of it). */
  table?: string;
  /** Through the index: the keys of the values that match (event_search_values), one of which an event holds. */
  keys?: string[];
  /** The seq range searched: (above, upTo]. */
  above: number;
  upTo: number;
}

/** The WHERE clause of a filtered read (spec §3 filters), with its parameters from $2 on ($1 is the team). */
function filterClause(f: Required<EventFilters>, params: unknown[], o: { seqRange?: boolean; search?: SearchBy } = {}): string {
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

/** The seq range of each hour the events occurred in (event_time_seqs), the first event being `firstSeq`. */
function hourRanges(events: readonly { occurred_at: string }[], firstSeq: number) {
  const byHour = new Map<number, { hour: number; lo: number; hi: number }>();
  events.forEach((e, i) => {
    const hour = Math.floor(Date.parse(e.occurred_at) / 3_600_000);
    const range = byHour.get(hour);
    if (range) range.hi = firstSeq + i;
    else byHour.set(hour, { hour, lo: firstSeq + i, hi: firstSeq + i });
  });
  return [...byHour.values()];
}

/** A month's bounds from its partition's upper bound. */
const monthBefore = (upper: Date) => new Date(Date.UTC(upper.getUTCFullYear(), upper.getUTCMonth() - 1, 1));

interface PageOptions {
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

export const isUnfiltered = (f: Required<EventFilters>) =>
  !f.activities.length &&
  !f.actors.length &&
  !f.components.length &&
  !f.ip_addresses.length &&
  f.dates.start_timestamp == null &&
  f.dates.end_timestamp == null &&
  !f.search_value;

export const eventsRepository = {
  /**
   * Creates the month's partition of `at` if missing. Called outside any transaction (at start,
   * hourly, for this month and the next): several instances may race, and the loser's error is ignored.
   */
  async ensureMonth(q: Queryable, at: Date): Promise<void> {
    const name = partitionName(at);
    const bounds = `for values from ('${monthStart(at).toISOString()}') to ('${nextMonth(at).toISOString()}')`;
    for (const [table, parent] of [
      [name, 'event_log'],
      [searchPartitionOf(name), 'event_search'],
    ])
      try {
        await q.query(`create table if not exists ${table} partition of ${parent} ${bounds}`);
      } catch (error) {
        const code = (error as { code?: string }).code;
        // Created meanwhile by another instance.
        if (code !== '42P07' && code !== '23505') throw error;
      }
  },

  /**
   * Appends events to the team's chain in the caller's transaction: locks the chain head, skips
   * ids already stored, links each new event to the one before. Returns how many were new.
   */
  async append(q: Queryable, teamSlug: string, events: readonly NewEvent[], recordedAt?: Date): Promise<number> {
    if (!events.length) return 0;
    // Before anything is written: a time outside the bounds would not read back as it was hashed.
    const now = Date.now();
    const timed = events.map((e, i) => ({ ...e, occurred_at: canonicalTime(e.occurred_at, i, now) }));
    // The ids stored before come back only when there are some (a batch is all new, nearly always).
    const [stored] = await q.query<{ n: string | number; fresh: string[] | null }>(
      `with fresh as (insert into event_ids (team_slug, id) select $1, unnest($2::uuid[]) on conflict do nothing returning id),
         head as (insert into event_chain_heads (team_slug, hash) values ($1, $3) on conflict (team_slug) do nothing)
       select count(*) as n, case when count(*) < $4 then array_agg(id::text) end as fresh from fresh`,
      [teamSlug, timed.map((e) => e.id), GENESIS_HASH, timed.length],
    );
    const allNew = Number(stored?.n) === timed.length;
    const fresh = new Set(stored?.fresh ?? []);
    const seen = new Set<string>();
    const unseen = timed.filter((e) => (allNew || fresh.has(e.id)) && !seen.has(e.id) && seen.add(e.id));
    if (!unseen.length) return 0;
    // Everything that does not depend on the chain's place is made before the lock is taken.
    const texts = unseen.map(unchainedText);
    const column = <K extends keyof (typeof unseen)[number]>(k: K) => unseen.map((e) => e[k]);
    const details = unseen.map((e) => JSON.stringify(e.detail));
    const [head] = await q.query<{ seq: string | number; hash: string }>(
      'select seq, hash from event_chain_heads where team_slug = $1 for update',
      [teamSlug],
    );
    const first = Number(head?.seq ?? 0) + 1;
    const headHash = head?.hash ?? GENESIS_HASH;
    // Taken after the lock: within a team, later seq never has an earlier time.
    const at = recordedAt ?? new Date();
    // Back-dated rows (tests, imports) get their month made here; live rows find theirs made ahead.
    if (recordedAt) await this.ensureMonth(q, at);
    const recorded = at.toISOString();
    let prev = headHash;
    const hashes = texts.map((text, i) => {
      prev = chainedHash(teamSlug, first + i, text, recorded, prev);
      return prev;
    });
    const hours = hourRanges(unseen, first);
    // The rows, the new head and the hour → seq map in one statement: one round trip under the lock.
    // Each row's seq and prev_hash follow from its place (not sent: a third fewer bytes to the database).
    await q.query(
      `with added as (
         insert into event_log (${COLUMNS})
         select $1, $3::bigint + n - 1, i, a, aty, act, c, t, ip, d, o, $2::timestamptz, oc, det,
           coalesce(lag(h) over (order by n), $15), h
         from unnest($4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
                     $11::text[], $12::timestamptz[], $13::text[], $14::jsonb[], $16::text[])
           with ordinality as u(i, a, aty, act, c, t, ip, d, o, oc, det, h, n)
       ),
       head as (update event_chain_heads set seq = $17, hash = $18 where team_slug = $1),
       hours as (
         insert into event_time_seqs as t (team_slug, hour, min_seq, max_seq)
         select $1, hour, lo, hi from unnest($19::bigint[], $20::bigint[], $21::bigint[]) as u(hour, lo, hi)
         on conflict (team_slug, hour) do update
           set min_seq = least(t.min_seq, excluded.min_seq), max_seq = greatest(t.max_seq, excluded.max_seq)
       )
       select 1`,
      [
        teamSlug,
        recorded,
        first,
        column('id'),
        column('actor'),
        column('actor_type'),
        column('activity'),
        column('component'),
        column('target'),
        column('ip'),
        column('device'),
        column('occurred_at'),
        column('outcome'),
        details,
        headHash,
        hashes,
        first + unseen.length - 1,
        prev,
        hours.map((h) => h.hour),
        hours.map((h) => h.lo),
        hours.map((h) => h.hi),
      ],
    );
    return unseen.length;
  },

  async head(q: Queryable, teamSlug: string): Promise<{ seq: number; hash: string; floor_seq: number }> {
    const [row] = await q.query<{ seq: string | number; hash: string; floor_seq: string | number }>(
      'select seq, hash, floor_seq from event_chain_heads where team_slug = $1',
      [teamSlug],
    );
    return row
      ? { seq: Number(row.seq), hash: row.hash, floor_seq: Number(row.floor_seq) }
      : { seq: 0, hash: GENESIS_HASH, floor_seq: 1 };
  },

  /**
   * One page newest first. Unfiltered, page N is a seq range (the chain is gap-free above the
   * retention floor): keyset at any depth. Filtered, `beforeSeq` continues from the last row seen;
   * a jump to page N without it skips rows (bounded by the page limit).
   */
  async page(q: Queryable, teamSlug: string, f: Required<EventFilters>, o: PageOptions) {
    if (f.search_value) return this.searchPage(q, teamSlug, f, o);
    const params: unknown[] = [teamSlug];
    let where = filterClause(f, params);
    let offset = 0;
    if (o.beforeSeq !== undefined) {
      params.push(o.beforeSeq);
      where += ` and seq < $${params.length}`;
    } else if (isUnfiltered(f)) {
      params.push(o.headSeq - (o.page - 1) * o.pageSize);
      where += ` and seq <= $${params.length}`;
    } else offset = (o.page - 1) * o.pageSize;
    params.push(o.pageSize);
    const rows = await q.query<EventRow>(
      `select ${READ_COLUMNS} from event_log where ${where} order by seq desc limit $${params.length}${offset ? ` offset ${offset}` : ''}`,
      params,
    );
    return rows.map(toRecord);
  },

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
        ? await this.matchesIn(q, teamSlug, f.search_value, window, 'event_log', want, { rowByRow: true })
        : await read({ ...window, index: false })),
    );
    if (rows.length >= want || below <= 0) return page();

    const inMonth = (name: string, keys: string[]) => {
      const range = { index: true, above: 0, upTo: below, keys, table: searchPartitionOf(name) };
      return onlySearch ? this.matchesIn(q, teamSlug, f.search_value, range, name, want) : read(range, name);
    };
    // A row whose month was not made ahead (the hourly job prevents it) sits in the default
    // partitions, whatever its time: read first and merged in.
    const stray = await inMonth('event_log_default', allKeys);
    // Within a team a later seq is never recorded earlier: newer months hold the higher seqs. A
    // month made ahead that has not begun holds nothing yet.
    const now = Date.now();
    const months = (await this.partitions(q))
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

  /** Rows matching the filter, counted up to `cap` (a count over millions of rows is not worth its time). */
  async count(q: Queryable, teamSlug: string, f: Required<EventFilters>, cap: number): Promise<number> {
    // A search counts what its pages show: the first `cap` of them.
    if (f.search_value) {
      const head = await this.head(q, teamSlug);
      return (await this.searchPage(q, teamSlug, f, { page: 1, pageSize: cap, headSeq: head.seq })).length;
    }
    const params: unknown[] = [teamSlug];
    const where = filterClause(f, params, { seqRange: false });
    const [row] = await q.query<{ n: string | number }>(
      `select count(*) as n from (select 1 from event_log where ${where} limit ${cap}) x`,
      params,
    );
    return Number(row?.n ?? 0);
  },

  /**
   * Every event after `afterSeq`, oldest first, at most `limit`: the SIEM delivery's and the pull
   * API's read. The chain is gap-free above the retention floor, so this is the seq range
   * (start, start + limit] — an index range, never a sort of everything after the cursor (a backfill
   * read each batch in ~190 ms that way; issue 12). A cursor below the floor starts at the floor.
   */
  async after(q: Queryable, teamSlug: string, afterSeq: number, limit: number) {
    const rows = await q.query<EventRow>(
      `with start as (
         select greatest($2::bigint, coalesce((select floor_seq - 1 from event_chain_heads where team_slug = $1), 0)) as s
       )
       select ${READ_COLUMNS} from event_log, start
       where team_slug = $1 and seq > start.s and seq <= start.s + $3::bigint
       order by seq`,
      [teamSlug, afterSeq, limit],
    );
    return rows.map(toRecord);
  },

  /** The export's rows with seq in [fromSeq, toSeq], formatted by the database (export-sql.ts). */
  async exportBatch(
    q: Queryable,
    teamSlug: string,
    f: Required<EventFilters>,
    format: ExportFormat,
    fromSeq: number,
    toSeq: number,
  ): Promise<{ text: string; last: number; n: number }> {
    const params: unknown[] = [teamSlug];
    const where = filterClause(f, params);
    params.push(fromSeq, toSeq);
    const sql = exportBatchSql(format, where, `$${params.length - 1}`, `$${params.length}`);
    const [row] = await q.query<{ text: string | null; last: string | number | null; n: string | number }>(sql, params);
    return { text: row?.text ?? '', last: Number(row?.last ?? 0), n: Number(row?.n ?? 0) };
  },

  /** Rows seq from..to (inclusive), ascending: the verifier's read. */
  async range(q: Queryable, teamSlug: string, from: number, to: number, limit: number) {
    const rows = await q.query<EventRow>(
      `select ${READ_COLUMNS} from event_log where team_slug = $1 and seq >= $2 and seq <= $3 order by seq limit $4`,
      [teamSlug, from, to, limit],
    );
    return rows.map(toRecord);
  },

  async hashAt(q: Queryable, teamSlug: string, seq: number): Promise<string | null> {
    const [row] = await q.query<{ hash: string }>('select hash from event_log where team_slug = $1 and seq = $2', [
      teamSlug,
      seq,
    ]);
    return row?.hash ?? null;
  },

  /** The first seq recorded at or after `at` (SIEM backfill), or null. */
  async firstSeqSince(q: Queryable, teamSlug: string, at: Date): Promise<number | null> {
    const [row] = await q.query<{ seq: string | number }>(
      'select min(seq) as seq from event_log where team_slug = $1 and occurred_at >= $2',
      [teamSlug, at],
    );
    return row?.seq == null ? null : Number(row.seq);
  },

  /** Distinct values of a filter column for the team (the filter options). */
  async distinct(q: Queryable, teamSlug: string, column: 'activity' | 'actor' | 'component' | 'ip', limit: number) {
    const rows = await q.query<{ v: string }>(
      `select distinct ${column} as v from event_log where team_slug = $1 and ${column} <> '' order by 1 limit $2`,
      [teamSlug, limit],
    );
    return rows.map((r) => r.v);
  },

  // ── retention ──
  /** The monthly partitions, with their upper bound. */
  async partitions(q: Queryable): Promise<{ name: string; upper: Date }[]> {
    const rows = await q.query<{ name: string; bound: string }>(
      `select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
       from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
       where p.relname = 'event_log'`,
    );
    return rows
      .map((r) => {
        const m = /TO \('([^']+)'\)/.exec(r.bound);
        return m?.[1] ? { name: r.name, upper: new Date(m[1]) } : null;
      })
      .filter((p): p is { name: string; upper: Date } => p !== null);
  },

  async teamsIn(q: Queryable, partition: string): Promise<string[]> {
    const rows = await q.query<{ team_slug: string }>(`select distinct team_slug from ${partition}`);
    return rows.map((r) => r.team_slug);
  },

  /** Drops an event_log month and its search index month. */
  async dropPartition(q: Queryable, partition: string): Promise<void> {
    await q.query(`drop table if exists ${partition}, ${searchPartitionOf(partition)}`);
    await eventSearchRepository.removeMonth(q, monthOfPartition(partition));
  },

  async deleteTeamRowsIn(q: Queryable, partition: string, teamSlug: string): Promise<void> {
    await q.query(`delete from ${partition} where team_slug = $1`, [teamSlug]);
    await q.query(`delete from ${searchPartitionOf(partition)} where team_slug = $1`, [teamSlug]);
    await eventSearchRepository.removeMonth(q, monthOfPartition(partition), teamSlug);
  },

  /** The lowest seq left and the prev_hash it follows (the new verification anchor). */
  async lowest(q: Queryable, teamSlug: string): Promise<{ seq: number; prev_hash: string } | null> {
    const [row] = await q.query<{ seq: string | number; prev_hash: string }>(
      'select seq, prev_hash from event_log where team_slug = $1 order by seq limit 1',
      [teamSlug],
    );
    return row ? { seq: Number(row.seq), prev_hash: row.prev_hash } : null;
  },

  async setFloor(q: Queryable, teamSlug: string, floorSeq: number): Promise<void> {
    await q.query('update event_chain_heads set floor_seq = $2 where team_slug = $1', [teamSlug, floorSeq]);
  },

  // ── the pull API's token ──
  async setPullToken(q: Queryable, teamSlug: string, tokenHash: string): Promise<Date> {
    const [row] = await q.query<{ created_at: Date }>(
      `insert into event_pull_tokens (team_slug, token_hash) values ($1, $2)
       on conflict (team_slug) do update set token_hash = excluded.token_hash, created_at = now() returning created_at`,
      [teamSlug, tokenHash],
    );
    return row?.created_at ?? new Date();
  },

  async removePullToken(q: Queryable, teamSlug: string): Promise<void> {
    await q.query('delete from event_pull_tokens where team_slug = $1', [teamSlug]);
  },

  async pullTokenCreatedAt(q: Queryable, teamSlug: string): Promise<Date | null> {
    const [row] = await q.query<{ created_at: Date }>('select created_at from event_pull_tokens where team_slug = $1', [
      teamSlug,
    ]);
    return row?.created_at ?? null;
  },

  async teamOfPullToken(q: Queryable, tokenHash: string): Promise<string | null> {
    const [row] = await q.query<{ team_slug: string }>('select team_slug from event_pull_tokens where token_hash = $1', [
      tokenHash,
    ]);
    return row?.team_slug ?? null;
  },

  // ── settings ──
  async settings(q: Queryable, teamSlug: string): Promise<{ delete_after_days: number | null; siem_enabled: boolean }> {
    const [row] = await q.query<{ delete_after_days: number | null; siem_enabled: boolean }>(
      'select delete_after_days, siem_enabled from event_log_settings where team_slug = $1',
      [teamSlug],
    );
    return row ?? { delete_after_days: null, siem_enabled: true };
  },

  async setRetention(q: Queryable, teamSlug: string, days: number): Promise<void> {
    await q.query(
      `insert into event_log_settings (team_slug, delete_after_days) values ($1, $2)
       on conflict (team_slug) do update set delete_after_days = excluded.delete_after_days, updated_at = now()`,
      [teamSlug, days],
    );
  },

  async setSiemEnabled(q: Queryable, teamSlug: string, enabled: boolean): Promise<void> {
    await q.query(
      `insert into event_log_settings (team_slug, siem_enabled) values ($1, $2)
       on conflict (team_slug) do update set siem_enabled = excluded.siem_enabled, updated_at = now()`,
      [teamSlug, enabled],
    );
  },

  async teamsWithRetention(q: Queryable): Promise<{ team_slug: string; delete_after_days: number }[]> {
    return q.query('select team_slug, delete_after_days from event_log_settings where delete_after_days is not null');
  },
};
