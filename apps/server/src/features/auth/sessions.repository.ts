import type { Queryable } from '@latchkey/runtime';

export interface SessionRow {
  id: string;
  user_id: string;
  team_id: string;
  absolute_expires_at: Date;
  revoked_at: Date | null;
}

export const sessionsRepository = {
  async create(
    q: Queryable,
    userId: string,
    teamId: string,
    absoluteExpiresAt: Date,
    signInMethod: string | null,
  ): Promise<string> {
    const [row] = await q.query<{ id: string }>(
      'insert into sessions (user_id, team_id, absolute_expires_at, sign_in_method) values ($1, $2, $3, $4) returning id',
      [userId, teamId, absoluteExpiresAt, signInMethod],
    );
    return (row as { id: string }).id;
  },

  async find(q: Queryable, id: string): Promise<SessionRow | undefined> {
    const [row] = await q.query<SessionRow>(
      'select id, user_id, team_id, absolute_expires_at, revoked_at from sessions where id = $1',
      [id],
    );
    return row;
  },

  async revoke(q: Queryable, id: string, reason: string): Promise<void> {
    await q.query('update sessions set revoked_at = now(), revoked_reason = $2 where id = $1 and revoked_at is null', [
      id,
      reason,
    ]);
  },

  /** The teams of these sessions. */
  async teamsOf(q: Queryable, ids: string[]): Promise<string[]> {
    const rows = await q.query<{ team_id: string }>('select distinct team_id from sessions where id = any($1::uuid[])', [ids]);
    return rows.map((r) => r.team_id);
  },

  /** The teams the user has had sessions in. */
  async teamsOfUser(q: Queryable, userId: string): Promise<string[]> {
    const rows = await q.query<{ team_id: string }>('select distinct team_id from sessions where user_id = $1', [userId]);
    return rows.map((r) => r.team_id);
  },
};
