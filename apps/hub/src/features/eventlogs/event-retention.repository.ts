import type { Queryable } from '@latchkey/runtime';
import { monthOfPartition, searchPartitionOf } from './event-rows.ts';
import { eventSearchRepository } from './event-search.repository.ts';

/** Retention: the monthly partitions, what each holds, removing a team's old months, the floor the chain now starts at. */
export const eventRetentionRepository = {
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

  async setFloor(q: Queryable, teamSlug: string, floorSeq: number): Promise<void> {
    await q.query('update event_chain_heads set floor_seq = $2 where team_slug = $1', [teamSlug, floorSeq]);
  },

  async teamsWithRetention(q: Queryable): Promise<{ team_slug: string; delete_after_days: number }[]> {
    return q.query('select team_slug, delete_after_days from event_log_settings where delete_after_days is not null');
  },
};
