import type { EventInput } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import type { z } from 'zod';

/** An event as the Hub's feed takes it: the contracts' `EventInput` with its defaults filled in. */
export type OutboxEvent = z.output<typeof EventInput>;

export const eventlogsRepository = {
  /** Events in one statement, in order (their sequence numbers follow the order given). */
  async insertMany(q: Queryable, teamId: string, events: readonly OutboxEvent[]): Promise<void> {
    await q.query(
      `insert into event_outbox (id, team_id, event)
       select id, $1, event from unnest($2::uuid[], $3::jsonb[]) with ordinality as e (id, event, n) order by n`,
      [teamId, events.map((e) => e.id), events.map((e) => JSON.stringify(e))],
    );
  },

  async insertSecurityEvent(
    q: Queryable,
    e: {
      kind: string;
      email?: string | undefined;
      userId?: string | undefined;
      teamId?: string | undefined;
      ip?: string | undefined;
      detail?: object | undefined;
    },
  ): Promise<void> {
    await q.query('insert into security_events (kind, email, user_id, team_id, ip, detail) values ($1, $2, $3, $4, $5, $6)', [
      e.kind,
      e.email ?? null,
      e.userId ?? null,
      e.teamId ?? null,
      e.ip ?? null,
      JSON.stringify(e.detail ?? {}),
    ]);
  },

  async pendingTeams(q: Queryable): Promise<string[]> {
    const rows = await q.query<{ team_id: string }>('select distinct team_id from event_outbox');
    return rows.map((r) => r.team_id);
  },

  /** Rows after `afterSeq` in order: a Hub's next batch from its cursor. */
  async batchAfter(
    q: Queryable,
    teamId: string,
    afterSeq: string,
    limit: number,
  ): Promise<{ seq: string; event: OutboxEvent }[]> {
    return q.query(
      // Ordered by the column, not by the text alias: '10' sorts before '9'.
      'select seq::text as seq, event from event_outbox where team_id = $1 and seq > $2::bigint order by event_outbox.seq limit $3',
      [teamId, afterSeq, limit],
    );
  },

  /** How far a Hub has taken the team's outbox ('0': nothing yet). */
  async cursor(q: Queryable, teamId: string, credentialId: string): Promise<string> {
    const [row] = await q.query<{ seq: string }>(
      'select delivered_seq::text as seq from event_outbox_cursors where team_id = $1 and credential_id = $2',
      [teamId, credentialId],
    );
    return row?.seq ?? '0';
  },

  async advance(q: Queryable, teamId: string, credentialId: string, seq: string): Promise<void> {
    await q.query(
      `insert into event_outbox_cursors (team_id, credential_id, delivered_seq) values ($1, $2, $3::bigint)
       on conflict (team_id, credential_id) do update set delivered_seq = greatest(event_outbox_cursors.delivered_seq, excluded.delivered_seq)`,
      [teamId, credentialId, seq],
    );
  },

  /** Deletes the rows every one of these Hubs has taken (a Hub without a cursor has taken none). */
  async pruneDelivered(q: Queryable, teamId: string, credentialIds: string[]): Promise<void> {
    await q.query(
      `delete from event_outbox where team_id = $1 and seq <= (
         select min(coalesce(c.delivered_seq, 0)) from unnest($2::text[]) as h (credential_id)
         left join event_outbox_cursors c on c.team_id = $1 and c.credential_id = h.credential_id)`,
      [teamId, credentialIds],
    );
  },

  async count(q: Queryable, teamId: string): Promise<number> {
    const [row] = await q.query<{ n: number }>('select count(*)::int as n from event_outbox where team_id = $1', [teamId]);
    return row?.n ?? 0;
  },
};
