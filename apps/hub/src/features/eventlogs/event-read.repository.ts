import type { EventFilters, ExportFormat } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { eventChainRepository } from './event-chain.repository.ts';
import { filterClause, isUnfiltered } from './event-filter-sql.ts';
import { type EventRow, READ_COLUMNS, toRecord } from './event-rows.ts';
import { eventSearchPageRepository, type PageOptions } from './event-search-page.repository.ts';
import { exportBatchSql } from './export-sql.ts';

/** Reads of the log: pages, counts, the cursor reads of delivery and the pull API, exports, the verifier's ranges. */
export const eventReadRepository = {
  /**
   * One page newest first. Unfiltered, page N is a seq range (the chain is gap-free above the
   * retention floor): keyset at any depth. Filtered, `beforeSeq` continues from the last row seen;
   * a jump to page N without it skips rows (bounded by the page limit).
   */
  async page(q: Queryable, teamSlug: string, f: Required<EventFilters>, o: PageOptions) {
    if (f.search_value) return eventSearchPageRepository.searchPage(q, teamSlug, f, o);
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

  /** Rows matching the filter, counted up to `cap` (a count over millions of rows is not worth its time). */
  async count(q: Queryable, teamSlug: string, f: Required<EventFilters>, cap: number): Promise<number> {
    // A search counts what its pages show: the first `cap` of them.
    if (f.search_value) {
      const head = await eventChainRepository.head(q, teamSlug);
      return (await eventSearchPageRepository.searchPage(q, teamSlug, f, { page: 1, pageSize: cap, headSeq: head.seq })).length;
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
   * read each batch in ~190 ms that way). A cursor below the floor starts at the floor.
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

  /** The events of these seqs (an alert firing's matches), oldest first; those past retention are gone. */
  async bySeqs(q: Queryable, teamSlug: string, seqs: readonly number[]) {
    if (!seqs.length) return [];
    const rows = await q.query<EventRow>(
      `select ${READ_COLUMNS} from event_log where team_slug = $1 and seq = any($2::bigint[]) order by seq`,
      [teamSlug, seqs],
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

  /** The lowest seq left and the prev_hash it follows (the new verification anchor). */
  async lowest(q: Queryable, teamSlug: string): Promise<{ seq: number; prev_hash: string } | null> {
    const [row] = await q.query<{ seq: string | number; prev_hash: string }>(
      'select seq, prev_hash from event_log where team_slug = $1 order by seq limit 1',
      [teamSlug],
    );
    return row ? { seq: Number(row.seq), prev_hash: row.prev_hash } : null;
  },
};
