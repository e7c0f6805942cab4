import type { Queryable } from '@latchkey/runtime';
import { chainedHash, GENESIS_HASH, unchainedText } from './chain.ts';
import { COLUMNS, monthStart, type NewEvent, nextMonth, partitionName, searchPartitionOf } from './event-rows.ts';
import { canonicalTime } from './event-time.ts';

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

/** Writes to the team chains: the months they are kept in, each new event linked to the one before, the head. */
export const eventChainRepository = {
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
    if (recordedAt) await eventChainRepository.ensureMonth(q, at);
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
   * For the SIEM pump: each of these teams' head (teams with no event yet have none) and whether
   * its SIEM delivery is on (the default when the team has no settings).
   */
  async siemHeads(q: Queryable, teamSlugs: string[]): Promise<Map<string, { seq: number; siem_enabled: boolean }>> {
    const rows = await q.query<{ team_slug: string; seq: string | number; siem_enabled: boolean }>(
      `select h.team_slug, h.seq, coalesce(s.siem_enabled, true) as siem_enabled
       from event_chain_heads h left join event_log_settings s on s.team_slug = h.team_slug
       where h.team_slug = any($1::text[])`,
      [teamSlugs],
    );
    return new Map(rows.map((r) => [r.team_slug, { seq: Number(r.seq), siem_enabled: r.siem_enabled }]));
  },
};
