import type { Queryable } from '@latchkey/runtime';

/** An event as the Hub's feed takes it (packages/contracts eventlogs.ts `EventInput`). */
export interface OutboxEvent {
  id: string;
  actor: string;
  actor_type: 'admin' | 'member' | 'app' | 'scim' | 'system';
  activity: string;
  component: string;
  target: string;
  ip: string;
  device: string;
  occurred_at: string;
  outcome: 'success' | 'failure';
  detail: Record<string, string | number | boolean | null>;
}

export const eventsRepository = {
  async insert(q: Queryable, teamId: string, event: OutboxEvent): Promise<void> {
    await q.query('insert into event_outbox (id, team_id, event) values ($1, $2, $3)', [event.id, teamId, JSON.stringify(event)]);
  },

  async pendingTeams(q: Queryable): Promise<string[]> {
    const rows = await q.query<{ team_id: string }>('select distinct team_id from event_outbox');
    return rows.map((r) => r.team_id);
  },

  async batch(q: Queryable, teamId: string, limit: number): Promise<{ seq: string; event: OutboxEvent }[]> {
    return q.query('select seq::text as seq, event from event_outbox where team_id = $1 order by seq limit $2', [teamId, limit]);
  },

  async remove(q: Queryable, teamId: string, upToSeq: string): Promise<void> {
    await q.query('delete from event_outbox where team_id = $1 and seq <= $2::bigint', [teamId, upToSeq]);
  },

  async count(q: Queryable, teamId: string): Promise<number> {
    const [row] = await q.query<{ n: number }>('select count(*)::int as n from event_outbox where team_id = $1', [teamId]);
    return row?.n ?? 0;
  },
};
