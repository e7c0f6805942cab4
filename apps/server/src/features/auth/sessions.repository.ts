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

  /** Ends every live session of the admin but `keepSessionId` (after a password change); returns the sessions ended. */
  async revokeOthersOfUser(q: Queryable, userId: string, keepSessionId: string, reason: string): Promise<string[]> {
    const rows = await q.query<{ id: string }>(
      `update sessions set revoked_at = now(), revoked_reason = $3
       where user_id = $1 and id <> $2 and revoked_at is null returning id`,
      [userId, keepSessionId, reason],
    );
    return rows.map((r) => r.id);
  },

  /** Ends every live session of the admin, in every team (after a password reset). */
  async revokeAllOfUser(q: Queryable, userId: string, reason: string): Promise<void> {
    await q.query('update sessions set revoked_at = now(), revoked_reason = $2 where user_id = $1 and revoked_at is null', [
      userId,
      reason,
    ]);
  },

  /** Ends the admin's live sessions in one team (removed from it, or their sign-in reset). */
  async revokeUserInTeam(q: Queryable, teamId: string, userId: string, reason: string): Promise<void> {
    await q.query(
      `update sessions set revoked_at = now(), revoked_reason = $3
       where team_id = $1 and user_id = $2 and revoked_at is null`,
      [teamId, userId, reason],
    );
  },

  /**
   * Ends the team's live sessions of these admins that were not signed in through SSO (password,
   * emailed code, or from before sessions kept their method); returns the sessions ended.
   */
  async revokeNotFromSso(q: Queryable, teamId: string, userIds: string[]): Promise<{ id: string; user_id: string }[]> {
    if (userIds.length === 0) return [];
    return q.query(
      `update sessions set revoked_at = now(), revoked_reason = 'sso_required'
       where team_id = $1 and user_id = any($2::uuid[]) and revoked_at is null and absolute_expires_at > now()
         and sign_in_method is distinct from 'sso'
       returning id, user_id`,
      [teamId, userIds],
    );
  },
};
